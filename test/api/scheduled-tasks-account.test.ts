import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTaskScheduler } from '../../src-main/features/scheduled-tasks';
import { ManualClock } from '../../src-main/platform/clock';
import { createDeployment, useSampleProject } from '../support/data-model';
import { startTestService, type TestService } from '../support/service';

useSampleProject();

let svc: TestService;
let clock: ManualClock;
let deploymentId: number;
beforeAll(async () => {
  clock = new ManualClock(new Date('2026-02-01T08:00:00.000Z'));
  svc = await startTestService({ clock });
  deploymentId = await createDeployment(svc);
});
afterAll(async () => svc.stop());

const path = () => `/api/v1/deployments/${deploymentId}/scheduled-tasks`;
/** The account switch is the tenant setting `scheduledTasksEnabled`, set by an admin over the API. */
const setAccountSwitch = async (enabled: boolean) =>
  expect((await svc.call('PUT', '/api/v1/tenant/settings', { body: { scheduledTasksEnabled: enabled } })).status).toBe(200);

describe('scheduled tasks and the account switch', () => {
  it('scheduled tasks not enabled for the account → 403 on every operation', async () => {
    const task = await svc.call('POST', path(), { body: { name: 'n', prompt: 'p', cron: '0 9 * * *' } });
    expect(task.status).toBe(201);
    await setAccountSwitch(false);
    try {
      const calls = [
        svc.call('GET', path()),
        svc.call('POST', path(), { body: { name: 'n', prompt: 'p' } }),
        svc.call('GET', `${path()}/${task.body.id}`),
        svc.call('PUT', `${path()}/${task.body.id}`, { body: { name: 'm' } }),
        svc.call('POST', `${path()}/${task.body.id}/run`),
        svc.call('GET', `${path()}/${task.body.id}/runs`),
        svc.call('DELETE', `${path()}/${task.body.id}`),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('SCHEDULED_TASKS_DISABLED');
      }
      // Nor does the scheduler fire while the account has them off.
      clock.set(new Date('2026-02-01T10:00:00.000Z'));
      expect(getTaskScheduler(svc.ctx).tick()).toBe(0);
    } finally {
      await setAccountSwitch(true);
    }
    // Turned back on, the missed time fires once.
    expect(getTaskScheduler(svc.ctx).tick()).toBe(1);
    expect((await svc.call('GET', `${path()}/${task.body.id}/runs`)).body.items).toHaveLength(1);
  });

  it('scheduled tasks are enabled by default in the tenant settings', async () => {
    const fresh = await startTestService();
    try {
      expect((await fresh.call('GET', '/api/v1/tenant/settings')).body.scheduledTasksEnabled).toBe(true);
    } finally {
      await fresh.stop();
    }
  });
});
