import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src-main/http/problem';
import { JobFailure, JobOutcome, RetryableJobError } from '../../../src-main/platform/jobs';
import { deferred, jobsFixture, settle, type JobsFixture } from './helpers';

// The job runner: submitting jobs (idempotency, exclusivity) and claiming and running them to their outcome.

let fx: JobsFixture;
beforeEach(() => {
  fx = jobsFixture();
});
afterEach(async () => fx.cleanup());

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
