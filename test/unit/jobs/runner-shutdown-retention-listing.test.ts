import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobShutdownError } from '../../../src-main/platform/jobs';
import { aborted, deferred, jobsFixture, settle, type JobsFixture } from './helpers';

// The job runner: shutdown, retention of finished jobs, and listing.

let fx: JobsFixture;
beforeEach(() => {
  fx = jobsFixture();
});
afterEach(async () => fx.cleanup());

describe('shutdown', () => {
  it('aborts handlers with JobShutdownError and releases their jobs to another worker without using up an attempt', async () => {
    const leaving = fx.runner('leaving');
    const staying = fx.runner('staying');
    let reason: unknown;
    leaving.register('work', async (_job, ctx) => {
      reason = await aborted(ctx.signal);
      throw reason;
    });
    staying.register('work', async (_job, ctx) => `attempt ${ctx.attempt}`);
    const job = leaving.enqueue({ kind: 'work', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    leaving.poll();
    await settle();
    await leaving.stop();
    expect(reason).toBeInstanceOf(JobShutdownError);
    expect(leaving.get(job.id)).toMatchObject({ status: 'QUEUED', leaseOwner: null, attempts: 0 });
    // No lease to wait out: the other worker takes it up at once.
    expect(staying.poll()).toBe(1);
    await staying.whenIdle();
    expect(staying.get(job.id)).toMatchObject({ status: 'COMPLETED', result: 'attempt 1' });
  });

  it('releases a job whose handler ignores the abort once the grace period is over', async () => {
    const leaving = fx.runner('leaving', { shutdownGraceMs: 20 });
    leaving.register('stubborn', async () => new Promise(() => {}));
    const job = leaving.enqueue({ kind: 'stubborn', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    leaving.poll();
    await leaving.stop();
    expect(leaving.get(job.id)).toMatchObject({ status: 'QUEUED', leaseOwner: null });
    expect(leaving.poll()).toBe(0);
  });

  it('records the result of a handler that finishes within the grace period', async () => {
    const runner = fx.runner('a');
    runner.register('quick', async (_job, ctx) => {
      await aborted(ctx.signal);
      return 'finished anyway';
    });
    const job = runner.enqueue({ kind: 'quick', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await settle();
    await runner.stop();
    expect(runner.get(job.id)).toMatchObject({ status: 'COMPLETED', result: 'finished anyway' });
  });
});

describe('retention', () => {
  it('sweeps finished jobs past their retention (after onExpire), and keeps younger and active ones', async () => {
    const runner = fx.runner('a');
    const expired: string[] = [];
    const gate = deferred();
    runner.register('short', async () => 'x', { retentionMs: 60_000, onExpire: (job) => void expired.push(job.id) });
    runner.register('active', async () => gate.promise, { retentionMs: 1 });
    const old = runner.enqueue({ kind: 'short', deploymentId: fx.deploymentId, inputs: { n: 1 }, createdBy: null });
    runner.poll();
    await runner.whenIdle();
    fx.clock.advance(30_000);
    const young = runner.enqueue({ kind: 'short', deploymentId: fx.deploymentId, inputs: { n: 2 }, createdBy: null });
    const running = runner.enqueue({ kind: 'active', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await settle();
    fx.clock.advance(30_000);
    expect(await runner.sweep()).toBe(1);
    expect(expired).toEqual([old.id]);
    expect(runner.get(old.id)).toBeNull();
    expect(runner.get(young.id)).not.toBeNull();
    expect(runner.get(running.id)!.status).toBe('RUNNING');
    gate.resolve();
    await runner.whenIdle();
  });

  it('counts retention from submission when the kind says so', async () => {
    const runner = fx.runner('a');
    runner.register('export', async () => 'file', { retentionMs: 5 * 60_000, retentionFrom: 'created' });
    const job = runner.enqueue({ kind: 'export', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    expect(job.expiresAt).toBe(new Date(fx.clock.now().getTime() + 5 * 60_000).toISOString());
    fx.clock.advance(4 * 60_000);
    runner.poll();
    await runner.whenIdle();
    expect(runner.get(job.id)!.expiresAt).toBe(job.expiresAt);
    fx.clock.advance(60_000);
    expect(await runner.sweep()).toBe(1);
  });

  it('keeps a job whose cleanup failed, to try again at the next sweep', async () => {
    const runner = fx.runner('a');
    let fail = true;
    runner.register('short', async () => 'x', {
      retentionMs: 1,
      onExpire: () => {
        if (fail) throw new Error('disk busy');
      },
    });
    const job = runner.enqueue({ kind: 'short', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await runner.whenIdle();
    fx.clock.advance(10);
    expect(await runner.sweep()).toBe(0);
    expect(runner.get(job.id)).not.toBeNull();
    fail = false;
    expect(await runner.sweep()).toBe(1);
  });
});

describe('listing', () => {
  it('lists newest first with filters and cursor pages', async () => {
    const runner = fx.runner('a');
    runner.register('push', async () => 1);
    runner.register('pull', async () => 2);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(runner.enqueue({ kind: i % 2 ? 'pull' : 'push', deploymentId: fx.deploymentId, inputs: { i }, createdBy: null }).id);
      fx.clock.advance(1000);
    }
    const first = runner.list({ deploymentId: fx.deploymentId }, { first: 2 });
    expect(first.items.map((j) => j.id)).toEqual([ids[4], ids[3]]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = runner.list({ deploymentId: fx.deploymentId }, { first: 2, after: first.pageInfo.endCursor! });
    expect(second.items.map((j) => j.id)).toEqual([ids[2], ids[1]]);
    const third = runner.list({ deploymentId: fx.deploymentId }, { first: 2, after: second.pageInfo.endCursor! });
    expect(third.items.map((j) => j.id)).toEqual([ids[0]]);
    expect(third.pageInfo.hasNextPage).toBe(false);
    expect(runner.list({ kinds: ['pull'] }).items.map((j) => j.id)).toEqual([ids[3], ids[1]]);
    runner.requestCancel(ids[0]);
    expect(runner.list({ statuses: ['CANCELLED'] }).items.map((j) => j.id)).toEqual([ids[0]]);
    expect(runner.get(ids[0], { kinds: ['pull'] })).toBeNull();
    expect(runner.get(ids[0], { deploymentId: fx.deploymentId + 1 })).toBeNull();
  });
});
