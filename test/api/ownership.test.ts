/**
 * Issue 13 item 14, the one ownership rule: changing or overwriting an item someone else owns
 * (a workbook and its dashboard, a report, a notification) needs the same manage access as deleting
 * it — its owner or an admin. A developer who may not delete an admin's item may not overwrite it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { dep, svc, useServiceWithDeployment } from '../support/deployment-service';
import { createUser, type TestUser } from '../support/users';

useServiceWithDeployment();
let developer: TestUser;
beforeAll(() => {
  developer = createUser(svc, 'developer');
});

const D = () => `/api/v1/deployments/${dep}`;
const DRAFT = { title: 'Admin draft', widgets: [] };
let counter = 0;

/** A shared workbook with a saved and published dashboard, owned by whoever `auth` is (default: the admin). */
async function workbook(auth?: string) {
  const slug = `owned-${++counter}`;
  const created = await svc.call('PUT', `${D()}/workbooks/by-slug/${slug}`, { body: { name: `Owned ${counter}`, shared: true, dashboardDraft: DRAFT }, auth });
  expect(created.status, created.text).toBe(200);
  expect((await svc.call('POST', `${D()}/workbooks/${created.body.id}/publish`, { auth })).status).toBe(200);
  return { id: created.body.id as number, slug };
}

describe('a developer and an admin’s items: neither overwrite nor delete', () => {
  it('workbook: saving the draft, publishing, upserting by slug and deleting all answer 403, and nothing changes', async () => {
    const wb = await workbook();
    const before = (await svc.call('GET', `${D()}/workbooks/${wb.id}`)).body;
    const as = { auth: developer.auth };
    const draft = await svc.call('PUT', `${D()}/workbooks/${wb.id}/dashboard`, { ...as, body: { dashboardDraft: { title: 'Hijacked', widgets: [] } } });
    expect(draft.status).toBe(403);
    expect(draft.body.code).toBe('FORBIDDEN');
    expect((await svc.call('POST', `${D()}/workbooks/${wb.id}/publish`, { ...as, body: { config: { title: 'Hijacked', widgets: [] } } })).status).toBe(403);
    expect((await svc.call('PUT', `${D()}/workbooks/by-slug/${wb.slug}`, { ...as, body: { name: 'Renamed' } })).status).toBe(403);
    expect((await svc.call('DELETE', `${D()}/workbooks/${wb.id}`, as)).status).toBe(403);
    const after = (await svc.call('GET', `${D()}/workbooks/${wb.id}`)).body;
    expect(after.name).toBe(before.name);
    expect(after.dashboardDraft.title).toBe('Admin draft');
    expect(after.dashboardPublished.title).toBe('Admin draft');
  });

  it('report: overwriting by public id and deleting both answer 403, and the report keeps its query', async () => {
    const created = await svc.call('PUT', `${D()}/reports/by-public-id/admin-report`, { body: { name: 'Admin report', query: { measures: ['orders.count'] } } });
    expect(created.status, created.text).toBe(200);
    const overwrite = await svc.call('PUT', `${D()}/reports/by-public-id/admin-report`, {
      body: { name: 'Mine now', query: { measures: ['orders.revenue'] } },
      auth: developer.auth,
    });
    expect(overwrite.status).toBe(403);
    expect((await svc.call('DELETE', `${D()}/reports/${created.body.id}`, { auth: developer.auth })).status).toBe(403);
    const after = (await svc.call('GET', `${D()}/reports/${created.body.id}`)).body;
    expect(after).toMatchObject({ name: 'Admin report', query: { measures: ['orders.count'] } });
    // The developer still sees it as placeable (canEdit) but not theirs to change (canManage).
    expect((await svc.call('GET', `${D()}/reports/${created.body.id}`, { auth: developer.auth })).body).toMatchObject({ canEdit: true, canManage: false });
  });

  it('notification: changing and deleting both answer 403, and the notification is unchanged', async () => {
    const wb = await workbook();
    const created = await svc.call('POST', `${D()}/notifications`, {
      body: { name: 'Admin digest', dashboardId: wb.id, schedule: { cron: '0 8 * * 1', timezone: 'UTC' }, recipients: [{ type: 'EMAIL', email: 'a@example.com' }] },
    });
    expect(created.status, created.text).toBe(201);
    const path = `${D()}/notifications/${created.body.id}`;
    expect((await svc.call('PUT', path, { body: { name: 'Mine now' }, auth: developer.auth })).status).toBe(403);
    expect((await svc.call('DELETE', path, { auth: developer.auth })).status).toBe(403);
    expect((await svc.call('GET', path)).body.name).toBe('Admin digest');
  });
});

describe('owners and admins: both overwrite and delete', () => {
  it('a developer changes and deletes their own workbook, report and notification; an admin may change a developer’s', async () => {
    const auth = developer.auth;
    const wb = await workbook(auth);
    expect((await svc.call('PUT', `${D()}/workbooks/${wb.id}/dashboard`, { auth, body: { dashboardDraft: { title: 'Mine', widgets: [] } } })).status).toBe(200);
    expect((await svc.call('PUT', `${D()}/workbooks/${wb.id}/dashboard`, { body: { dashboardDraft: { title: 'Admin edit', widgets: [] } } })).status).toBe(200);
    const report = await svc.call('PUT', `${D()}/reports/by-public-id/dev-report`, { auth, body: { name: 'Dev report' } });
    expect(report.status).toBe(200);
    expect((await svc.call('PUT', `${D()}/reports/by-public-id/dev-report`, { auth, body: { name: 'Dev report 2' } })).status).toBe(200);
    const notification = await svc.call('POST', `${D()}/notifications`, {
      auth,
      body: { name: 'Dev digest', dashboardId: wb.id, schedule: { cron: '0 8 * * 1', timezone: 'UTC' }, recipients: [{ type: 'EMAIL', email: 'd@example.com' }] },
    });
    expect(notification.status, notification.text).toBe(201);
    const path = `${D()}/notifications/${notification.body.id}`;
    expect((await svc.call('PUT', path, { auth, body: { name: 'Dev digest 2' } })).status).toBe(200);
    expect((await svc.call('DELETE', path, { auth })).status).toBe(204);
    expect((await svc.call('DELETE', `${D()}/reports/${report.body.id}`, { auth })).status).toBe(204);
    expect((await svc.call('DELETE', `${D()}/workbooks/${wb.id}`, { auth })).status).toBe(204);
  });
});
