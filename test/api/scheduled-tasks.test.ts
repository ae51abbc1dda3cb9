import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTaskScheduler } from '../../src-main/features/scheduled-tasks';
import { AgentError, AgentErrorCodes, type AgentConnector, type AgentRequest } from '../../src-main/connectors/agent';
import { ManualClock } from '../../src-main/platform/clock';
import { getJobRunner } from '../../src-main/platform/jobs';
import { createDeployment, useSampleProject } from '../support/data-model';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser, type TestUser } from '../support/users';

useSampleProject();

let svc: TestService;
let clock: ManualClock;
let deploymentId: number;
let otherDeploymentId: number;

beforeAll(async () => {
  clock = new ManualClock(new Date('2026-01-05T10:00:00.000Z'));
  svc = await startTestService({ clock });
  deploymentId = await createDeployment(svc);
  otherDeploymentId = await createDeployment(svc);
});
afterAll(async () => svc.stop());

const tasksPath = (id = deploymentId) => `/api/v1/deployments/${id}/scheduled-tasks`;

async function createTask(body: Record<string, unknown>, auth?: string, deployment = deploymentId) {
  return svc.call('POST', tasksPath(deployment), { body: { name: 'Daily orders', prompt: 'How many orders by status?', ...body }, ...(auth ? { auth } : {}) });
}

/** Polls the runs list until the run is no longer queued or running. */
async function settledRun(taskId: string, runId: string, auth?: string, deployment = deploymentId) {
  for (let i = 0; i < 800; i++) {
    const res = await svc.call('GET', `${tasksPath(deployment)}/${taskId}/runs`, auth ? { auth } : {});
    const run = res.body.items.find((r: { id: string }) => r.id === runId);
    if (run && run.status !== 'QUEUED' && run.status !== 'RUNNING') return run;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} did not settle`);
}

const threadOf = (threadId: string) => ({
  thread: svc.ctx.db.prepare('SELECT * FROM chat_threads WHERE id = ?').get(threadId) as Record<string, unknown> | undefined,
  messages: svc.ctx.db.prepare('SELECT role, content FROM chat_messages WHERE thread_id = ? ORDER BY id').all(threadId) as { role: string; content: string }[],
});

describe('scheduled tasks', () => {
  it('creates a task run on a cron in an IANA time zone: userId is the creator and nextRunAt is computed in the zone', async () => {
    const user = createUser(svc, 'developer');
    const res = await createTask({ cron: '0 9 * * *', timezone: 'America/New_York' }, user.auth);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ cron: '0 9 * * *', timezone: 'America/New_York', enabled: true, active: true, userId: user.id, deploymentId });
    // 10:00Z on 5 January is 05:00 in New York: the next 09:00 there is 14:00Z the same day.
    expect(res.body.nextRunAt).toBe('2026-01-05T14:00:00.000Z');
    const read = await svc.call('GET', `${tasksPath()}/${res.body.id}`, { auth: user.auth });
    expect(read.body).toEqual(res.body);
  });

  it('a manual-only task (no cron) runs only on demand: no nextRunAt, not active', async () => {
    const res = await createTask({});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ cron: null, nextRunAt: null, active: false, enabled: true });
  });

  it('bad cron or time zone → 400', async () => {
    const badCron = await createTask({ cron: '0 9 * *' });
    expect(badCron.status).toBe(400);
    expect(badCron.body.code).toBe('INVALID_CRON');
    expect(badCron.body.errors[0].pointer).toBe('/body/cron');
    const badZone = await createTask({ cron: '0 9 * * *', timezone: 'Mars/Olympus_Mons' });
    expect(badZone.status).toBe(400);
    expect(badZone.body.code).toBe('INVALID_TIMEZONE');
    const manualBadZone = await createTask({ timezone: 'Nowhere/At_All' });
    expect(manualBadZone.body.code).toBe('INVALID_TIMEZONE');
  });

  it('cron at most once an hour (minute field must be a single number) → 400', async () => {
    for (const cron of ['*/15 * * * *', '0,30 9 * * *', '* 9 * * *']) {
      const res = await createTask({ cron });
      expect(res.status, cron).toBe(400);
      expect(res.body.code, cron).toBe('CRON_TOO_FREQUENT');
    }
    expect((await createTask({ cron: '45 * * * *' })).status).toBe(201);
  });

  it('the time zone defaults to the tenant default time zone', async () => {
    const res = await createTask({ cron: '0 9 * * *' });
    expect(res.body.timezone).toBe('UTC');
    expect(res.body.nextRunAt).toBe('2026-01-06T09:00:00.000Z');
  });

  it('create or resume beyond 20 active tasks per user across deployments → 409; manual-only and paused tasks do not count', async () => {
    const user = createUser(svc, 'developer');
    for (let i = 0; i < 20; i++) {
      const res = await createTask({ name: `t${i}`, cron: `${i} * * * *` }, user.auth, i % 2 === 0 ? deploymentId : otherDeploymentId);
      expect(res.status).toBe(201);
    }
    const over = await createTask({ name: 'one too many', cron: '0 9 * * *' }, user.auth);
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('ACTIVE_TASK_LIMIT_REACHED');
    // Manual-only and paused tasks are not active, so they may still be created.
    expect((await createTask({ name: 'manual' }, user.auth)).status).toBe(201);
    const paused = await createTask({ name: 'paused', cron: '0 9 * * *', enabled: false }, user.auth);
    expect(paused.status).toBe(201);
    expect(paused.body).toMatchObject({ active: false, nextRunAt: null });
    // Resuming it, or scheduling the manual one, would make a 21st active task.
    const resume = await svc.call('PUT', `${tasksPath()}/${paused.body.id}`, { body: { enabled: true }, auth: user.auth });
    expect(resume.status).toBe(409);
    expect(resume.body.code).toBe('ACTIVE_TASK_LIMIT_REACHED');
    // Another user's limit is separate.
    expect((await createTask({ cron: '0 9 * * *' }, createUser(svc, 'developer').auth)).status).toBe(201);
    // After pausing one, the resume goes through.
    const mine = await svc.call('GET', tasksPath(otherDeploymentId), { auth: user.auth });
    const pause = await svc.call('PUT', `${tasksPath(otherDeploymentId)}/${mine.body.items[0].id}`, { body: { enabled: false }, auth: user.auth });
    expect(pause.body).toMatchObject({ enabled: false, active: false, nextRunAt: null });
    const resumed = await svc.call('PUT', `${tasksPath()}/${paused.body.id}`, { body: { enabled: true }, auth: user.auth });
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ active: true, nextRunAt: '2026-01-06T09:00:00.000Z' });
  });

  it('update recomputes nextRunAt when the cron or time zone changes; a bad cron on update → 400 and nothing changes', async () => {
    const created = await createTask({ cron: '0 9 * * *', timezone: 'UTC' });
    const moved = await svc.call('PUT', `${tasksPath()}/${created.body.id}`, { body: { timezone: 'Asia/Tokyo', name: 'Tokyo' } });
    // 09:00 in Tokyo (+9) is 00:00Z: the next one after 10:00Z on 5 January is 6 January 00:00Z.
    expect(moved.body).toMatchObject({ name: 'Tokyo', timezone: 'Asia/Tokyo', nextRunAt: '2026-01-06T00:00:00.000Z' });
    const bad = await svc.call('PUT', `${tasksPath()}/${created.body.id}`, { body: { cron: '*/5 * * * *', name: 'changed' } });
    expect(bad.status).toBe(400);
    expect((await svc.call('GET', `${tasksPath()}/${created.body.id}`)).body).toEqual(moved.body);
    const manual = await svc.call('PUT', `${tasksPath()}/${created.body.id}`, { body: { cron: null } });
    expect(manual.body).toMatchObject({ cron: null, active: false, nextRunAt: null });
  });

  it('run now writes a new chat thread answered by the local agent from the compiled model', async () => {
    const user = createUser(svc, 'developer');
    const task = await createTask({ prompt: 'How many orders are there by status?' }, user.auth);
    const started = await svc.call('POST', `${tasksPath()}/${task.body.id}/run`, { auth: user.auth });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ taskId: task.body.id, trigger: 'manual', status: 'QUEUED', createdBy: user.id, scheduledFor: null });
    const run = await settledRun(task.body.id, started.body.id, user.auth);
    expect(run.status).toBe('COMPLETED');
    expect(run.agent).toBe('local-emulator');
    // The sample model's `orders` cube and `sales` view both offer `status` and `count`.
    expect(run.output).toContain('`orders`');
    expect(run.output).toContain('`status`');
    const { thread, messages } = threadOf(run.threadId);
    expect(thread).toMatchObject({ deployment_id: deploymentId, user_id: user.id, origin: 'scheduled-task', scheduled_task_id: task.body.id });
    expect(messages).toEqual([
      { role: 'user', content: 'How many orders are there by status?' },
      { role: 'assistant', content: run.output },
    ]);
    // Each run writes a new thread.
    const again = await svc.call('POST', `${tasksPath()}/${task.body.id}/run`, { auth: user.auth });
    const second = await settledRun(task.body.id, again.body.id, user.auth);
    expect(second.threadId).not.toBe(run.threadId);
  });

  it('a manual run (run now) sets lastRunAt to when it was asked for, and leaves nextRunAt alone', async () => {
    const d = await createDeployment(svc);
    const task = await createTask({ cron: '30 * * * *', timezone: 'UTC' }, undefined, d);
    expect(task.body.lastRunAt).toBeNull();
    const asked = clock.now().toISOString();
    const started = await svc.call('POST', `${tasksPath(d)}/${task.body.id}/run`);
    expect(started.status).toBe(202);
    const after = await svc.call('GET', `${tasksPath(d)}/${task.body.id}`);
    expect(after.body).toMatchObject({ lastRunAt: asked, nextRunAt: task.body.nextRunAt });
    const manualOnly = await createTask({ cron: null }, undefined, d);
    await svc.call('POST', `${tasksPath(d)}/${manualOnly.body.id}/run`);
    expect((await svc.call('GET', `${tasksPath(d)}/${manualOnly.body.id}`)).body).toMatchObject({ lastRunAt: asked, nextRunAt: null });
    await settledRun(task.body.id, started.body.id, undefined, d);
  });

  it('the scheduler enqueues a due run exactly once per task and scheduled time, then moves nextRunAt on', async () => {
    const d = await createDeployment(svc);
    const task = await createTask({ cron: '30 * * * *', timezone: 'UTC' }, undefined, d);
    expect(task.body.nextRunAt).toBe('2026-01-05T10:30:00.000Z');
    const scheduler = getTaskScheduler(svc.ctx);
    expect(scheduler.tick()).toBe(0);
    clock.set(new Date('2026-01-05T10:30:00.000Z'));
    // Two schedulers racing (e.g. two processes on one data dir) fire it once between them.
    const fired = scheduler.tick() + scheduler.tick();
    expect(fired).toBeGreaterThanOrEqual(1);
    const runs = await svc.call('GET', `${tasksPath(d)}/${task.body.id}/runs`);
    const forSlot = runs.body.items.filter((r: { scheduledFor: string }) => r.scheduledFor === '2026-01-05T10:30:00.000Z');
    expect(forSlot).toHaveLength(1);
    expect(forSlot[0].trigger).toBe('scheduled');
    expect(forSlot[0].createdBy).toBe(task.body.userId);
    const after = await svc.call('GET', `${tasksPath(d)}/${task.body.id}`);
    expect(after.body).toMatchObject({ nextRunAt: '2026-01-05T11:30:00.000Z', lastRunAt: '2026-01-05T10:30:00.000Z' });
    const run = await settledRun(task.body.id, forSlot[0].id, undefined, d);
    expect(run.status).toBe('COMPLETED');
    expect(threadOf(run.threadId).messages).toHaveLength(2);
  });

  it('runs missed while the service was down fire once, not once per missed slot', async () => {
    const d = await createDeployment(svc);
    const task = await createTask({ cron: '0 * * * *', timezone: 'UTC' }, undefined, d);
    clock.advance(5 * 3600_000);
    const now = clock.now().getTime();
    expect(getTaskScheduler(svc.ctx).tick()).toBeGreaterThanOrEqual(1);
    expect(getTaskScheduler(svc.ctx).tick()).toBe(0);
    const runs = await svc.call('GET', `${tasksPath(d)}/${task.body.id}/runs`);
    expect(runs.body.items).toHaveLength(1);
    const after = await svc.call('GET', `${tasksPath(d)}/${task.body.id}`);
    expect(new Date(after.body.nextRunAt).getTime()).toBeGreaterThan(now);
  });

  it("the scheduler's timer fires a due task by itself", async () => {
    const d = await createDeployment(svc);
    const task = await createTask({ cron: '15 * * * *', timezone: 'UTC' }, undefined, d);
    clock.set(new Date(new Date(task.body.nextRunAt).getTime() + 1000));
    // The timer sleeps until the earliest nextRunAt (here: already due), then fires.
    getTaskScheduler(svc.ctx).rearm();
    let runs: { trigger: string; scheduledFor: string }[] = [];
    for (let i = 0; i < 1000 && runs.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      runs = (await svc.call('GET', `${tasksPath(d)}/${task.body.id}/runs`)).body.items;
    }
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'scheduled', scheduledFor: task.body.nextRunAt });
  });

  it('paused and manual-only tasks are not fired by the scheduler', async () => {
    const d = await createDeployment(svc);
    const paused = await createTask({ cron: '0 * * * *', enabled: false }, undefined, d);
    const manual = await createTask({}, undefined, d);
    clock.advance(3 * 3600_000);
    getTaskScheduler(svc.ctx).tick();
    for (const task of [paused.body, manual.body]) {
      expect((await svc.call('GET', `${tasksPath(d)}/${task.id}/runs`)).body.items).toEqual([]);
    }
  });

  it('runs list returns the 50 most recent runs, newest first', async () => {
    const task = await createTask({ prompt: 'orders' });
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) {
      const res = await svc.call('POST', `${tasksPath()}/${task.body.id}/run`);
      expect(res.status).toBe(202);
      ids.push(res.body.id);
      if (i % 10 === 9) await getJobRunner(svc.ctx).wait(res.body.jobId, { timeoutMs: 10_000 });
    }
    const runs = await svc.call('GET', `${tasksPath()}/${task.body.id}/runs`);
    expect(runs.body.items).toHaveLength(50);
    expect(runs.body.items.map((r: { id: string }) => r.id)).toEqual(ids.slice(-50).reverse());
  });

  it('a failing agent fails the run with its error code; the thread is not written', async () => {
    const failing: AgentConnector = {
      name: 'failing',
      ask: async () => {
        throw new AgentError(AgentErrorCodes.AGENT_UNAUTHORIZED, 'The agent endpoint refused the API key (401)', { status: 401 });
      },
    };
    svc.ctx.services.agent = failing;
    try {
      const task = await createTask({});
      const started = await svc.call('POST', `${tasksPath()}/${task.body.id}/run`);
      const run = await settledRun(task.body.id, started.body.id);
      expect(run).toMatchObject({ status: 'FAILED', threadId: null, error: { code: 'AGENT_UNAUTHORIZED' } });
    } finally {
      delete svc.ctx.services.agent;
    }
  });

  it('a retryable agent failure is retried by the job runner and the run then completes', async () => {
    let calls = 0;
    const flaky: AgentConnector = {
      name: 'flaky',
      ask: async (request: AgentRequest) => {
        // Runs of other tests' tasks may reach this agent too; only this prompt is counted.
        if (request.prompt !== 'retry me') return { content: 'other', agent: 'flaky', references: [], usage: null };
        calls++;
        if (calls === 1) throw new AgentError(AgentErrorCodes.AGENT_RATE_LIMITED, 'slow down', { status: 429, retryable: true, retryAfterMs: 1000 });
        return { content: `answer to ${request.prompt}`, agent: 'flaky', references: [], usage: null };
      },
    };
    svc.ctx.services.agent = flaky;
    try {
      const task = await createTask({ prompt: 'retry me' });
      const started = await svc.call('POST', `${tasksPath()}/${task.body.id}/run`);
      // Once the failure is recorded the job waits, QUEUED, for its back-off on the service clock.
      const runner = getJobRunner(svc.ctx);
      for (let i = 0; i < 1000; i++) {
        const job = runner.get(started.body.jobId);
        if (calls >= 1 && job?.status === 'QUEUED' && job.attempts === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      clock.advance(2000);
      const run = await settledRun(task.body.id, started.body.id);
      expect(run).toMatchObject({ status: 'COMPLETED', output: 'answer to retry me', agent: 'flaky' });
      expect(calls).toBe(2);
    } finally {
      delete svc.ctx.services.agent;
    }
  });

  it('list cursor pagination with first/after; omitting first returns every task', async () => {
    const d = await createDeployment(svc);
    const user = createUser(svc, 'developer');
    const created: string[] = [];
    for (let i = 0; i < 105; i++) created.push((await createTask({ name: `task ${i}` }, user.auth, d)).body.id);
    const all = await svc.call('GET', tasksPath(d), { auth: user.auth });
    expect(all.body.items.map((t: { id: string }) => t.id)).toEqual(created);
    expect(all.body.pageInfo.hasNextPage).toBe(false);
    const page1 = await svc.call('GET', `${tasksPath(d)}?first=40`, { auth: user.auth });
    expect(page1.body.items).toHaveLength(40);
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    const seen = [...page1.body.items];
    let cursor = page1.body.pageInfo.endCursor;
    while (cursor) {
      const page = await svc.call('GET', `${tasksPath(d)}?first=40&after=${encodeURIComponent(cursor)}`, { auth: user.auth });
      seen.push(...page.body.items);
      cursor = page.body.pageInfo.hasNextPage ? page.body.pageInfo.endCursor : null;
    }
    expect(seen.map((t: { id: string }) => t.id)).toEqual(created);
    expect((await svc.call('GET', `${tasksPath(d)}?after=not-a-cursor`, { auth: user.auth })).status).toBe(400);
  });

  it("a task is visible to its creator and to admins; other users get 404 and don't see it listed", async () => {
    const d = await createDeployment(svc);
    const owner = createUser(svc, 'developer');
    const other = createUser(svc, 'developer');
    const task = await createTask({}, owner.auth, d);
    expect((await svc.call('GET', `${tasksPath(d)}/${task.body.id}`, { auth: other.auth })).status).toBe(404);
    expect((await svc.call('POST', `${tasksPath(d)}/${task.body.id}/run`, { auth: other.auth })).status).toBe(404);
    expect((await svc.call('DELETE', `${tasksPath(d)}/${task.body.id}`, { auth: other.auth })).status).toBe(404);
    expect((await svc.call('GET', tasksPath(d), { auth: other.auth })).body.items).toEqual([]);
    expect((await svc.call('GET', tasksPath(d))).body.items.map((t: { id: string }) => t.id)).toContain(task.body.id);
    expect((await svc.call('GET', `${tasksPath(d)}/${task.body.id}`)).status).toBe(200);
    // Another deployment's path does not reach it either.
    expect((await svc.call('GET', `${tasksPath(otherDeploymentId)}/${task.body.id}`)).status).toBe(404);
  });

  it('embed sessions are refused (403)', async () => {
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme', deploymentId });
    for (const [method, path] of [
      ['GET', tasksPath()],
      ['POST', tasksPath()],
    ] as const) {
      const res = await svc.call(method, path, { auth: embed, ...(method === 'POST' ? { body: { name: 'x', prompt: 'y' } } : {}) });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('EMBED_SESSION_REFUSED');
    }
  });

  it('callers without deployment read access are refused (403)', async () => {
    const blocked: TestUser = createUser(svc, 'viewer', { actions: ['-DeploymentRead'] });
    const res = await svc.call('GET', tasksPath(), { auth: blocked.auth });
    expect(res.status).toBe(403);
  });

  it('delete removes the task and its runs; the chat threads its runs wrote stay', async () => {
    const task = await createTask({ prompt: 'orders' });
    const started = await svc.call('POST', `${tasksPath()}/${task.body.id}/run`);
    const run = await settledRun(task.body.id, started.body.id);
    const deleted = await svc.call('DELETE', `${tasksPath()}/${task.body.id}`);
    expect(deleted.status).toBe(204);
    expect((await svc.call('GET', `${tasksPath()}/${task.body.id}`)).status).toBe(404);
    expect((await svc.call('GET', `${tasksPath()}/${task.body.id}/runs`)).status).toBe(404);
    expect(svc.ctx.db.prepare('SELECT COUNT(*) AS n FROM scheduled_task_runs WHERE task_id = ?').get(task.body.id)).toEqual({ n: 0 });
    expect(threadOf(run.threadId).messages).toHaveLength(2);
  });

  it('unknown tasks and deployments → 404', async () => {
    expect((await svc.call('GET', `${tasksPath()}/no-such-task`)).body.code).toBe('SCHEDULED_TASK_NOT_FOUND');
    expect((await svc.call('GET', tasksPath(999_999))).status).toBe(404);
  });
});
