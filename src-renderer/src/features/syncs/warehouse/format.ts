import {
  PULL_STAGES,
  PUSH_STAGES,
  TERMINAL_SYNC_JOB_STATUSES,
  type PushedView,
  type SyncJob,
  type SyncJobStatus,
} from '../../../../../src-shared/api/warehouse-sync';
import { warehouseJobPath } from '../paths';
import type { Announcement } from '../tracker';
import { plainFailure } from '../../../lib/plain/problems';

// Pure helpers of the warehouse tab (no DOM, no API): what a job asked for, its stages, texts.

export const isTerminal = (status: SyncJobStatus): boolean => TERMINAL_SYNC_JOB_STATUSES.includes(status);

/** The list's status filters and the statuses each asks the service for. */
export const STATUS_FILTERS = [
  { id: 'all', title: 'All', statuses: [] },
  { id: 'active', title: 'Active', statuses: ['QUEUED', 'RUNNING', 'CANCELLING'] },
  { id: 'completed', title: 'Completed', statuses: ['COMPLETED'] },
  { id: 'failed', title: 'Failed', statuses: ['FAILED', 'PARTIAL'] },
  { id: 'cancelled', title: 'Cancelled', statuses: ['CANCELLED'] },
] as const satisfies readonly { id: string; title: string; statuses: readonly SyncJobStatus[] }[];
export type StatusFilter = (typeof STATUS_FILTERS)[number]['id'];

export const statusesOf = (filter: StatusFilter): SyncJobStatus[] => [...(STATUS_FILTERS.find((f) => f.id === filter)?.statuses ?? [])];

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** What a job was asked to do, read from its request. */
export interface JobRequest {
  schema: string | null;
  prefix: string | null;
  viewNames: string[];
  outputPath: string | null;
  helperViewSchema: string | null;
}

export function requestOf(job: Pick<SyncJob, 'request'>): JobRequest {
  const r = job.request;
  return {
    schema: text(r.schema),
    prefix: typeof r.prefix === 'string' ? r.prefix : null,
    viewNames: strings(r.viewNames),
    outputPath: text(r.outputPath),
    helperViewSchema: text(r.helperViewSchema),
  };
}

/** Stages of a direction in order, and where `stage` is among them (-1 when unknown). */
export function stageSteps(direction: SyncJob['direction'], stage: string): { stages: readonly string[]; index: number } {
  const stages = direction === 'push' ? PUSH_STAGES : PULL_STAGES;
  return { stages, index: stages.indexOf(stage as never) };
}

/** `creating-views` → `Creating views`. */
export const stageLabel = (stage: string): string => {
  const words = stage.replace(/[-_]+/g, ' ').trim().replace(/\b(ddl|sql|yaml)\b/gi, (w) => w.toUpperCase());
  return words ? words[0].toUpperCase() + words.slice(1) : '—';
};

/** One line naming what a job covers: `product_sales, orders_overview` or `all views`. */
export function scopeText(job: Pick<SyncJob, 'direction' | 'request'>): string {
  const { viewNames } = requestOf(job);
  if (viewNames.length === 0) return job.direction === 'pull' ? 'every semantic view' : 'no views';
  return viewNames.length <= 2 ? viewNames.join(', ') : `${viewNames.slice(0, 2).join(', ')} +${viewNames.length - 2}`;
}

/** What the desktop notification (or toast) says when a job ends. */
export function endAnnouncement(deploymentId: number, job: SyncJob): Announcement {
  const verb = job.direction === 'push' ? 'Push' : 'Pull';
  const { schema } = requestOf(job);
  const where = job.direction === 'push' ? `to ${schema ?? 'the warehouse'}` : `from ${schema ?? 'the warehouse'}`;
  const path = warehouseJobPath(deploymentId, job.direction, job.syncJobId);
  switch (job.status) {
    case 'COMPLETED':
      return { title: `${verb} completed`, body: `${verb} of ${scopeText(job)} ${where} completed.`, tone: 'good', path };
    case 'CANCELLED':
      return { title: `${verb} cancelled`, body: `${verb} of ${scopeText(job)} ${where} was cancelled.`, tone: 'warn', path };
    default: {
      // Plain words and the fix; the code and the warehouse's own message stay behind "Details".
      const plain = plainFailure(job.error);
      return {
        title: `${verb} failed`,
        body: `${verb} of ${scopeText(job)} ${where} failed. ${plain.said}${plain.fix ? ` ${plain.fix}` : ''}`,
        tone: 'bad',
        path,
        ...(job.error ? { details: { code: plain.code, message: plain.message } } : {}),
      };
    }
  }
}

/** `ORDERS, SALES_*` (commas, spaces or new lines) → unique names and patterns. */
export function parseViewPatterns(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean))];
}

/** Where a pull writes: a folder under `model/` (or the older `schema/`). */
export function outputPathProblem(path: string): string | null {
  const trimmed = path.trim().replace(/\/+$/, '');
  if (trimmed === '') return 'Name a folder for the generated files, e.g. model/pulled.';
  if (!/^(model|schema)(\/|$)/.test(trimmed)) return 'The folder must be under model/ (or schema/), where the model files live.';
  if (trimmed.split('/').some((s) => s === '..' || s === '.')) return 'The folder may not contain . or .. segments.';
  return null;
}

/** The statements run for one view, in order: its helper views, then the semantic view. */
export function ddlOf(view: Pick<PushedView, 'ddl' | 'helperViews'>): string {
  const parts = view.helperViews.map((h) => `-- Helper view for entity ${h.entity}\n${h.ddl.trim().replace(/;?$/, ';')}`);
  parts.push(view.ddl.trim().replace(/;?$/, ';'));
  return `${parts.join('\n\n')}\n`;
}
