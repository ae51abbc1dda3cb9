import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/http/problem';
import {
  JobCancelledError,
  JobFailure,
  JobLeaseLostError,
  JobOutcome,
  JobShutdownError,
  RetryableJobError,
  type JobContext,
} from '../../../src-main/platform/jobs';
import { aborted, deferred, jobsFixture, settle, type JobsFixture } from './helpers';

let fx: JobsFixture;
beforeEach(() => {
  fx = jobsFixture();
});
afterEach(async () => fx.cleanup());

const LEASE = 30_000;

describe('enqueue', () => {
  it('queues a job with a workflow id, initial progress and no lease', () => {
    const runner = fx.runner('a');
    runner.register('echo', async (job) => job.inputs);
    const job = runner.enqueue({ kind: 'echo', deploymentId: fx.deploymentId, inputs: { n: 1 }, createdBy: null });
    expect(job.status).toBe('QUEUED');
    expect(job.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(job.workflowId).toMatch(/^echo-/);
    expect(job.progress).toEqual({ stage: 'queued', percentComplete: 0 });
    expect(job.leaseOwner).toBeNull();
    expect(job.attempts).toBe(0);
    expect(runner.get(job.id)).toEqual(job);
  });

  it('refuses a kind nobody registered', () => {
    const runner = fx.runner('a');
    expect(() => runner.enqueue({ kind: 'nope', deploymentId: null, inputs: {}, createdBy: null })).toThrow(/not registered/);
  });

  it('returns the original job for the same idempotency key and the same inputs (key order does not matter)', () => {
    const runner = fx.runner('a');
    runner.register('echo', async () => null);
    const key = '2b1f0a36-8a0e-4c36-9a7e-0f3c2e6c1d11';
    const first = runner.enqueue({ kind: 'echo', deploymentId: fx.deploymentId, inputs: { a: 1, b: [1, 2] }, idempotencyKey: key, createdBy: null });
    const second = runner.enqueue({ kind: 'echo', deploymentId: fx.deploymentId, inputs: { b: [1, 2], a: 1 }, idempotencyKey: key, createdBy: null });
    expect(second.id).toBe(first.id);
    expect(runner.list({ deploymentId: fx.deploymentId }).items).toHaveLength(1);
  });

  it('refuses the same idempotency key with changed inputs with 409 IDEMPOTENCY_KEY_REUSED naming the original job', () => {
    const runner = fx.runner('a');
    runner.register('echo', async () => null);
    const key = '2b1f0a36-8a0e-4c36-9a7e-0f3c2e6c1d11';
    const first = runner.enqueue({ kind: 'echo', deploymentId: fx.deploymentId, inputs: { a: 1 }, idempotencyKey: key, createdBy: null });
    let error: unknown;
    try {
      runner.enqueue({ kind: 'echo', deploymentId: fx.deploymentId, inputs: { a: 2 }, idempotencyKey: key, createdBy: null });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((error as ApiError).detail).toContain(first.id);
    expect((error as ApiError).extras.jobId).toBe(first.id);
  });

  it('compares only idempotencyInputs when given, so values resolved at submission do not count', () => {
    const runner = fx.runner('a');
    runner.register('push', async () => null);
    const key = '2b1f0a36-8a0e-4c36-9a7e-0f3c2e6c1d11';
    const request = { schema: 'S', viewNames: ['v'] };
    const first = runner.enqueue({ kind: 'push', deploymentId: fx.deploymentId, inputs: { request, commit: 'aaa' }, idempotencyInputs: request, idempotencyKey: key, createdBy: null });
    const replay = { kind: 'push', deploymentId: fx.deploymentId, inputs: { request, commit: 'bbb' }, idempotencyInputs: { ...request }, idempotencyKey: key };
    expect(runner.findReplay(replay)?.id).toBe(first.id);
    expect(runner.enqueue({ ...replay, createdBy: null }).id).toBe(first.id);
    expect(() => runner.findReplay({ ...replay, idempotencyInputs: { ...request, schema: 'T' } })).toThrow(expect.objectContaining({ code: 'IDEMPOTENCY_KEY_REUSED' }));
    expect(runner.findReplay({ ...replay, idempotencyKey: '7c3f0a36-8a0e-4c36-9a7e-0f3c2e6c1d11' })).toBeNull();
    expect(runner.findReplay({ ...replay, idempotencyKey: null })).toBeNull();
  });

  it('scopes idempotency keys to the kind and deployment', () => {
    const runner = fx.runner('a');
    runner.register('echo', async () => null);
    runner.register('other', async () => null);
    const key = '2b1f0a36-8a0e-4c36-9a7e-0f3c2e6c1d11';
    const a = runner.enqueue({ kind: 'echo', deploymentId: fx.deploymentId, inputs: { a: 1 }, idempotencyKey: key, createdBy: null });
    const b = runner.enqueue({ kind: 'other', deploymentId: fx.deploymentId, inputs: { a: 2 }, idempotencyKey: key, createdBy: null });
    const c = runner.enqueue({ kind: 'echo', deploymentId: null, inputs: { a: 3 }, idempotencyKey: key, createdBy: null });
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
  });

  it('refuses an exclusive job while another of its kind is active in the deployment', async () => {
    const runner = fx.runner('a');
    const gate = deferred();
    runner.register('run', async () => gate.promise);
    runner.enqueue({ kind: 'run', deploymentId: fx.deploymentId, inputs: {}, createdBy: null, exclusive: true });
    expect(() => runner.enqueue({ kind: 'run', deploymentId: fx.deploymentId, inputs: {}, createdBy: null, exclusive: true })).toThrow(
      expect.objectContaining({ status: 409, code: 'JOB_ALREADY_ACTIVE' }),
    );
    runner.poll();
    gate.resolve();
    await runner.whenIdle();
    expect(runner.enqueue({ kind: 'run', deploymentId: fx.deploymentId, inputs: {}, createdBy: null, exclusive: true }).status).toBe('QUEUED');
  });
});

describe('claiming and running', () => {
  it('runs a claimed job to COMPLETED with its result, full progress, timestamps and retention', async () => {
    const runner = fx.runner('a');
    runner.register('echo', async (job: { inputs: { n: number } }) => ({ doubled: job.inputs.n * 2 }), { retentionMs: 60_000 });
    const job = runner.enqueue({ kind: 'echo', deploymentId: fx.deploymentId, inputs: { n: 21 }, createdBy: null });
    expect(runner.poll()).toBe(1);
    await runner.whenIdle();
    const done = runner.get(job.id)!;
    expect(done.status).toBe('COMPLETED');
    expect(done.result).toEqual({ doubled: 42 });
    expect(done.progress).toEqual({ stage: 'completed', percentComplete: 100 });
    expect(done.attempts).toBe(1);
    expect(done.leaseOwner).toBeNull();
    expect(done.startedAt).toBe(fx.clock.now().toISOString());
    expect(done.expiresAt).toBe(new Date(fx.clock.now().getTime() + 60_000).toISOString());
  });

  it('records progress and logs while running', async () => {
    const runner = fx.runner('a');
    const gate = deferred();
    runner.register('steps', async (_job, ctx) => {
      ctx.progress('generating', 40.4);
      ctx.log('generated', { views: 3 });
      await gate.promise;
      return null;
    });
    const job = runner.enqueue({ kind: 'steps', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await settle();
    expect(runner.get(job.id)!.status).toBe('RUNNING');
    expect(runner.get(job.id)!.progress).toEqual({ stage: 'generating', percentComplete: 40 });
    gate.resolve();
    await runner.whenIdle();
    const logs = runner.logs(job.id).items;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ attempt: 1, level: 'info', message: 'generated', fields: { views: 3 } });
  });

  it('never hands one job to two workers at once', async () => {
    const a = fx.runner('a');
    const b = fx.runner('b');
    const gate = deferred();
    const ran: string[] = [];
    a.register('work', async () => {
      ran.push('a');
      await gate.promise;
    });
    b.register('work', async () => {
      ran.push('b');
      await gate.promise;
    });
    const job = a.enqueue({ kind: 'work', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    expect(a.poll()).toBe(1);
    expect(b.poll()).toBe(0);
    await settle();
    expect(ran).toEqual(['a']);
    expect(a.get(job.id)!.leaseOwner).toBe('a');
    gate.resolve();
    await a.whenIdle();
  });

  it('runs at most `concurrency` jobs of a kind at once in one worker', async () => {
    const runner = fx.runner('a');
    const gate = deferred();
    runner.register('work', async () => gate.promise, { concurrency: 2 });
    for (let i = 0; i < 3; i++) runner.enqueue({ kind: 'work', deploymentId: fx.deploymentId, inputs: { i }, createdBy: null });
    expect(runner.poll()).toBe(2);
    expect(runner.poll()).toBe(0);
    gate.resolve();
    await runner.whenIdle();
    expect(runner.poll()).toBe(1);
    await runner.whenIdle();
    expect(runner.list({ statuses: ['COMPLETED'] }).items).toHaveLength(3);
  });

  it('claims in submission order', async () => {
    const runner = fx.runner('a');
    const order: number[] = [];
    runner.register('work', async (job: { inputs: { i: number } }) => void order.push(job.inputs.i), { concurrency: 1 });
    for (let i = 0; i < 3; i++) {
      runner.enqueue({ kind: 'work', deploymentId: fx.deploymentId, inputs: { i }, createdBy: null });
      fx.clock.advance(1);
    }
    for (let i = 0; i < 3; i++) {
      runner.poll();
      await runner.whenIdle();
    }
    expect(order).toEqual([0, 1, 2]);
  });

  it('fails a job with the code, status class and details of a JobFailure', async () => {
    const runner = fx.runner('a');
    runner.register('fail', async () => {
      throw new JobFailure('SQL_RUNNER_DDL_DISABLED', 'DDL is disabled', { status: 403, details: { statement: 1 } });
    });
    const job = runner.enqueue({ kind: 'fail', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await runner.whenIdle();
    expect(runner.get(job.id)).toMatchObject({
      status: 'FAILED',
      error: { code: 'SQL_RUNNER_DDL_DISABLED', message: 'DDL is disabled', status: 403, details: { statement: 1 } },
    });
  });

  it('fails a job with JOB_HANDLER_FAILED for an unexpected error, and keeps the stage it failed in', async () => {
    const runner = fx.runner('a');
    runner.register('boom', async (_job, ctx) => {
      ctx.progress('writing', 50);
      throw new TypeError('undefined is not a function');
    });
    const job = runner.enqueue({ kind: 'boom', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await runner.whenIdle();
    const failed = runner.get(job.id)!;
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toEqual({ code: 'JOB_HANDLER_FAILED', message: 'undefined is not a function' });
    expect(failed.progress).toEqual({ stage: 'writing', percentComplete: 50 });
  });

  it('lets a handler end PARTIAL with a result', async () => {
    const runner = fx.runner('a');
    runner.register('some', async () => JobOutcome.partial({ ok: 1, failed: 1 }));
    const job = runner.enqueue({ kind: 'some', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await runner.whenIdle();
    expect(runner.get(job.id)).toMatchObject({ status: 'PARTIAL', result: { ok: 1, failed: 1 } });
  });

  it('queues a retryable failure again after its back-off, then fails once attempts are used up', async () => {
    const runner = fx.runner('a');
    let calls = 0;
    runner.register(
      'flaky',
      async () => {
        calls++;
        throw new RetryableJobError('connection reset', { delayMs: 5_000, code: 'WAREHOUSE_CONNECTION_FAILED' });
      },
      { maxAttempts: 2 },
    );
    const job = runner.enqueue({ kind: 'flaky', deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
    runner.poll();
    await runner.whenIdle();
    expect(runner.get(job.id)!.status).toBe('QUEUED');
    expect(runner.poll()).toBe(0);
    fx.clock.advance(5_000);
    expect(runner.poll()).toBe(1);
    await runner.whenIdle();
    expect(calls).toBe(2);
    expect(runner.get(job.id)).toMatchObject({ status: 'FAILED', attempts: 2, error: { code: 'WAREHOUSE_CONNECTION_FAILED' } });
  });
});

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
