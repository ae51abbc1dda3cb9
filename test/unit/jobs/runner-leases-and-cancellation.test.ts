import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobCancelledError, JobLeaseLostError, JobOutcome, type JobContext } from '../../../src-main/platform/jobs';
import { aborted, deferred, jobsFixture, settle, type JobsFixture } from './helpers';

// The job runner: leases (a dead or stalled worker's job is taken up) and cancellation.

let fx: JobsFixture;
beforeEach(() => {
  fx = jobsFixture();
});
afterEach(async () => fx.cleanup());

const LEASE = 30_000;

describe('leases', () => {
  it('takes up a job whose lease expired (its worker died) as a new attempt, with the saved checkpoint', async () => {
    const dead = fx.runner('dead');
    const live = fx.runner('live');
    dead.register('resume', async (_job, ctx) => {
      ctx.checkpoint({ done: ['v1'] });
      await new Promise(() => {}); // the process "dies" here: nothing more happens
    });
    let seen: { attempt: number; checkpoint: unknown } | null = null;
    live.register('resume', async (job, ctx) => {
      seen = { attempt: ctx.attempt, checkpoint: job.checkpoint };
      return 'finished';
    });
    const job = dead.enqueue({ kind: 'resume', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    dead.poll();
    await settle();
    expect(live.poll()).toBe(0);
    fx.clock.advance(LEASE + 1);
    expect(live.poll()).toBe(1);
    await live.whenIdle();
    expect(seen).toEqual({ attempt: 2, checkpoint: { done: ['v1'] } });
    expect(live.get(job.id)).toMatchObject({ status: 'COMPLETED', attempts: 2, result: 'finished' });
  });

  it('keeps a job whose worker heartbeats away from other workers', async () => {
    const a = fx.runner('a');
    const b = fx.runner('b');
    const gate = deferred();
    a.register('long', async () => gate.promise);
    b.register('long', async () => gate.promise);
    const job = a.enqueue({ kind: 'long', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    a.poll();
    for (let i = 0; i < 4; i++) {
      fx.clock.advance(LEASE / 2);
      a.heartbeat();
      expect(b.poll()).toBe(0);
    }
    expect(a.get(job.id)!.heartbeatAt).toBe(fx.clock.now().toISOString());
    gate.resolve();
    await a.whenIdle();
    expect(a.get(job.id)!.status).toBe('COMPLETED');
  });

  it('aborts a stalled worker that lost its lease and ignores what it reports afterwards', async () => {
    const stalled = fx.runner('stalled');
    const other = fx.runner('other');
    const gate = deferred();
    let reason: unknown;
    stalled.register('job', async (_job, ctx) => {
      await gate.promise;
      reason = ctx.signal.reason;
      ctx.progress('late', 99);
      return 'stale result';
    });
    const otherGate = deferred();
    other.register('job', async () => otherGate.promise.then(() => 'fresh result'));
    const job = stalled.enqueue({ kind: 'job', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    stalled.poll();
    fx.clock.advance(LEASE + 1);
    expect(other.poll()).toBe(1);
    stalled.heartbeat();
    gate.resolve();
    await stalled.whenIdle();
    expect(reason).toBeInstanceOf(JobLeaseLostError);
    expect(stalled.get(job.id)).toMatchObject({ status: 'RUNNING', leaseOwner: 'other' });
    expect(stalled.get(job.id)!.progress.stage).not.toBe('late');
    otherGate.resolve();
    await other.whenIdle();
    expect(other.get(job.id)).toMatchObject({ status: 'COMPLETED', result: 'fresh result' });
  });

  it('fails a job with "lease expired after N attempts" once its lease lapsed on its last attempt', async () => {
    const workers = ['w1', 'w2'].map((name) => fx.runner(name));
    for (const w of workers) w.register('doomed', async () => new Promise(() => {}), { maxAttempts: 2 });
    const observer = fx.runner('observer');
    const job = workers[0].enqueue({ kind: 'doomed', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    workers[0].poll();
    fx.clock.advance(LEASE + 1);
    expect(workers[1].poll()).toBe(1);
    fx.clock.advance(LEASE + 1);
    // The observer runs no kind at all; it still ends the job, so it is never lost.
    observer.poll();
    const failed = observer.get(job.id)!;
    expect(failed.status).toBe('FAILED');
    expect(failed.error?.code).toBe('JOB_LEASE_EXPIRED');
    expect(failed.error?.message).toMatch(/^lease expired after 2 attempts/);
    expect(failed.finishedAt).toBe(fx.clock.now().toISOString());
  });

  it('fails a non-resumable job when its lease lapses instead of running it again', async () => {
    const dead = fx.runner('dead');
    const live = fx.runner('live');
    let reran = false;
    dead.register('once', async () => new Promise(() => {}), { resumable: false });
    live.register('once', async () => void (reran = true), { resumable: false });
    const job = dead.enqueue({ kind: 'once', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    dead.poll();
    fx.clock.advance(LEASE + 1);
    expect(live.poll()).toBe(0);
    expect(reran).toBe(false);
    expect(live.get(job.id)).toMatchObject({ status: 'FAILED', error: { code: 'JOB_LEASE_EXPIRED' } });
    expect(live.get(job.id)!.error!.message).toMatch(/^lease expired after 1 attempt: .*not resumable/);
  });
});

describe('cancellation', () => {
  it('cancels a queued job at once; it never runs', async () => {
    const runner = fx.runner('a');
    let ran = false;
    runner.register('work', async () => void (ran = true));
    const job = runner.enqueue({ kind: 'work', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    expect(runner.requestCancel(job.id)!.status).toBe('CANCELLED');
    expect(runner.poll()).toBe(0);
    expect(ran).toBe(false);
    expect(runner.get(job.id)!.finishedAt).not.toBeNull();
  });

  it('moves a running job to CANCELLING, aborts its signal, and ends it CANCELLED when the handler stops', async () => {
    const runner = fx.runner('a');
    let reason: unknown;
    runner.register('work', async (_job, ctx: JobContext) => {
      reason = await aborted(ctx.signal);
      expect(ctx.isCancelRequested()).toBe(true);
      ctx.signal.throwIfAborted();
    });
    const job = runner.enqueue({ kind: 'work', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await settle();
    expect(runner.requestCancel(job.id)!.status).toBe('CANCELLING');
    await runner.whenIdle();
    expect(reason).toBeInstanceOf(JobCancelledError);
    expect(runner.get(job.id)).toMatchObject({ status: 'CANCELLED', cancelRequested: true, error: null });
  });

  it('delivers a cancellation requested by another process at the next heartbeat', async () => {
    const worker = fx.runner('worker');
    const api = fx.runner('api');
    worker.register('work', async (_job, ctx) => {
      await aborted(ctx.signal);
      throw ctx.signal.reason;
    });
    const job = worker.enqueue({ kind: 'work', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    worker.poll();
    await settle();
    api.requestCancel(job.id);
    worker.heartbeat();
    await worker.whenIdle();
    expect(worker.get(job.id)!.status).toBe('CANCELLED');
  });

  it('lets a handler end CANCELLED with what it did so far', async () => {
    const runner = fx.runner('a');
    runner.register('work', async (_job, ctx) => {
      await aborted(ctx.signal);
      return JobOutcome.cancelled({ written: 3 });
    });
    const job = runner.enqueue({ kind: 'work', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await settle();
    runner.requestCancel(job.id);
    await runner.whenIdle();
    expect(runner.get(job.id)).toMatchObject({ status: 'CANCELLED', result: { written: 3 } });
  });

  it('ends a CANCELLING job whose worker died as CANCELLED, not re-run', async () => {
    const dead = fx.runner('dead');
    const live = fx.runner('live');
    dead.register('work', async () => new Promise(() => {}));
    live.register('work', async () => 'ran again');
    const job = dead.enqueue({ kind: 'work', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    dead.poll();
    live.requestCancel(job.id);
    fx.clock.advance(LEASE + 1);
    expect(live.poll()).toBe(0);
    expect(live.get(job.id)).toMatchObject({ status: 'CANCELLED', result: null });
  });

  it('leaves a finished job unchanged and answers null for an unknown one', async () => {
    const runner = fx.runner('a');
    runner.register('work', async () => 1);
    const job = runner.enqueue({ kind: 'work', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await runner.whenIdle();
    expect(runner.requestCancel(job.id)!.status).toBe('COMPLETED');
    expect(runner.requestCancel('00000000-0000-0000-0000-000000000000')).toBeNull();
  });
});
