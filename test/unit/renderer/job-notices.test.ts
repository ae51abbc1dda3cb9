// Notifications when a long job ends while the window is in the background (issue 14 item 8).
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../src-shared/api/events';
import { JobNotices, LONG_JOB_MS } from '../../../src-renderer/src/lib/job-notices';

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
      body: 'WAREHOUSE_INSUFFICIENT_PRIVILEGES · after 15 s · deployment 3',
    });
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
});
