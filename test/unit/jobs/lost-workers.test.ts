import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentBootId, isOwnerKnownDead, newOwnerId, RESUMED_STAGE, WORKER_LOST_STAGE } from '../../../src-main/platform/jobs/owners';
import { deferred, jobsFixture, settle, type JobsFixture } from './helpers';

let fx: JobsFixture;
beforeEach(() => {
  fx = jobsFixture();
});
afterEach(async () => fx.cleanup());

const LEASE = 30_000;
/** A runner that knows the owner "crashed" ended (as a restarted service knows its predecessor's pid is gone). */
const knowsCrashed = { isOwnerDead: (owner: string) => owner === 'crashed' };

/** A job of `kind` taken by a worker that then never returns (its process died mid-run). */
async function orphan(kind: string, options: { resumable?: boolean; maxAttempts?: number } = {}) {
  const crashed = fx.runner('crashed');
  crashed.register(
    kind,
    async (_job, ctx) => {
      ctx.progress('copying tables', 40);
      ctx.checkpoint({ copied: 2 });
      await new Promise(() => {});
    },
    options,
  );
  const job = crashed.enqueue({ kind, deploymentId: fx.deploymentId, inputs: {}, createdBy: null });
  expect(crashed.poll()).toBe(1);
  await settle();
  return job;
}

describe('a job whose worker died', () => {
  it('shows "worker lost, resuming" and is taken up at once when its owner is known dead, without waiting out the lease', async () => {
    const job = await orphan('sync');
    const restarted = fx.runner('restarted', knowsCrashed);
    let seen: { attempt: number; checkpoint: unknown; stage: string } | null = null;
    const gate = deferred();
    restarted.register('sync', async (current, ctx) => {
      seen = { attempt: ctx.attempt, checkpoint: current.checkpoint, stage: restarted.get(current.id)!.progress.stage };
      await gate.promise;
      return 'done';
    });
    expect(restarted.get(job.id)).toMatchObject({ status: 'RUNNING', leaseOwner: 'crashed', progress: { stage: 'copying tables' } });

    expect(restarted.recoverLostWorkers()).toBe(1);
    const lost = restarted.get(job.id)!;
    expect(lost.status).toBe('RUNNING');
    expect(lost.progress).toEqual({ stage: WORKER_LOST_STAGE, percentComplete: 40 });
    expect(Date.parse(lost.leaseExpiresAt!)).toBeLessThan(fx.clock.now().getTime());
    expect(restarted.logs(job.id).items.map((l) => [l.level, l.message])).toContainEqual(['warn', 'Worker lost (its process ended); resuming']);
    // A second pass does not mark or log again.
    expect(restarted.recoverLostWorkers()).toBe(0);

    // No clock advance: the lease of a dead owner is over now.
    expect(restarted.poll()).toBe(1);
    await settle();
    expect(seen).toEqual({ attempt: 2, checkpoint: { copied: 2 }, stage: RESUMED_STAGE });
    expect(restarted.get(job.id)).toMatchObject({ status: 'RUNNING', leaseOwner: 'restarted', attempts: 2 });
    gate.resolve();
    await restarted.whenIdle();
    expect(restarted.get(job.id)).toMatchObject({ status: 'COMPLETED', result: 'done' });
  });

  it('fails at once with JOB_LEASE_EXPIRED when its owner is known dead and its kind is not resumable', async () => {
    const job = await orphan('once', { resumable: false });
    const restarted = fx.runner('restarted', knowsCrashed);
    let reran = false;
    restarted.register('once', async () => void (reran = true), { resumable: false });
    restarted.start();
    await settle();
    expect(reran).toBe(false);
    const failed = restarted.get(job.id)!;
    expect(failed.status).toBe('FAILED');
    expect(failed.error).toMatchObject({ code: 'JOB_LEASE_EXPIRED' });
    expect(failed.progress.stage).not.toBe(WORKER_LOST_STAGE);
    expect(restarted.logs(job.id).items.map((l) => l.message)).toContain('Worker lost (its process ended)');
  });

  it('resumes on start: a restarted runner takes up its dead predecessor\'s job in its first poll', async () => {
    const job = await orphan('sync');
    const restarted = fx.runner('restarted', knowsCrashed);
    const finished = deferred();
    restarted.register('sync', async (_job, ctx) => {
      finished.resolve();
      return ctx.attempt;
    });
    restarted.start();
    await finished.promise;
    await restarted.whenIdle();
    expect(restarted.get(job.id)).toMatchObject({ status: 'COMPLETED', result: 2, attempts: 2 });
  });

  it('shows "worker lost, resuming" once a lease lapsed, even to a worker that cannot run the kind', async () => {
    const job = await orphan('sync');
    const observer = fx.runner('observer');
    expect(observer.recoverLostWorkers()).toBe(0);
    expect(observer.get(job.id)!.progress.stage).toBe('copying tables');
    fx.clock.advance(LEASE + 1);
    expect(observer.recoverLostWorkers()).toBe(1);
    expect(observer.get(job.id)).toMatchObject({ status: 'RUNNING', progress: { stage: WORKER_LOST_STAGE } });
    expect(observer.logs(job.id).items.map((l) => l.message)).toContain('Worker lost (it stopped renewing its lease); resuming');
  });

  it('leaves a live worker\'s job alone', async () => {
    const job = await orphan('sync');
    const other = fx.runner('other', { isOwnerDead: () => false });
    other.register('sync', async () => 'stolen');
    fx.clock.advance(LEASE / 2);
    expect(other.recoverLostWorkers()).toBe(0);
    expect(other.poll()).toBe(0);
    expect(other.get(job.id)).toMatchObject({ status: 'RUNNING', leaseOwner: 'crashed', progress: { stage: 'copying tables' } });
  });
});

describe('lease owner ids', () => {
  const owner = (pid: number, boot = currentBootId(), host = hostname()) => `w1:${pid}:${boot}:abcd1234@${host}`;

  it('know a process that exited as dead, and a running one as alive', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    await once(child, 'spawn');
    expect(isOwnerKnownDead(owner(child.pid!))).toBe(false);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(isOwnerKnownDead(owner(child.pid!))).toBe(true);
  });

  it('know an owner from an earlier boot as dead; another host, foreign ids and this process\'s own ids are not known dead', () => {
    expect(isOwnerKnownDead(owner(process.pid, 'an-earlier-boot'))).toBe(true);
    expect(isOwnerKnownDead(owner(1, 'an-earlier-boot', 'another-host.example'))).toBe(false);
    expect(isOwnerKnownDead('somehost:123:abcd')).toBe(false);
    const mine = newOwnerId();
    expect(isOwnerKnownDead(mine)).toBe(false);
    // Our pid, but not an id this process handed out: a predecessor that had the pid before us.
    expect(isOwnerKnownDead(owner(process.pid))).toBe(true);
  });
});
