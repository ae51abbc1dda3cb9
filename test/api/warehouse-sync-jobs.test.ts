import { describe, expect, it } from 'vitest';
import { bearerFor, createUser } from '../support/users';
import { D, pull, push, setup, svc, useWarehouseSyncService, waitForEnd } from '../support/warehouse-sync';

// Warehouse semantic view sync jobs: listing and lookup, authentication and access.
useWarehouseSyncService();

describe('job listing and lookup', () => {
  it('lists push and pull jobs newest first, filtered by status and direction, with cursor pages', async () => {
    const { id, schema } = await setup();
    const a = await push(id, { schema, prefix: '', viewNames: ['totals_view'] });
    const b = await pull(id, { schema, outputPath: 'model/pulled' });
    const c = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema: 'NO_SUCH_SCHEMA', prefix: '', viewNames: ['totals_view'] } });
    await waitForEnd(`${D(id)}/warehouse-semantic-view-syncs/${c.body.syncJobId}`);
    const all = await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs`);
    expect(all.body.items.map((j: { syncJobId: string }) => j.syncJobId)).toEqual([c.body.syncJobId, b.start.body.syncJobId, a.start.body.syncJobId]);
    const pulls = await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs?direction=pull`);
    expect(pulls.body.items.map((j: { direction: string }) => j.direction)).toEqual(['pull']);
    const failed = await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs?status=FAILED`);
    expect(failed.body.items.map((j: { syncJobId: string }) => j.syncJobId)).toEqual([c.body.syncJobId]);
    const twoStates = await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs?status=FAILED&status=COMPLETED`);
    expect(twoStates.body.items).toHaveLength(3);
    const first = await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs?first=2`);
    expect(first.body.pageInfo.hasNextPage).toBe(true);
    const second = await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs?first=2&after=${first.body.pageInfo.endCursor}`);
    expect(second.body.items.map((j: { syncJobId: string }) => j.syncJobId)).toEqual([a.start.body.syncJobId]);
    expect(second.body.pageInfo.hasNextPage).toBe(false);
  });

  it('answers 404 for an unknown job, a job of another deployment, and a push looked up as a pull', async () => {
    const { id, schema } = await setup();
    const other = await setup();
    const { start } = await push(id, { schema, prefix: '', viewNames: ['totals_view'] });
    expect((await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs/00000000-0000-4000-8000-000000000000`)).body.code).toBe('SYNC_JOB_NOT_FOUND');
    expect((await svc.call('GET', `${D(other.id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}`)).status).toBe(404);
    expect((await svc.call('GET', `${D(id)}/warehouse-semantic-view-pulls/${start.body.syncJobId}`)).status).toBe(404);
    expect((await svc.call('GET', `${D(999999)}/warehouse-semantic-view-syncs/${start.body.syncJobId}`)).status).toBe(404);
  });
});

describe('authentication and access', () => {
  it('start needs SchemaUpdate and SQL Runner read access', async () => {
    const { id, schema } = await setup();
    const body = { schema, prefix: '', viewNames: ['totals_view'] };
    const viewer = createUser(svc, 'viewer');
    const noSqlRunner = createUser(svc, 'developer', { actions: ['-SqlRunnerRead'] });
    const granted = createUser(svc, 'viewer', { actions: ['SchemaUpdate', 'SqlRunnerRead'] });
    for (const path of ['warehouse-semantic-view-syncs', 'warehouse-semantic-view-pulls']) {
      const b = path.endsWith('pulls') ? { schema, outputPath: 'model/x' } : body;
      expect((await svc.call('POST', `${D(id)}/${path}`, { body: b, auth: viewer.auth })).status).toBe(403);
      expect((await svc.call('POST', `${D(id)}/${path}`, { body: b, auth: noSqlRunner.auth })).status).toBe(403);
      expect((await svc.call('POST', `${D(id)}/${path}`, { body: b, auth: granted.auth })).status).toBe(202);
    }
  });

  it('progress and result need SchemaRead or SchemaUpdate access', async () => {
    const { id, schema } = await setup();
    const { start } = await push(id, { schema, prefix: '', viewNames: ['totals_view'] });
    const path = `${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}`;
    const viewer = createUser(svc, 'viewer');
    const blind = createUser(svc, 'viewer', { actions: ['-SchemaRead'] });
    const updater = createUser(svc, 'viewer', { actions: ['-SchemaRead', 'SchemaUpdate'] });
    expect((await svc.call('GET', path, { auth: viewer.auth })).status).toBe(200);
    expect((await svc.call('GET', `${path}/result`, { auth: viewer.auth })).status).toBe(200);
    expect((await svc.call('GET', path, { auth: blind.auth })).status).toBe(403);
    expect((await svc.call('GET', `${path}/result`, { auth: blind.auth })).status).toBe(403);
    expect((await svc.call('GET', path, { auth: updater.auth })).status).toBe(200);
  });

  it('an OAuth bearer token needs the deployment.write scope', async () => {
    const { id, schema } = await setup();
    const admin = createUser(svc, 'admin');
    const without = await bearerFor(svc, admin.id, 'oauth', { scopes: ['deployment.read'] });
    const withScope = await bearerFor(svc, admin.id, 'oauth', { scopes: ['deployment.write'] });
    const body = { schema, prefix: '', viewNames: ['totals_view'] };
    const refused = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body, auth: without });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('INSUFFICIENT_SCOPE');
    const accepted = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body, auth: withScope });
    expect(accepted.status).toBe(202);
    expect((await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs/${accepted.body.syncJobId}`, { auth: without })).status).toBe(403);
    expect((await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs/${accepted.body.syncJobId}`, { auth: withScope })).status).toBe(200);
  });

  it('refuses embed sessions and calls without a credential', async () => {
    const { id, schema } = await setup();
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 't' });
    expect((await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs`, { auth: embed })).status).toBe(403);
    expect((await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema, prefix: '', viewNames: ['totals_view'] }, auth: null })).status).toBe(401);
  });
});
