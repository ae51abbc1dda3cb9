import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src-shared/model';
import { commitFiles, readModelFiles } from '../../src-main/features/data-model';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { getJobRunner } from '../../src-main/platform/jobs';
import { createDeployment } from '../support/deployments';
import { createOrderTables } from '../support/warehouse-tables';
import { startTestService, type TestResponse, type TestService } from '../support/service';
import { bearerFor, createUser } from '../support/users';

// A repository without the sample project: each deployment holds exactly the model below.
process.env.DRYDOCK_SAMPLE_PROJECT = mkdtempSync(join(tmpdir(), 'drydock-empty-sample-'));

const MODEL = `
cubes:
  - name: sv_orders
    sql_table: public.orders
    description: All orders
    joins:
      - name: sv_customers
        relationship: many_to_one
        sql: "{CUBE}.customer_id = {sv_customers.id}"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: "{CUBE}.status", type: string, description: Order status }
      - name: created_at
        sql: created_at
        type: time
        granularities: [{ name: fiscal_year, interval: 1 year, offset: 3 months }]
    measures:
      - { name: count, type: count }
      - { name: total, sql: amount, type: sum }
      - { name: ratio, sql: "{CUBE.total} / {CUBE.count}", type: number }
    segments:
      - { name: big, sql: "{CUBE}.amount > 100" }
  - name: sv_customers
    sql: SELECT * FROM ANALYTICS.PUBLIC.CUSTOMERS
    dimensions:
      - { name: id, sql: "{CUBE}.id", type: number, primary_key: true }
      - { name: name, sql: name, type: string }
  - name: mixed_case
    sql_table: public.orders
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: orderStatus, sql: status, type: string }
      - { name: orderstatus, sql: status, type: string }
views:
  - name: orders_view
    description: Orders with customers
    cubes:
      - join_path: sv_orders
        includes: [status, created_at, count, total, big]
      - join_path: sv_orders.sv_customers
        prefix: true
        includes: [name]
  - name: totals_view
    cubes:
      - join_path: sv_orders
        includes: [status, total]
  - name: ratio_view
    cubes:
      - join_path: sv_orders
        includes: [status, ratio]
  - name: camel_view
    cubes:
      - join_path: mixed_case
        includes: [orderStatus]
  - name: colliding_view
    cubes:
      - join_path: mixed_case
        includes: [orderStatus, orderstatus]
`;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
  createOrderTables(getLocalWarehouse(svc.ctx));
});
afterAll(async () => svc.stop());

const D = (deploymentId: number) => `/api/v1/deployments/${deploymentId}`;
const AUTHOR = { name: 'Test', email: 'test@example.com' };
let schemaCounter = 0;

/** A deployment whose deploy branch holds MODEL, and a fresh emulator schema for its semantic views. */
async function setup(): Promise<{ id: number; schema: string }> {
  const id = await createDeployment(svc);
  await commitFiles(svc.ctx, id, 'main', [{ path: 'model/sync/model.yml', content: MODEL }], 'sync test model', AUTHOR);
  const schema = `SYNC_${++schemaCounter}`;
  const emulator = getLocalWarehouse(svc.ctx);
  emulator.createSchema('ANALYTICS', schema);
  emulator.grantFullAccess('DRYDOCK', { database: 'ANALYTICS', schema });
  return { id, schema };
}

async function waitForEnd(path: string, auth?: string): Promise<TestResponse> {
  for (let i = 0; i < 500; i++) {
    const res = await svc.call('GET', path, auth ? { auth } : {});
    if (res.status !== 200) return res;
    if (['COMPLETED', 'PARTIAL', 'FAILED', 'CANCELLED'].includes(res.body.status)) return res;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`job at ${path} did not end`);
}

async function push(id: number, body: Record<string, unknown>) {
  const start = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body });
  expect(start.status, start.text).toBe(202);
  const progress = await waitForEnd(`${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}`);
  const result = await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}/result`);
  return { start, progress, result };
}

async function pull(id: number, body: Record<string, unknown>) {
  const start = await svc.call('POST', `${D(id)}/warehouse-semantic-view-pulls`, { body });
  expect(start.status, start.text).toBe(202);
  const progress = await waitForEnd(`${D(id)}/warehouse-semantic-view-pulls/${start.body.syncJobId}`);
  const result = await svc.call('GET', `${D(id)}/warehouse-semantic-view-pulls/${start.body.syncJobId}/result`);
  return { start, progress, result };
}

const uuid = () => crypto.randomUUID();

describe('push: start, progress, result', () => {
  it('answers 202 with syncJobId and workflowId, runs to COMPLETED, and the result has viewCount, completedAt, durationMs and the DDL per view', async () => {
    const { id, schema } = await setup();
    const { start, progress, result } = await push(id, { schema, prefix: 'SV_', viewNames: ['orders_view', 'totals_view'] });
    expect(start.body).toEqual({
      syncJobId: expect.any(String),
      workflowId: expect.any(String),
      statusUrl: `${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}`,
    });
    expect(progress.body).toMatchObject({ syncJobId: start.body.syncJobId, direction: 'push', status: 'COMPLETED', progress: { stage: 'completed', percentComplete: 100 } });
    expect(progress.body.error).toBeUndefined();
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ syncJobId: start.body.syncJobId, viewCount: 2, branchName: 'main', database: 'ANALYTICS', schema });
    expect(new Date(result.body.completedAt).getTime()).not.toBeNaN();
    expect(result.body.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.body.views.map((v: { semanticViewName: string }) => v.semanticViewName)).toEqual(['SV_ORDERS_VIEW', 'SV_TOTALS_VIEW']);
    expect(result.body.views[0].ddl).toMatch(/^CREATE OR REPLACE SEMANTIC VIEW ANALYTICS\.SYNC_\d+\.SV_orders_view\n\s+TABLES \(/);
    const listed = getLocalWarehouse(svc.ctx).openSession().execute(`SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS.${schema}`).rows.map((r) => r.name);
    expect(listed).toEqual(expect.arrayContaining(['SV_ORDERS_VIEW', 'SV_TOTALS_VIEW']));
  });

  it('reports whether each semantic view was created or replaced', async () => {
    const { id, schema } = await setup();
    expect((await push(id, { schema, prefix: '', viewNames: ['totals_view'] })).result.body.views[0].action).toBe('created');
    expect((await push(id, { schema, prefix: '', viewNames: ['totals_view'] })).result.body.views[0].action).toBe('replaced');
  });

  it('refuses the result before the job is COMPLETED with 409 SYNC_JOB_NOT_COMPLETED', async () => {
    const paused = await startTestService();
    try {
      await getJobRunner(paused.ctx).stop();
      const id = await createDeployment(paused);
      await commitFiles(paused.ctx, id, 'main', [{ path: 'model/sync/model.yml', content: MODEL }], 'model', AUTHOR);
      const start = await paused.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema: 'PUBLIC', prefix: '', viewNames: ['totals_view'] } });
      expect(start.status).toBe(202);
      const progress = await paused.call('GET', `${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}`);
      expect(progress.body).toMatchObject({ status: 'QUEUED', progress: { stage: 'queued', percentComplete: 0 } });
      const result = await paused.call('GET', `${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}/result`);
      expect(result.status).toBe(409);
      expect(result.body).toMatchObject({ code: 'SYNC_JOB_NOT_COMPLETED', jobStatus: 'QUEUED' });
      // Cancelling a queued push ends it at once; it never gets a result.
      const cancel = await paused.call('DELETE', `${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}`);
      expect(cancel.status).toBe(202);
      expect(cancel.body.status).toBe('CANCELLED');
      expect((await paused.call('GET', `${D(id)}/warehouse-semantic-view-syncs/${start.body.syncJobId}/result`)).body.code).toBe('SYNC_JOB_NOT_COMPLETED');
    } finally {
      await paused.stop();
    }
  });

  it('reads the deploy branch by default and the given branchName otherwise; an unknown branch is 404', async () => {
    const { id, schema } = await setup();
    const branch = await svc.call('POST', `/build/api/v1/deployments/${id}/branches`, { body: { branchName: 'feature' } });
    expect(branch.status, branch.text).toBeLessThan(300);
    await commitFiles(svc.ctx, id, 'feature', [{ path: 'model/sync/extra.yml', content: 'views:\n  - name: feature_view\n    cubes:\n      - join_path: sv_orders\n        includes: [total]\n' }], 'feature view', AUTHOR);
    const onMain = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema, prefix: '', viewNames: ['feature_view'] } });
    expect(onMain.status).toBe(422);
    const { result } = await push(id, { schema, prefix: '', viewNames: ['feature_view'], branchName: 'feature' });
    expect(result.body).toMatchObject({ branchName: 'feature', viewCount: 1 });
    const unknown = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema, prefix: '', viewNames: ['totals_view'], branchName: 'nope' } });
    expect(unknown.status).toBe(404);
  });

  it('returns the original job for the same idempotencyKey and inputs, and 409 IDEMPOTENCY_KEY_REUSED for changed inputs', async () => {
    const { id, schema } = await setup();
    const idempotencyKey = uuid();
    const body = { schema, prefix: 'K_', viewNames: ['totals_view'], idempotencyKey };
    const first = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body });
    const again = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { viewNames: ['totals_view'], idempotencyKey, prefix: 'K_', schema } });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    const changed = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { ...body, prefix: 'OTHER_' } });
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(changed.body.detail).toContain(first.body.syncJobId);
    const notUuid = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { ...body, idempotencyKey: 'not-a-uuid' } });
    expect(notUuid.status).toBe(400);
  });

  it('validates the request body', async () => {
    const { id, schema } = await setup();
    for (const body of [{ prefix: '', viewNames: ['totals_view'] }, { schema, viewNames: ['totals_view'] }, { schema, prefix: '', viewNames: [] }, { schema, prefix: '', viewNames: ['x'], extra: 1 }]) {
      const res = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('push rules', () => {
  it('rule 1: without DDL operations enabled the push fails with the permissions error SQL_RUNNER_DDL_DISABLED', async () => {
    const { id, schema } = await setup();
    const off = await svc.call('PUT', D(id), { body: { sqlRunnerDdlEnabled: false } });
    expect(off.status, off.text).toBe(200);
    const { progress, result } = await push(id, { schema, prefix: '', viewNames: ['totals_view'] });
    expect(progress.body.status).toBe('FAILED');
    expect(progress.body.error).toMatchObject({ code: 'SQL_RUNNER_DDL_DISABLED', status: 403 });
    expect(progress.body.error.message).toMatch(/DDL operations are disabled/);
    expect(result.status).toBe(409);
    expect(getLocalWarehouse(svc.ctx).openSession().execute(`SHOW SEMANTIC VIEWS IN SCHEMA ANALYTICS.${schema}`).rows).toEqual([]);
  });

  it('rule 2: a missing warehouse privilege fails the job with the warehouse error and the privilege it lacks', async () => {
    const { id, schema } = await setup();
    getLocalWarehouse(svc.ctx).revoke('DRYDOCK', 'CREATE SEMANTIC VIEW', { type: 'SCHEMA', database: 'ANALYTICS', schema });
    const { progress } = await push(id, { schema, prefix: '', viewNames: ['totals_view'] });
    expect(progress.body.status).toBe('FAILED');
    expect(progress.body.error).toMatchObject({
      code: 'WAREHOUSE_INSUFFICIENT_PRIVILEGES',
      status: 403,
      details: { view: 'totals_view', missingPrivilege: { privilege: 'CREATE SEMANTIC VIEW', objectType: 'SCHEMA' } },
    });
  });

  it('rule 2: an entity defined by SQL also needs create-view privilege on the helper-view schema', async () => {
    const { id, schema } = await setup();
    const helper = `HELPERS_${schema}`;
    const emulator = getLocalWarehouse(svc.ctx);
    emulator.createSchema('ANALYTICS', helper);
    emulator.grant('DRYDOCK', 'USAGE', { type: 'SCHEMA', database: 'ANALYTICS', schema: helper });
    const { progress } = await push(id, { schema, prefix: '', viewNames: ['orders_view'], helperViewSchema: helper });
    expect(progress.body.status).toBe('FAILED');
    expect(progress.body.error).toMatchObject({ code: 'WAREHOUSE_INSUFFICIENT_PRIVILEGES', details: { missingPrivilege: { privilege: 'CREATE VIEW' } } });
    expect(progress.body.error.details.statement).toMatch(/^CREATE OR REPLACE VIEW/);
  });

  it('rule 3: an entity defined by plain SQL is read through the helper view MODEL_SV_SRC_<ENTITYNAME>, in PUBLIC by default', async () => {
    const { id, schema } = await setup();
    const { result } = await push(id, { schema, prefix: '', viewNames: ['orders_view'] });
    const view = result.body.views[0];
    expect(view.helperViews).toEqual([{ entity: 'sv_customers', name: 'MODEL_SV_SRC_SV_CUSTOMERS', ddl: expect.stringMatching(/^CREATE OR REPLACE VIEW ANALYTICS\.PUBLIC\.MODEL_SV_SRC_SV_CUSTOMERS AS/) }]);
    expect(view.ddl).toContain('sv_customers AS ANALYTICS.PUBLIC.MODEL_SV_SRC_SV_CUSTOMERS PRIMARY KEY (id)');
    // An entity that references a table uses the table itself.
    expect(view.ddl).toContain('sv_orders AS ANALYTICS.public.orders PRIMARY KEY (id)');
  });

  it('rule 3: the helper-view schema is configurable', async () => {
    const { id, schema } = await setup();
    const helper = `HELPERS_${schema}`;
    const emulator = getLocalWarehouse(svc.ctx);
    emulator.createSchema('ANALYTICS', helper);
    emulator.grantFullAccess('DRYDOCK', { database: 'ANALYTICS', schema: helper });
    const { result } = await push(id, { schema, prefix: '', viewNames: ['orders_view'], helperViewSchema: helper });
    expect(result.body.views[0].helperViews[0].ddl).toContain(`VIEW ANALYTICS.${helper}.MODEL_SV_SRC_SV_CUSTOMERS AS`);
  });

  it('rule 4: the quoted-identifiers-ignore-case setting of the data source decides the stored names', async () => {
    const { id, schema } = await setup();
    const off = await push(id, { schema, prefix: '', viewNames: ['camel_view'] });
    const rows = getLocalWarehouse(svc.ctx).openSession().execute(`DESCRIBE SEMANTIC VIEW ANALYTICS.${schema}.CAMEL_VIEW`).rows;
    expect(rows.some((r) => r.object_name === 'orderStatus')).toBe(true);
    expect(off.result.body.views[0].warnings).toEqual([]);

    const on = await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_SNOWFLAKE_QUOTED_IDENTIFIERS_IGNORE_CASE', value: 'true' }] });
    expect(on.status, on.text).toBe(200);
    try {
      const folded = await push(id, { schema, prefix: '', viewNames: ['camel_view'] });
      expect(folded.result.body.views[0].warnings.join(' ')).toMatch(/'orderStatus' is stored as ORDERSTATUS/);
      const after = getLocalWarehouse(svc.ctx).openSession().execute(`DESCRIBE SEMANTIC VIEW ANALYTICS.${schema}.CAMEL_VIEW`).rows;
      expect(after.some((r) => r.object_name === 'ORDERSTATUS')).toBe(true);
      // Names the setting folds onto each other cannot be pushed.
      const colliding = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema, prefix: '', viewNames: ['colliding_view'] } });
      expect(colliding.status).toBe(422);
      expect(colliding.body.code).toBe('MODEL_NOT_PUSHABLE');
      expect(colliding.body.reasons[0].code).toBe('IDENTIFIER_CASE_COLLISION');
    } finally {
      await svc.call('PUT', `${D(id)}/env-vars`, { body: [{ name: 'CUBEJS_DB_SNOWFLAKE_QUOTED_IDENTIFIERS_IGNORE_CASE', value: null }] });
    }
  });

  it('rule 5: a view that is not pushable is refused with 422 MODEL_NOT_PUSHABLE and the analyzer reasons', async () => {
    const { id, schema } = await setup();
    const res = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema, prefix: '', viewNames: ['totals_view', 'ratio_view'] } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('MODEL_NOT_PUSHABLE');
    expect(res.body.errors).toEqual([{ pointer: '/body/viewNames/1', detail: expect.stringMatching(/measure 'sv_orders.ratio'.*type 'number'/) }]);
    expect(res.body.reasons[0]).toMatchObject({ view: 'ratio_view', code: 'MODEL_PUSH_MEASURE_UNSUPPORTED' });
  });

  it('rule 5: Jinja in one cube flags only that cube: the other cubes of the same file still push', async () => {
    const { id, schema } = await setup();
    const file = `cubes:
  - name: jinja_plain
    sql_table: public.orders
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
    measures:
      - { name: count, type: count }
  - name: jinja_templated
    sql: "SELECT * FROM public.orders WHERE status = '{{ var('status') }}'"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
    measures:
      - { name: count, type: count }
{% for n in [1, 2] %}
  - name: jinja_loop_{{ n }}
    sql_table: public.orders
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
{% endfor %}
  - name: jinja_after_loop
    sql_table: public.orders
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
    measures:
      - { name: count, type: count }
views:
  - name: plain_of_jinja_file
    cubes:
      - { join_path: jinja_plain, includes: [status, count] }
  - name: after_loop_view
    cubes:
      - { join_path: jinja_after_loop, includes: [count] }
  - name: templated_view
    cubes:
      - { join_path: jinja_templated, includes: [count] }
`;
    await commitFiles(svc.ctx, id, 'main', [{ path: 'model/sync/jinja.yml.jinja', content: file }], 'a file with some Jinja', AUTHOR);
    const { progress, result } = await push(id, { schema, prefix: 'J_', viewNames: ['plain_of_jinja_file', 'after_loop_view'] });
    expect(progress.body.status, JSON.stringify(progress.body.error)).toBe('COMPLETED');
    expect(result.body.views.map((v: { viewName: string }) => v.viewName)).toEqual(['plain_of_jinja_file', 'after_loop_view']);
    const refused = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema, prefix: 'J_', viewNames: ['templated_view'] } });
    expect(refused.status).toBe(422);
    expect(refused.body.reasons).toEqual([expect.objectContaining({ view: 'templated_view', code: 'MODEL_PUSH_TEMPLATED_SQL' })]);
    expect(JSON.stringify(refused.body.reasons)).not.toContain('jinja_plain');
  });

  it('refuses a view the model does not have with 422 MODEL_VIEW_NOT_FOUND', async () => {
    const { id, schema } = await setup();
    const res = await svc.call('POST', `${D(id)}/warehouse-semantic-view-syncs`, { body: { schema, prefix: '', viewNames: ['nope'] } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'MODEL_VIEW_NOT_FOUND', errors: [{ pointer: '/body/viewNames/0' }] });
  });

  it('rule 6: segments, granularities and other skipped features are reported in the result', async () => {
    const { id, schema } = await setup();
    const { result } = await push(id, { schema, prefix: '', viewNames: ['orders_view'] });
    expect(result.body.skipped).toEqual(expect.arrayContaining(['segments', 'granularities']));
    expect(result.body.views[0].skipped).toEqual(
      expect.arrayContaining([
        { feature: 'segments', items: ['big'] },
        { feature: 'granularities', items: ['created_at'] },
      ]),
    );
    expect(result.body.views[0].ddl).not.toContain('big');
  });

  it('surfaces a missing target schema as the warehouse error', async () => {
    const { id } = await setup();
    const { progress } = await push(id, { schema: 'NO_SUCH_SCHEMA', prefix: '', viewNames: ['totals_view'] });
    expect(progress.body.status).toBe('FAILED');
    expect(progress.body.error).toMatchObject({ code: 'WAREHOUSE_OBJECT_NOT_FOUND', status: 404 });
  });
});

describe('pull', () => {
  it('answers 202, commits one file per semantic view under outputPath to the branch, and lists the generated files in the result', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: 'SV_', viewNames: ['orders_view', 'totals_view'] });
    const { start, progress, result } = await pull(id, { schema, outputPath: 'model/pulled' });
    expect(start.body).toMatchObject({ syncJobId: expect.any(String), workflowId: expect.any(String) });
    expect(progress.body).toMatchObject({ direction: 'pull', status: 'COMPLETED', progress: { percentComplete: 100 } });
    expect(result.body).toMatchObject({ viewCount: 2, branchName: 'main', commit: expect.any(String), schema });
    expect(result.body.generatedFiles.map((f: { path: string }) => f.path)).toEqual(['model/pulled/sv_orders_view.yml', 'model/pulled/sv_totals_view.yml']);
    expect(result.body.generatedFiles[0]).toMatchObject({ semanticViewName: 'SV_ORDERS_VIEW', viewName: 'sv_orders_view', status: 'added' });
    const files = await readModelFiles(svc.ctx, id, 'main');
    const pulled = files.filter((f) => f.path.startsWith('model/pulled/'));
    expect(pulled.map((f) => f.path)).toEqual(['model/pulled/sv_orders_view.yml', 'model/pulled/sv_totals_view.yml']);
    // The branch still compiles: pulled cubes stay clear of the names the model already uses.
    expect(compileModel(files).diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('pulling what was pushed and pushing it again gives the warehouse the same semantic view (round trip)', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: 'RT_', viewNames: ['orders_view'] });
    const session = getLocalWarehouse(svc.ctx).openSession();
    const describe = () => session.execute(`DESCRIBE SEMANTIC VIEW ANALYTICS.${schema}.RT_ORDERS_VIEW`).rows.map((r) => JSON.stringify(r)).sort();
    const before = describe();
    // Pulled into a deployment of its own: in the original repository the pulled cubes would be renamed clear of the originals.
    const fresh = await createDeployment(svc);
    const { result } = await pull(fresh, { schema, viewNames: ['RT_ORDERS_VIEW'], outputPath: 'model/round_trip' });
    const pulledView = result.body.generatedFiles[0].viewName;
    const again = await push(fresh, { schema, prefix: '', viewNames: [pulledView] });
    expect(again.progress.body.status).toBe('COMPLETED');
    const repushed = session.execute(`DESCRIBE SEMANTIC VIEW ANALYTICS.${schema}.${pulledView.toUpperCase()}`).rows.map((r) => JSON.stringify(r)).sort();
    expect(repushed).toEqual(before);
  });

  it('selects views with * patterns (case-insensitively), and all views when viewNames is omitted', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: 'A_', viewNames: ['totals_view'] });
    await push(id, { schema, prefix: 'B_', viewNames: ['totals_view'] });
    const some = await pull(id, { schema, viewNames: ['a_*'], outputPath: 'model/some' });
    expect(some.result.body.generatedFiles.map((f: { semanticViewName: string }) => f.semanticViewName)).toEqual(['A_TOTALS_VIEW']);
    const all = await pull(id, { schema, outputPath: 'model/all' });
    expect(all.result.body.generatedFiles.map((f: { semanticViewName: string }) => f.semanticViewName)).toEqual(['A_TOTALS_VIEW', 'B_TOTALS_VIEW']);
  });

  it('fails with SEMANTIC_VIEW_NOT_FOUND when a named view does not exist', async () => {
    const { id, schema } = await setup();
    const { progress } = await pull(id, { schema, viewNames: ['MISSING_VIEW'], outputPath: 'model/x' });
    expect(progress.body.status).toBe('FAILED');
    expect(progress.body.error).toMatchObject({ code: 'SEMANTIC_VIEW_NOT_FOUND', details: { missing: ['MISSING_VIEW'] } });
  });

  it('commits to the given branchName and leaves the deploy branch alone', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: '', viewNames: ['totals_view'] });
    expect((await svc.call('POST', `/build/api/v1/deployments/${id}/branches`, { body: { branchName: 'pulls' } })).status).toBeLessThan(300);
    const { result } = await pull(id, { schema, outputPath: 'model/pulled', branchName: 'pulls' });
    expect(result.body.branchName).toBe('pulls');
    // The branch already defines a view `totals_view`, so the pulled one is named clear of it.
    expect(result.body.generatedFiles[0]).toMatchObject({ path: 'model/pulled/totals_view_2.yml', viewName: 'totals_view_2' });
    expect((await readModelFiles(svc.ctx, id, 'pulls')).some((f) => f.path === 'model/pulled/totals_view_2.yml')).toBe(true);
    expect((await readModelFiles(svc.ctx, id, 'main')).some((f) => f.path.startsWith('model/pulled/'))).toBe(false);
  });

  it('commits nothing when the generated files are unchanged', async () => {
    const { id, schema } = await setup();
    await push(id, { schema, prefix: '', viewNames: ['totals_view'] });
    await pull(id, { schema, outputPath: 'model/pulled' });
    const { result } = await pull(id, { schema, outputPath: 'model/pulled' });
    expect(result.body.commit).toBeNull();
    expect(result.body.generatedFiles[0].status).toBe('unchanged');
  });

  it('refuses an absolute outputPath, one with `..`, and one outside the model folders with 400', async () => {
    const { id, schema } = await setup();
    for (const outputPath of ['/etc/model', 'model/../../escape', 'pulled']) {
      const res = await svc.call('POST', `${D(id)}/warehouse-semantic-view-pulls`, { body: { schema, outputPath } });
      expect(res.status, outputPath).toBe(400);
      expect(res.body.errors[0].pointer).toBe('/body/outputPath');
    }
  });

  it('refuses a data source that is not a warehouse with 422', async () => {
    const { id, schema } = await setup();
    const res = await svc.call('POST', `${D(id)}/warehouse-semantic-view-pulls`, { body: { schema, outputPath: 'model/x', dataSourceName: 'lake' } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('DATA_SOURCE_NOT_WAREHOUSE');
  });
});

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
