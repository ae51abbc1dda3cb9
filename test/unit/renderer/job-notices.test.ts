// Notifications when a long job ends while the window is in the background (issue 14 item 8).
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../src-shared/api/events';
import { jobPath, JobNotices, LONG_JOB_MS } from '../../../src-renderer/src/lib/job-notices';

const job = (id: string, status: string, extra: Partial<{ createdBy: number | null; errorCode: string | null; kind: string }> = {}): LiveEvent => ({
  type: 'job',
  id: `b-${Math.random()}`,
  at: new Date().toISOString(),
  deploymentId: 3,
  job: { id, kind: extra.kind ?? 'lakehouse.run', status, stage: status.toLowerCase(), percentComplete: 0, errorCode: extra.errorCode ?? null, createdBy: extra.createdBy ?? 7 },
});

describe('job end notices', () => {
  it('a long job of mine that ends while the window is in the background is announced, with how it ended', () => {
    const notices = new JobNotices(() => 7);
    expect(notices.take(job('a', 'RUNNING'), 0, true)).toBeNull();
    expect(notices.take(job('a', 'FAILED', { errorCode: 'WAREHOUSE_INSUFFICIENT_PRIVILEGES' }), LONG_JOB_MS + 5000, true)).toEqual({
      title: 'Lakehouse publication failed',
      body: 'The warehouse role lacks a privilege · after 15 s · deployment 3',
      path: '/syncs/3/lakehouse',
    });
  });

  it('says a failure in plain words, never the raw problem code (a system notification has no Details to hide it behind)', () => {
    const notices = new JobNotices(() => 7);
    notices.take(job('k', 'RUNNING'), 0, true);
    const known = notices.take(job('k', 'FAILED', { errorCode: 'LAKEHOUSE_UNAVAILABLE' }), LONG_JOB_MS, true)!;
    expect(known.body).toMatch(/^The lakehouse cannot be reached · /);
    expect(known.body).not.toContain('LAKEHOUSE_UNAVAILABLE');
    notices.take(job('u', 'RUNNING'), 0, true);
    const unknown = notices.take(job('u', 'FAILED', { errorCode: 'SOMETHING_NEW_XYZ' }), LONG_JOB_MS, true)!;
    expect(unknown.body).not.toContain('SOMETHING_NEW_XYZ');
    expect(unknown.body).toMatch(/says why/);
  });

  it('stays quiet when the window is looked at, the job was short, or it is someone else’s', () => {
    const notices = new JobNotices(() => 7);
    notices.take(job('seen', 'RUNNING'), 0, false);
    expect(notices.take(job('seen', 'COMPLETED'), LONG_JOB_MS * 2, false)).toBeNull();
    notices.take(job('short', 'QUEUED'), 0, true);
    expect(notices.take(job('short', 'COMPLETED'), LONG_JOB_MS - 1, true)).toBeNull();
    notices.take(job('theirs', 'RUNNING', { createdBy: 8 }), 0, true);
    expect(notices.take(job('theirs', 'COMPLETED', { createdBy: 8 }), LONG_JOB_MS * 2, true)).toBeNull();
    // A job that ended before this window saw it start: no way to tell it was long.
    expect(notices.take(job('unseen', 'COMPLETED'), LONG_JOB_MS * 2, true)).toBeNull();
  });

  it('announces a build (no creator) to whoever is signed in', () => {
    const notices = new JobNotices(() => 7);
    notices.take(job('b', 'RUNNING', { createdBy: null, kind: 'build' }), 1000, true);
    expect(notices.take(job('b', 'COMPLETED', { createdBy: null, kind: 'build' }), 1000 + LONG_JOB_MS, true)?.title).toBe('Build finished');
  });

  it('a click opens the screen that shows the job: its own page where there is one', () => {
    expect(jobPath('warehouse-semantic-view-push', 'j/1', 4)).toBe('/syncs/4/warehouse/push/j%2F1');
    expect(jobPath('warehouse-semantic-view-pull', 'j2', 4)).toBe('/syncs/4/warehouse/pull/j2');
    expect(jobPath('scheduled-task-run', 'j3', 4)).toBe('/deployments/4/tasks/j3');
    expect(jobPath('build', 'b1', 4)).toBe('/deployments/4/build');
    // No screen lists these (yet) or no deployment: the click only brings the window to the front.
    expect(jobPath('dashboard-export', 'x', 4)).toBeNull();
    expect(jobPath('warehouse-semantic-view-push', 'x', null)).toBeNull();
    const notices = new JobNotices(() => 7);
    notices.take(job('r', 'RUNNING', { kind: 'scheduled-task-run' }), 0, true);
    expect(notices.take(job('r', 'COMPLETED', { kind: 'scheduled-task-run' }), LONG_JOB_MS, true)).toMatchObject({
      title: 'Scheduled task run finished',
      path: '/deployments/3/tasks/r',
    });
  });
});
