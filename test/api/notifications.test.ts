import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';

let svc: TestService;
let dep: number;
let workbook: { id: number; publicId: string };
let viewer: TestUser;
let recipientUser: TestUser;

beforeAll(async () => {
  svc = await startTestService();
  dep = await createDeployment(svc);
  viewer = createUser(svc, 'viewer');
  recipientUser = createUser(svc, 'viewer');
  workbook = (await svc.call('POST', `/api/v1/deployments/${dep}/workbooks`, { body: { name: 'Weekly' } })).body;
});
afterAll(async () => svc.stop());

const N = () => `/api/v1/deployments/${dep}/notifications`;
const base = (extra: Record<string, unknown> = {}) => ({
  name: 'Monday digest',
  dashboardId: workbook.id,
  schedule: { cron: '0 8 * * 1', timezone: 'Europe/Berlin' },
  recipients: [{ type: 'EMAIL', email: 'team@example.com' }],
  ...extra,
});

describe('notifications', () => {
  it('creates a notification for a dashboard by id and fills in its public id', async () => {
    const res = await svc.call('POST', N(), { body: base() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Monday digest',
      dashboardId: workbook.id,
      dashboardPublicId: workbook.publicId,
      schedule: { cron: '0 8 * * 1', timezone: 'Europe/Berlin' },
      enabled: true,
      format: 'PDF',
      filters: [],
      timeGrains: [],
      memberSwitchers: [],
      notificationAiSummary: null,
      recipients: [{ type: 'EMAIL', email: 'team@example.com', userId: null }],
    });
  });

  it('accepts the dashboard by its public id instead', async () => {
    const { dashboardId: _drop, ...rest } = base();
    const res = await svc.call('POST', N(), { body: { ...rest, dashboardPublicId: workbook.publicId } });
    expect(res.status).toBe(201);
    expect(res.body.dashboardId).toBe(workbook.id);
  });

  it('needs exactly one of dashboardId and dashboardPublicId on create (400 for both or neither)', async () => {
    const both = await svc.call('POST', N(), { body: base({ dashboardPublicId: workbook.publicId }) });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe('DASHBOARD_REF_AMBIGUOUS');
    const { dashboardId: _drop, ...neither } = base();
    const none = await svc.call('POST', N(), { body: neither });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('DASHBOARD_REF_REQUIRED');
    expect((await svc.call('POST', N(), { body: base({ dashboardId: 999999 }) })).status).toBe(404);
  });

  it('stores filters, time grains, member switchers, the AI summary and recipients', async () => {
    const body = base({
      filters: [
        { member: 'orders.status', operator: 'equals', values: ['shipped'] },
        { member: 'orders.note', operator: 'is_empty' },
        { member: 'orders.region', operator: 'is_not_empty', values: [] },
      ],
      timeGrains: [{ widgetId: 'grain-1', granularity: 'week' }],
      memberSwitchers: [{ widgetId: 'switch-1', member: 'orders.revenue' }],
      notificationAiSummary: { enabled: true, instructions: 'Highlight drops.' },
      recipients: [{ type: 'EMAIL', email: 'a@example.com' }, { type: 'USER', userId: recipientUser.id }],
      format: 'PNG',
      enabled: false,
    });
    const res = await svc.call('POST', N(), { body });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      filters: [
        { member: 'orders.status', operator: 'equals', values: ['shipped'] },
        { member: 'orders.note', operator: 'is_empty', values: [] },
        { member: 'orders.region', operator: 'is_not_empty', values: [] },
      ],
      timeGrains: [{ widgetId: 'grain-1', granularity: 'week' }],
      memberSwitchers: [{ widgetId: 'switch-1', member: 'orders.revenue' }],
      notificationAiSummary: { enabled: true, instructions: 'Highlight drops.' },
      recipients: [
        { type: 'EMAIL', email: 'a@example.com', userId: null },
        { type: 'USER', email: null, userId: recipientUser.id },
      ],
      format: 'PNG',
      enabled: false,
    });
    expect((await svc.call('GET', `${N()}/${res.body.id}`)).body).toEqual(res.body);
  });

  it('refuses values on is_empty / is_not_empty, missing values on other operators, and unknown operators with 400', async () => {
    const withValues = await svc.call('POST', N(), { body: base({ filters: [{ member: 'm', operator: 'is_empty', values: ['x'] }] }) });
    expect(withValues.status).toBe(400);
    expect(withValues.body.code).toBe('FILTER_VALUES_NOT_ALLOWED');
    const without = await svc.call('POST', N(), { body: base({ filters: [{ member: 'm', operator: 'equals' }] }) });
    expect(without.body.code).toBe('FILTER_VALUES_REQUIRED');
    expect((await svc.call('POST', N(), { body: base({ filters: [{ member: 'm', operator: 'is_blank' }] }) })).status).toBe(400);
  });

  it('refuses bad recipients: none at all, an EMAIL without email, a USER that does not exist', async () => {
    expect((await svc.call('POST', N(), { body: base({ recipients: [] }) })).status).toBe(400);
    expect((await svc.call('POST', N(), { body: base({ recipients: [{ type: 'EMAIL' }] }) })).body.code).toBe('INVALID_RECIPIENT');
    expect((await svc.call('POST', N(), { body: base({ recipients: [{ type: 'USER', userId: 999999 }] }) })).body.code).toBe('RECIPIENT_USER_NOT_FOUND');
    expect((await svc.call('POST', N(), { body: base({ recipients: [{ type: 'EMAIL', email: 'not-an-email' }] }) })).status).toBe(400);
  });

  it('refuses a bad cron expression or time zone with 400', async () => {
    const cron = await svc.call('POST', N(), { body: base({ schedule: { cron: 'every monday', timezone: 'UTC' } }) });
    expect(cron.status).toBe(400);
    expect(cron.body.code).toBe('INVALID_CRON');
    const tz = await svc.call('POST', N(), { body: base({ schedule: { cron: '0 8 * * 1', timezone: 'Mars/Olympus' } }) });
    expect(tz.status).toBe(400);
    expect(tz.body.code).toBe('INVALID_TIMEZONE');
  });

  it('updates only the fields sent', async () => {
    const created = (await svc.call('POST', N(), { body: base({ filters: [{ member: 'm', operator: 'is_not_empty' }] }) })).body;
    const res = await svc.call('PUT', `${N()}/${created.id}`, { body: { name: 'Renamed', enabled: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', enabled: false, filters: created.filters, recipients: created.recipients, schedule: created.schedule });
    const both = await svc.call('PUT', `${N()}/${created.id}`, { body: { dashboardId: workbook.id, dashboardPublicId: workbook.publicId } });
    expect(both.status).toBe(400);
  });

  it('lists with cursor pagination and a dashboard filter, and deletes (204, then 404)', async () => {
    const other = (await svc.call('POST', `/api/v1/deployments/${dep}/workbooks`, { body: { name: 'Other' } })).body;
    const mine = (await svc.call('POST', N(), { body: base({ dashboardId: other.id, name: 'only one' }) })).body;
    const filtered = await svc.call('GET', `${N()}?dashboardId=${other.id}`);
    expect(filtered.body.items.map((n: { id: number }) => n.id)).toEqual([mine.id]);
    const page1 = await svc.call('GET', `${N()}?first=1`);
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    expect((await svc.call('DELETE', `${N()}/${mine.id}`)).status).toBe(204);
    const gone = await svc.call('GET', `${N()}/${mine.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('NOTIFICATION_NOT_FOUND');
  });

  it('lets viewers read notifications but not create them', async () => {
    expect((await svc.call('GET', N(), { auth: viewer.auth })).status).toBe(200);
    expect((await svc.call('POST', N(), { body: base(), auth: viewer.auth })).status).toBe(403);
  });

  it('removes the notifications of a deleted workbook', async () => {
    const wb = (await svc.call('POST', `/api/v1/deployments/${dep}/workbooks`, { body: { name: 'Doomed' } })).body;
    const n = (await svc.call('POST', N(), { body: base({ dashboardId: wb.id }) })).body;
    await svc.call('DELETE', `/api/v1/deployments/${dep}/workbooks/${wb.id}`);
    expect((await svc.call('GET', `${N()}/${n.id}`)).status).toBe(404);
  });
});
