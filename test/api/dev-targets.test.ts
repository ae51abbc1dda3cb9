import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles } from '../../src-main/features/data-model';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { createDeployment } from '../support/deployments';
import { createOrderTables } from '../support/warehouse-tables';
import { startTestService, type TestResponse, type TestService } from '../support/service';
import { waitForJobEnd } from '../support/job-polling';
import { createUser, type TestUser } from '../support/users';

// Dev mode (issue 14 item 4): a push from a user's dev branch writes to that user's per-user
// schema or name prefix, never over the production semantic views.

process.env.DRYDOCK_SAMPLE_PROJECT = mkdtempSync(join(tmpdir(), 'drydock-empty-sample-'));

const MODEL = (description: string) => `
cubes:
  - name: dv_orders
    sql_table: public.dv_orders
    joins:
      - name: dv_customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {dv_customers.id}"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
    measures:
      - { name: total, sql: amount, type: sum }
  - name: dv_customers
    sql: SELECT * FROM ANALYTICS.PUBLIC.DV_CUSTOMERS
    dimensions:
      - { name: id, sql: "{CUBE}.id", type: number, primary_key: true }
      - { name: name, sql: name, type: string }
views:
  - name: orders_view
    description: ${description}
    cubes:
      - join_path: dv_orders
        includes: [status, total]
      - join_path: dv_orders.dv_customers
        prefix: true
        includes: [name]
`;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
  createOrderTables(getLocalWarehouse(svc.ctx), 'DV_');
});
afterAll(async () => svc.stop());

const D = (id: number) => `/api/v1/deployments/${id}`;
const B = (id: number) => `/build/api/v1/deployments/${id}`;
const AUTHOR = { name: 'Test', email: 'test@example.com' };
let counter = 0;

async function setup(): Promise<{ id: number; schema: string }> {
  const id = await createDeployment(svc);
  await commitFiles(svc.ctx, id, 'main', [{ path: 'model/dev/model.yml', content: MODEL('Production orders') }], 'model', AUTHOR);
  const schema = `DEVT_${++counter}`;
  const emulator = getLocalWarehouse(svc.ctx);
  emulator.createSchema('ANALYTICS', schema);
  emulator.grantFullAccess('DRYDOCK', { database: 'ANALYTICS', schema });
  return { id, schema };
}

/** A developer in dev mode on their own branch, whose model differs from production's. */
async function developerInDevMode(id: number, email: string): Promise<{ user: TestUser; branch: string }> {
  const user = createUser(svc, 'developer', { email });
  const res = await svc.call('POST', `${B(id)}/dev-mode`, { auth: user.auth });
  expect(res.status, res.text).toBe(200);
  const branch = res.body.branch.branchName as string;
  await commitFiles(svc.ctx, id, branch, [{ path: 'model/dev/model.yml', content: MODEL(`Edited by ${email}`) }], 'dev edit', AUTHOR);
  return { user, branch };
}

const waitForEnd = (path: string): Promise<TestResponse> => waitForJobEnd(svc, path);

async function push(id: number, body: Record<string, unknown>, auth?: string) {
  const start = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body, ...(auth ? { auth } : {}) });
  expect(start.status, start.text).toBe(202);
  const progress = await waitForEnd(`${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}`);
  expect(progress.body.status, JSON.stringify(progress.body.error)).toBe('COMPLETED');
  const result = await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}/result`);
  expect(result.status).toBe(200);
  return { progress, result };
}

/** What the warehouse holds in a schema: each semantic view's DDL and creation time, by name. */
function schemaContents(schema: string): Record<string, { ddl: string; createdOn: unknown }> {
  const emulator = getLocalWarehouse(svc.ctx);
  const context = emulator.defaultContext();
  const rows = emulator.execute(`SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS.${schema}`, context).rows;
  const out: Record<string, { ddl: string; createdOn: unknown }> = {};
  for (const row of rows) {
    const name = String(row.name);
    const ddl = emulator.execute(`SELECT GET_DDL('SEMANTIC_VIEW', 'ANALYTICS.${schema}.${name}')`, context).rows[0]!;
    out[name] = { ddl: String(Object.values(ddl)[0]), createdOn: row.created_on };
  }
  return out;
}

function helperViewQuery(schema: string, name: string): unknown {
  const emulator = getLocalWarehouse(svc.ctx);
  return emulator.execute(`SELECT GET_DDL('VIEW', 'ANALYTICS.${schema}.${name}')`, emulator.defaultContext()).rows[0];
}

describe('dev-mode push: per-user schema (the default rule)', () => {
  it('a push from a user’s dev branch goes to <schema>_DEV_<USER>, created when missing, and the result lists the real names', async () => {
    const { id, schema } = await setup();
    const { user, branch } = await developerInDevMode(id, `alice${counter}@example.com`);
    const tag = `ALICE${counter}`;
    const { progress, result } = await push(id, { schema, prefix: 'SV_', viewNames: ['orders_view'], branchName: branch }, user.auth);
    const devSchema = `${schema}_DEV_${tag}`;
    expect(result.body).toMatchObject({
      branchName: branch,
      schema: devSchema,
      devTarget: { ownerUserId: user.id, userTag: tag, mode: 'schema-suffix', requestedSchema: schema, requestedPrefix: 'SV_', schema: devSchema, prefix: 'SV_' },
      ensuredSchemas: expect.arrayContaining([`ANALYTICS.${devSchema}`, `ANALYTICS.PUBLIC_DEV_${tag}`]),
    });
    expect(result.body.views[0]).toMatchObject({ semanticViewName: 'SV_ORDERS_VIEW', action: 'created' });
    expect(result.body.views[0].qualifiedName.toUpperCase()).toBe(`ANALYTICS.${devSchema}.SV_ORDERS_VIEW`);
    // The helper view of the SQL-defined cube goes to the user's helper schema too.
    expect(result.body.views[0].helperViews[0].ddl).toMatch(new RegExp(`^CREATE OR REPLACE VIEW ANALYTICS\\.PUBLIC_DEV_${tag}\\.MODEL_SV_SRC_DV_CUSTOMERS AS`));
    expect(progress.body.devTarget).toMatchObject({ schema: devSchema, userTag: tag });
    // The warehouse has the view where the result says, with the dev branch's definition.
    expect(schemaContents(devSchema).SV_ORDERS_VIEW?.ddl).toContain(`Edited by alice${counter}@example.com`);
    expect(schemaContents(schema)).toEqual({});
  });

  it('production semantic views and helper views stay unchanged byte for byte after a dev push', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: 'SV_', viewNames: ['orders_view'] });
    const before = schemaContents(schema);
    const helperBefore = helperViewQuery('PUBLIC', 'MODEL_SV_SRC_DV_CUSTOMERS');
    expect(Object.keys(before)).toEqual(['SV_ORDERS_VIEW']);
    expect(before.SV_ORDERS_VIEW!.ddl).toContain('Production orders');

    const { user, branch } = await developerInDevMode(id, `bob${counter}@example.com`);
    const dev = await push(id, { schema, prefix: 'SV_', viewNames: ['orders_view'], branchName: branch }, user.auth);
    expect(dev.result.body.schema).not.toBe(schema);

    expect(schemaContents(schema)).toEqual(before);
    expect(helperViewQuery('PUBLIC', 'MODEL_SV_SRC_DV_CUSTOMERS')).toEqual(helperBefore);
  });

  it('two users get two schemas; pushing again replaces only the pusher’s own view', async () => {
    const { id, schema } = await setup();
    const carol = await developerInDevMode(id, `carol${counter}@example.com`);
    const dave = await developerInDevMode(id, `dave${counter}@example.com`);
    const c = await push(id, { schema, prefix: '', viewNames: ['orders_view'], branchName: carol.branch }, carol.user.auth);
    const d = await push(id, { schema, prefix: '', viewNames: ['orders_view'], branchName: dave.branch }, dave.user.auth);
    expect(c.result.body.schema).toBe(`${schema}_DEV_CAROL${counter}`);
    expect(d.result.body.schema).toBe(`${schema}_DEV_DAVE${counter}`);
    const carolsBefore = schemaContents(c.result.body.schema);
    expect(schemaContents(d.result.body.schema).ORDERS_VIEW?.ddl).toContain(`dave${counter}@`);

    const again = await push(id, { schema, prefix: '', viewNames: ['orders_view'], branchName: dave.branch }, dave.user.auth);
    expect(again.result.body.views[0].action).toBe('replaced');
    expect(schemaContents(c.result.body.schema)).toEqual(carolsBefore);
  });

  it('users whose emails share a local part get distinct tags (the later one gets _<id>)', async () => {
    const { id, schema } = await setup();
    const first = await developerInDevMode(id, `erin${counter}@one.example`);
    const second = await developerInDevMode(id, `erin${counter}@two.example`);
    const a = await push(id, { schema, prefix: '', viewNames: ['orders_view'], branchName: first.branch }, first.user.auth);
    const b = await push(id, { schema, prefix: '', viewNames: ['orders_view'], branchName: second.branch }, second.user.auth);
    expect(a.result.body.schema).toBe(`${schema}_DEV_ERIN${counter}`);
    expect(b.result.body.schema).toBe(`${schema}_DEV_ERIN${counter}_${second.user.id}`);
  });

  it('pushes from the deploy branch and shared branches go where asked', async () => {
    const { id, schema } = await setup();
    const shared = await svc.call('POST', `${B(id)}/branches`, { body: { branchName: 'feature' } });
    expect(shared.status, shared.text).toBeLessThan(300);
    const main = await push(id, { schema, prefix: '', viewNames: ['orders_view'] });
    const feature = await push(id, { schema, prefix: 'F_', viewNames: ['orders_view'], branchName: 'feature' });
    expect(main.result.body).toMatchObject({ schema, devTarget: null, ensuredSchemas: [] });
    expect(feature.result.body).toMatchObject({ schema, devTarget: null });
    expect(Object.keys(schemaContents(schema)).sort()).toEqual(['F_ORDERS_VIEW', 'ORDERS_VIEW']);
  });

  it('a role without CREATE SCHEMA on the database cannot create the per-user schema: the job fails with the warehouse privilege error', async () => {
    const { id, schema } = await setup();
    const emulator = getLocalWarehouse(svc.ctx);
    const { user, branch } = await developerInDevMode(id, `frank${counter}@example.com`);
    expect(emulator.revoke('DRYDOCK', 'CREATE SCHEMA', { type: 'DATABASE', database: 'ANALYTICS' })).toBe(true);
    try {
      const start = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema, prefix: '', viewNames: ['orders_view'], branchName: branch }, auth: user.auth });
      expect(start.status).toBe(202);
      const progress = await waitForEnd(`${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}`);
      expect(progress.body.status).toBe('FAILED');
      expect(progress.body.error).toMatchObject({ code: 'WAREHOUSE_INSUFFICIENT_PRIVILEGES', details: { missingPrivilege: { privilege: 'CREATE SCHEMA' } } });
      expect(schemaContents(schema)).toEqual({});
    } finally {
      emulator.grant('DRYDOCK', 'CREATE SCHEMA', { type: 'DATABASE', database: 'ANALYTICS' });
    }
  });
});

describe('the dev target rule is configurable per deployment', () => {
  it('defaults to a schema suffix _DEV_{user}', async () => {
    const { id } = await setup();
    const res = await svc.call('GET', `${B(id)}/dev-mode/target-rule`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mode: 'schema-suffix', template: '_DEV_{user}', isDefault: true, updatedAt: null });
  });

  it('name-prefix mode keeps the schema and prefixes the names (views and helper views) with the user’s prefix', async () => {
    const { id, schema } = await setup();
    const put = await svc.call('PUT', `${B(id)}/dev-mode/target-rule`, { body: { mode: 'name-prefix' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ mode: 'name-prefix', template: 'DEV_{user}_', isDefault: false });
    await push(id, { schema, prefix: 'SV_', viewNames: ['orders_view'] });
    const before = schemaContents(schema);

    const { user, branch } = await developerInDevMode(id, `gina${counter}@example.com`);
    const tag = `GINA${counter}`;
    const { result } = await push(id, { schema, prefix: 'SV_', viewNames: ['orders_view'], branchName: branch }, user.auth);
    expect(result.body).toMatchObject({ schema, ensuredSchemas: [], devTarget: { mode: 'name-prefix', prefix: `DEV_${tag}_SV_`, schema } });
    expect(result.body.views[0].semanticViewName).toBe(`DEV_${tag}_SV_ORDERS_VIEW`);
    expect(result.body.views[0].qualifiedName.toUpperCase()).toBe(`ANALYTICS.${schema}.DEV_${tag}_SV_ORDERS_VIEW`);
    expect(result.body.views[0].helperViews[0].name).toBe(`DEV_${tag}_MODEL_SV_SRC_DV_CUSTOMERS`);
    const after = schemaContents(schema);
    expect(after.SV_ORDERS_VIEW).toEqual(before.SV_ORDERS_VIEW);
    expect(after[`DEV_${tag}_SV_ORDERS_VIEW`]?.ddl).toContain(`gina${counter}@`);
  });

  it('a custom template names the per-user schema', async () => {
    const { id, schema } = await setup();
    const put = await svc.call('PUT', `${B(id)}/dev-mode/target-rule`, { body: { mode: 'schema-suffix', template: '__{user}_SANDBOX' } });
    expect(put.status, put.text).toBe(200);
    const { user, branch } = await developerInDevMode(id, `hal${counter}@example.com`);
    const target = await svc.call('GET', `${B(id)}/dev-mode/target?branchName=${encodeURIComponent(branch)}`, { auth: user.auth });
    expect(target.body).toEqual({ branchName: branch, isDevBranch: true, ownerUserId: user.id, userTag: `HAL${counter}`, rule: { mode: 'schema-suffix', template: '__{user}_SANDBOX' } });
    const { result } = await push(id, { schema, prefix: '', viewNames: ['orders_view'], branchName: branch }, user.auth);
    expect(result.body.schema).toBe(`${schema}__HAL${counter}_SANDBOX`);
  });

  it('GET dev-mode/target says a deploy or shared branch is not a dev branch, and 404s an unknown branch', async () => {
    const { id } = await setup();
    const main = await svc.call('GET', `${B(id)}/dev-mode/target?branchName=main`);
    expect(main.body).toMatchObject({ branchName: 'main', isDevBranch: false, ownerUserId: null, userTag: null });
    const unknown = await svc.call('GET', `${B(id)}/dev-mode/target?branchName=nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('BRANCH_NOT_FOUND');
  });

  it('bad settings are refused with problem+json and a stable code, and the saved rule stays', async () => {
    const { id } = await setup();
    const ok = await svc.call('PUT', `${B(id)}/dev-mode/target-rule`, { body: { mode: 'name-prefix', template: 'SANDBOX_{user}_' } });
    expect(ok.status).toBe(200);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ mode: 'schema-suffix', template: '_DEV' }, 422, 'DEV_TARGET_TEMPLATE_WITHOUT_USER'],
      [{ mode: 'schema-suffix', template: '_{user}_{user}' }, 422, 'DEV_TARGET_TEMPLATE_WITHOUT_USER'],
      [{ mode: 'name-prefix', template: 'dev-{user}.' }, 422, 'DEV_TARGET_TEMPLATE_INVALID'],
      [{ mode: 'name-prefix', template: 'DEV "{user}"' }, 422, 'DEV_TARGET_TEMPLATE_INVALID'],
    ];
    for (const [body, status, code] of cases) {
      const res = await svc.call('PUT', `${B(id)}/dev-mode/target-rule`, { body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe(code);
      expect(res.body.errors[0].pointer).toBe('/body/template');
    }
    for (const body of [{ mode: 'suffix' }, { template: '_{user}' }, { mode: 'name-prefix', extra: 1 }, { mode: 'name-prefix', template: '' }]) {
      const res = await svc.call('PUT', `${B(id)}/dev-mode/target-rule`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(typeof res.body.code).toBe('string');
    }
    const kept = await svc.call('GET', `${B(id)}/dev-mode/target-rule`);
    expect(kept.body).toMatchObject({ mode: 'name-prefix', template: 'SANDBOX_{user}_' });
  });

  it('changing the rule needs deployment edit access; reading it needs read access', async () => {
    const { id } = await setup();
    const viewer = createUser(svc, 'viewer');
    expect((await svc.call('GET', `${B(id)}/dev-mode/target-rule`, { auth: viewer.auth })).status).toBe(200);
    const put = await svc.call('PUT', `${B(id)}/dev-mode/target-rule`, { body: { mode: 'name-prefix' }, auth: viewer.auth });
    expect(put.status).toBe(403);
  });
});
