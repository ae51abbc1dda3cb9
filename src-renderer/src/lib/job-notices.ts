// Desktop notifications when a long job ends while the window is in the background (issue 14 item 8).
// The decision is pure (tested); app/live.ts shows it through the shell (Electron) or the browser.
import type { LiveEvent } from '../../../src-shared/api/events';
import { plainCode } from './plain/codes';

/** A job that ran at least this long is worth a notification when it ends unseen. */
export const LONG_JOB_MS = 10_000;

const TERMINAL = new Set(['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED']);

const KIND_NAMES: Record<string, string> = {
  build: 'Build',
  'warehouse-semantic-view-push': 'Warehouse push',
  'warehouse-semantic-view-pull': 'Warehouse pull',
  'lakehouse.run': 'Lakehouse publication',
  'lakehouse.preview': 'Lakehouse preview',
  'transform-sync': 'Transform sync',
  'dashboard-export': 'Dashboard export',
  'scheduled-task-run': 'Scheduled task run',
};

const STATUS_WORDS: Record<string, string> = {
  COMPLETED: 'finished',
  PARTIAL: 'finished with some parts failing',
  FAILED: 'failed',
  CANCELLED: 'was cancelled',
};

export interface JobNotice {
  title: string;
  body: string;
  /** Where the app shows the job (opened when the notification is clicked); null: no screen shows it. */
  path: string | null;
}

const enc = encodeURIComponent;

/** The screen of a job, by kind (the addresses of features/syncs/paths.ts and features/deployments). */
export function jobPath(kind: string, jobId: string, deploymentId: number | null): string | null {
  if (deploymentId === null) return null;
  switch (kind) {
    case 'warehouse-semantic-view-push':
      return `/syncs/${deploymentId}/warehouse/push/${enc(jobId)}`;
    case 'warehouse-semantic-view-pull':
      return `/syncs/${deploymentId}/warehouse/pull/${enc(jobId)}`;
    case 'lakehouse.run':
    case 'lakehouse.preview':
      // The event does not name the data source: its tab lists them.
      return `/syncs/${deploymentId}/lakehouse`;
    case 'build':
      return `/deployments/${deploymentId}/build`;
    case 'transform-sync':
      return `/syncs/${deploymentId}/transform/${enc(jobId)}`;
    case 'scheduled-task-run':
      return `/deployments/${deploymentId}/tasks/${enc(jobId)}`;
    default:
      return null;
  }
}

/**
 * Follows job events: remembers when each job was first seen running, and answers the notice to
 * show when one of the user's jobs ends after running long while the window is not looked at.
 */
export class JobNotices {
  private readonly firstSeen = new Map<string, number>();

  constructor(private readonly userId: () => number | null) {}

  take(event: LiveEvent, now: number, inBackground: boolean): JobNotice | null {
    if (event.type !== 'job') return null;
    const { job } = event;
    if (!TERMINAL.has(job.status)) {
      if (!this.firstSeen.has(job.id)) this.firstSeen.set(job.id, now);
      return null;
    }
    const started = this.firstSeen.get(job.id);
    this.firstSeen.delete(job.id);
    const me = this.userId();
    if (started === undefined || now - started < LONG_JOB_MS || !inBackground) return null;
    // Builds start from a merge or a fetch (no creator): they concern whoever is signed in.
    if (job.createdBy !== null && me !== null && job.createdBy !== me) return null;
    const what = KIND_NAMES[job.kind] ?? `Job ${job.kind}`;
    const seconds = Math.round((now - started) / 1000);
    // A system notification has no "Details" to open: it says what happened in plain words; the
    // code is on the job's screen, behind "Details".
    const known = plainCode(job.errorCode);
    const happened = known ? `${known.what.charAt(0).toUpperCase()}${known.what.slice(1)}` : job.errorCode ? 'Its screen in Drydock says why' : null;
    const body = [happened, `after ${seconds} s`, event.deploymentId !== null ? `deployment ${event.deploymentId}` : null]
      .filter(Boolean)
      .join(' · ');
    return { title: `${what} ${STATUS_WORDS[job.status] ?? job.status.toLowerCase()}`, body, path: jobPath(job.kind, job.id, event.deploymentId) };
  }
}
