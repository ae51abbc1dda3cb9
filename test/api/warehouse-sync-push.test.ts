import { describe, expect, it } from 'vitest';
import { commitFiles } from '../../src-main/features/data-model';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { getJobRunner } from '../../src-main/platform/jobs';
import { createDeployment } from '../support/deployments';
import { startTestService } from '../support/service';
import { AUTHOR, D, MODEL, push, setup, svc, useWarehouseSyncService, uuid } from '../support/warehouse-sync';

// Warehouse semantic view push: start, progress and result, and the push rules.
useWarehouseSyncService();

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

  it('surfaces the warehouse’s refusal of a statement the analyzers could not foresee: a column the base table lacks is 000904 invalid identifier', async () => {
    const { id, schema } = await setup();
    const file = `cubes:
  - name: typo_orders
    sql_table: public.orders
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: state, sql: statuss, type: string }
    measures:
      - { name: count, type: count }
views:
  - name: typo_view
    cubes:
      - { join_path: typo_orders, includes: [state, count] }
`;
    await commitFiles(svc.ctx, id, 'main', [{ path: 'model/sync/typo.yml', content: file }], 'a column name with a typo', AUTHOR);
    const { progress } = await push(id, { schema, prefix: 'T_', viewNames: ['typo_view'] });
    expect(progress.body.status).toBe('FAILED');
    expect(progress.body.error).toMatchObject({
      code: 'WAREHOUSE_INVALID_IDENTIFIER',
      status: 422,
      details: { vendorCode: '000904', sqlState: '42000' },
    });
    expect(progress.body.error.message).toMatch(/^SQL compilation error: error line \d+ at position \d+\ninvalid identifier 'STATUSS'$/);
  });

  it('rule 6: access policies left out of the semantic view are a warning of the view, naming who could see what (issue 24)', async () => {
    const { id, schema } = await setup();
    const guarded = 'views:\n  - name: guarded_view\n    cubes:\n      - join_path: sv_orders\n        includes: [status, total]\n    access_policy:\n      - group: support\n        member_level:\n          includes: "*"\n';
    await commitFiles(svc.ctx, id, 'main', [{ path: 'model/sync/guarded.yml', content: guarded }], 'a view with an access policy', AUTHOR);
    const { progress, result } = await push(id, { schema, prefix: 'G_', viewNames: ['guarded_view', 'totals_view'] });
    expect(progress.body.status).toBe('COMPLETED');
    const [view, open] = result.body.views as { viewName: string; warnings: string[]; skipped: { feature: string; items: string[] }[] }[];
    expect(view.viewName).toBe('guarded_view');
    expect(view.skipped).toContainEqual({ feature: 'access_policies', items: ['guarded_view'] });
    expect(view.warnings).toEqual([expect.stringMatching(/^Access policies of guarded_view are not pushed .*every role that may select from G_GUARDED_VIEW sees all of its rows and members/)]);
    // A view without policies has no such warning.
    expect(open.warnings).toEqual([]);
    // The job counts them too, in its progress and in the job list.
    expect(progress.body.warningCount).toBe(1);
    const listed = await svc.call('GET', `${D(id)}/warehouse-semantic-view-syncs`);
    expect(listed.status).toBe(200);
    const row = (listed.body.items ?? listed.body.data ?? listed.body).find((j: { syncJobId: string }) => j.syncJobId === progress.body.syncJobId);
    expect(row.warningCount).toBe(1);
  });

  it('surfaces a missing target schema as the warehouse error', async () => {
    const { id } = await setup();
    const { progress } = await push(id, { schema: 'NO_SUCH_SCHEMA', prefix: '', viewNames: ['totals_view'] });
    expect(progress.body.status).toBe('FAILED');
    expect(progress.body.error).toMatchObject({ code: 'WAREHOUSE_OBJECT_NOT_FOUND', status: 404 });
  });
});
