import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileModel } from '../../src-shared/model';
import { commitFiles, getBranchHead, getDeployBranch, readModelFiles } from '../../src-main/features/data-model';
import { ManualClock } from '../../src-main/platform/clock';
import { getJobRunner } from '../../src-main/platform/jobs';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { createUser } from '../support/users';

// Repositories without the sample project: each branch holds what the tests commit.
process.env.DRYDOCK_SAMPLE_PROJECT = mkdtempSync(join(tmpdir(), 'drydock-empty-sample-'));

/** A jaffle-shop-like dbt manifest (the parts dbt 1.8 writes that the sync reads). */
function manifest(options: { withCustomers?: boolean; dbtVersion?: string } = {}) {
  const withCustomers = options.withCustomers ?? true;
  const model = (name: string, columns: Record<string, { data_type?: string; description?: string; meta?: Record<string, unknown> }>, extra: Record<string, unknown> = {}) => ({
    unique_id: `model.jaffle_shop.${name}`,
    resource_type: 'model',
    name,
    package_name: 'jaffle_shop',
    database: 'analytics',
    schema: 'marts',
    alias: name,
    relation_name: `"analytics"."marts"."${name}"`,
    description: `The ${name} model`,
    meta: { owner: 'data-team' },
    config: { enabled: true, materialized: 'table' },
    columns: Object.fromEntries(Object.entries(columns).map(([col, c]) => [col, { name: col, description: '', meta: {}, ...c }])),
    ...extra,
  });
  const test = (kind: string, modelName: string, column: string, kwargs: Record<string, unknown> = {}) => ({
    unique_id: `test.jaffle_shop.${kind}_${modelName}_${column}`,
    resource_type: 'test',
    name: `${kind}_${modelName}_${column}`,
    package_name: 'jaffle_shop',
    attached_node: `model.jaffle_shop.${modelName}`,
    column_name: column,
    test_metadata: { name: kind, namespace: null, kwargs: { column_name: column, model: `{{ get_where_subquery(ref('${modelName}')) }}`, ...kwargs } },
  });
  const nodes: Record<string, unknown> = {
    'model.jaffle_shop.orders': model('orders', {
      order_id: { data_type: 'integer', description: 'Primary key of an order' },
      customer_id: { data_type: 'integer' },
      order_date: { data_type: 'date' },
      status: { description: 'Where the order is', meta: { pii: false } },
      amount: { data_type: 'numeric(18,2)' },
      is_gift: {},
    }),
    'model.jaffle_shop.stg_payments': model('stg_payments', { payment_id: {} }, { config: { enabled: true, materialized: 'ephemeral' } }),
    'model.other_pkg.helper': { ...model('helper', { id: {} }), unique_id: 'model.other_pkg.helper', package_name: 'other_pkg' },
    'test.orders.unique': test('unique', 'orders', 'order_id'),
    'test.orders.not_null': test('not_null', 'orders', 'order_id'),
    'test.orders.status_not_null': test('not_null', 'orders', 'status'),
    'seed.jaffle_shop.raw': { unique_id: 'seed.jaffle_shop.raw', resource_type: 'seed', name: 'raw' },
  };
  if (withCustomers) {
    nodes['model.jaffle_shop.customers'] = model('customers', {
      customer_id: { data_type: 'bigint' },
      first_name: { data_type: 'varchar' },
      first_order: { data_type: 'timestamp without time zone' },
    });
    nodes['test.customers.unique'] = test('unique', 'customers', 'customer_id');
    nodes['test.customers.not_null'] = test('not_null', 'customers', 'customer_id');
    nodes['test.orders.relationships'] = test('relationships', 'orders', 'customer_id', { to: "ref('customers')", field: 'customer_id' });
  }
  return {
    metadata: {
      dbt_schema_version: 'https://schemas.getdbt.com/dbt/manifest/v12.json',
      dbt_version: options.dbtVersion ?? '1.8.7',
      generated_at: '2026-01-02T03:04:05.678901Z',
      project_name: 'jaffle_shop',
      adapter_type: 'postgres',
    },
    nodes,
    sources: {},
    semantic_models: {
      'semantic_model.jaffle_shop.orders': {
        name: 'orders',
        model: "ref('orders')",
        depends_on: { nodes: ['model.jaffle_shop.orders'] },
        entities: [
          { name: 'order', type: 'primary', expr: 'order_id' },
          { name: 'customer', type: 'foreign', expr: 'customer_id' },
        ],
        dimensions: [
          { name: 'order_date', type: 'time', type_params: { time_granularity: 'day' } },
          { name: 'status', type: 'categorical', label: 'Order status' },
        ],
        measures: [
          { name: 'order_total', agg: 'sum', expr: 'amount', description: 'Sum of order amounts' },
          { name: 'order_count', agg: 'count', expr: '1' },
          { name: 'median_amount', agg: 'median', expr: 'amount' },
        ],
      },
    },
    metrics: {
      'metric.jaffle_shop.revenue': { name: 'revenue', label: 'Revenue', type: 'simple', type_params: { measure: { name: 'order_total' } } },
      'metric.jaffle_shop.aov': {
        name: 'average_order_value',
        type: 'ratio',
        type_params: { numerator: { name: 'order_total' }, denominator: { name: 'order_count' } },
      },
      'metric.jaffle_shop.cumulative_revenue': { name: 'cumulative_revenue', type: 'cumulative', type_params: { measure: { name: 'order_total' } } },
    },
  };
}

let svc: TestService;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock(new Date('2026-03-01T12:00:00.000Z'));
  svc = await startTestService({ clock });
});
afterAll(async () => svc.stop());

const base = (d: number) => `/api/v1/deployments/${d}/transform-sync`;

async function finished(d: number, syncJobId: string) {
  await getJobRunner(svc.ctx).wait(syncJobId, { timeoutMs: 20_000 });
  return (await svc.call('GET', `${base(d)}/${syncJobId}`)).body;
}

async function start(d: number, body: Record<string, unknown>, auth?: string) {
  return svc.call('POST', base(d), { body, ...(auth ? { auth } : {}) });
}

type Cube = { name: string; sql_table: string; description?: string; meta?: Record<string, unknown>; joins?: { name: string; sql: string; relationship: string }[]; dimensions?: Record<string, unknown>[]; measures: Record<string, unknown>[] };
const cubeIn = (content: string): Cube => (parse(content) as { cubes: Cube[] }).cubes[0];

describe('transform sync', () => {
  it('starts from a manifest in the body (202 with branchName, syncJobId, workflowId) and commits one cube per model to the branch', async () => {
    const d = await createDeployment(svc);
    const deployBranch = await getDeployBranch(svc.ctx, d);
    const res = await start(d, { source: 'manifest', manifest: manifest() });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ branchName: deployBranch, syncJobId: expect.any(String), workflowId: expect.any(String), statusUrl: `${base(d)}/${res.body.syncJobId}` });
    const status = await finished(d, res.body.syncJobId);
    expect(status).toMatchObject({ status: 'COMPLETED', source: 'manifest', output: 'branch', trigger: 'manual', outputPath: 'model/dbt' });

    const result = (await svc.call('GET', `${base(d)}/${res.body.syncJobId}/result`)).body;
    expect(result.commit).toBe(await getBranchHead(svc.ctx, d, deployBranch));
    expect(result.files.map((f: { path: string; status: string }) => [f.path, f.status])).toEqual([
      ['model/dbt/customers.yml', 'added'],
      ['model/dbt/orders.yml', 'added'],
    ]);
    const files = await readModelFiles(svc.ctx, d, deployBranch);
    expect(files.map((f) => f.path)).toEqual(['model/dbt/customers.yml', 'model/dbt/orders.yml']);
    // What was committed compiles cleanly.
    const compiled = compileModel(files);
    expect(compiled.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
    expect(Object.keys(compiled.model.cubes).sort()).toEqual(['customers', 'orders']);
  });

  it('result stats carry dbtVersion and manifestGeneratedAt for manifest runs', async () => {
    const d = await createDeployment(svc);
    const res = await start(d, { manifest: manifest({ dbtVersion: '1.9.1' }) });
    await finished(d, res.body.syncJobId);
    const result = (await svc.call('GET', `${base(d)}/${res.body.syncJobId}/result`)).body;
    expect(result.source).toBe('manifest');
    expect(result.stats).toMatchObject({
      dbtVersion: '1.9.1',
      manifestGeneratedAt: '2026-01-02T03:04:05.678901Z',
      projectName: 'jaffle_shop',
      models: 3, // orders, customers and the ephemeral stg_payments; the package's model is not the project's
      skippedModels: 1,
      cubes: 2,
      joins: 1,
      primaryKeys: 2,
      semanticModels: 1,
      metrics: 2,
      files: 2,
    });
    expect(result.warnings.some((w: string) => w.includes('stg_payments') && w.includes('ephemeral'))).toBe(true);
    expect(result.warnings.some((w: string) => w.includes('median'))).toBe(true);
    expect(result.warnings.some((w: string) => w.includes('cumulative_revenue'))).toBe(true);
  });

  it('generates sql_table, a dimension per column with its type, a count measure, the primary key from unique + not_null tests and joins from relationships tests', async () => {
    const d = await createDeployment(svc);
    const res = await start(d, { manifest: manifest() });
    await finished(d, res.body.syncJobId);
    const files = await readModelFiles(svc.ctx, d, await getDeployBranch(svc.ctx, d));
    const orders = cubeIn(files.find((f) => f.path === 'model/dbt/orders.yml')!.content);
    const customers = cubeIn(files.find((f) => f.path === 'model/dbt/customers.yml')!.content);
    expect(orders.sql_table).toBe('"analytics"."marts"."orders"');
    expect(orders.description).toBe('The orders model');
    expect(orders.meta).toEqual({ owner: 'data-team', dbt_model: 'model.jaffle_shop.orders' });
    const dims = Object.fromEntries((orders.dimensions ?? []).map((x) => [x.name, x]));
    expect(dims.order_id).toMatchObject({ sql: 'order_id', type: 'number', primary_key: true, description: 'Primary key of an order' });
    // status is only not_null, not unique: not a key.
    expect(dims.status).toMatchObject({ type: 'string', description: 'Where the order is', meta: { pii: false }, title: 'Order status' });
    expect(dims.status.primary_key).toBeUndefined();
    expect(dims.order_date.type).toBe('time');
    expect(dims.amount.type).toBe('number');
    expect(dims.is_gift.type).toBe('boolean');
    expect(orders.joins).toEqual([{ name: 'customers', sql: '{CUBE}.customer_id = {customers}.customer_id', relationship: 'many_to_one' }]);
    expect(orders.measures[0]).toEqual({ name: 'count', type: 'count' });
    const keyOf = (cube: Cube) => (cube.dimensions ?? []).filter((x) => x.primary_key).map((x) => x.name);
    expect(keyOf(customers)).toEqual(['customer_id']);
    expect(Object.fromEntries((customers.dimensions ?? []).map((x) => [x.name, x.type]))).toEqual({ customer_id: 'number', first_name: 'string', first_order: 'time' });
  });

  it('turns semantic-model measures and simple and ratio metrics into measures', async () => {
    const d = await createDeployment(svc);
    const res = await start(d, { manifest: manifest() });
    await finished(d, res.body.syncJobId);
    const files = await readModelFiles(svc.ctx, d, await getDeployBranch(svc.ctx, d));
    const orders = cubeIn(files.find((f) => f.path === 'model/dbt/orders.yml')!.content);
    const measures = Object.fromEntries(orders.measures.map((m) => [m.name, m]));
    expect(measures.order_total).toEqual({ name: 'order_total', type: 'sum', sql: 'amount', description: 'Sum of order amounts' });
    expect(measures.order_count).toMatchObject({ type: 'count', sql: '1' });
    expect(measures.revenue).toMatchObject({ type: 'sum', sql: 'amount', title: 'Revenue' });
    expect(measures.average_order_value).toMatchObject({ type: 'number', sql: '1.0 * {CUBE.order_total} / NULLIF({CUBE.order_count}, 0)' });
    expect(measures.median_amount).toBeUndefined();
    const compiled = compileModel(files);
    expect(Object.keys(compiled.model.cubes.orders.measures)).toEqual(['count', 'order_total', 'order_count', 'revenue', 'average_order_value']);
  });

  it('output files commits nothing; its generated files are listed, cursor paginated, with read access', async () => {
    const d = await createDeployment(svc);
    const branch = await getDeployBranch(svc.ctx, d);
    const headBefore = await getBranchHead(svc.ctx, d, branch);
    const res = await start(d, { manifest: manifest(), output: 'files' });
    await finished(d, res.body.syncJobId);
    expect(await getBranchHead(svc.ctx, d, branch)).toBe(headBefore);
    const result = (await svc.call('GET', `${base(d)}/${res.body.syncJobId}/result`)).body;
    expect(result).toMatchObject({ output: 'files', commit: null, filesExpireAt: new Date(clock.now().getTime() + 3600_000).toISOString() });
    expect(result.files.every((f: { status: string }) => f.status === 'generated')).toBe(true);

    const viewer = createUser(svc, 'viewer');
    const page1 = await svc.call('GET', `${base(d)}/${res.body.syncJobId}/generated-files?first=1`, { auth: viewer.auth });
    expect(page1.status).toBe(200);
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.items[0].path).toBe('model/dbt/customers.yml');
    expect(page1.body.pageInfo.hasNextPage).toBe(true);
    const page2 = await svc.call('GET', `${base(d)}/${res.body.syncJobId}/generated-files?first=1&after=${page1.body.pageInfo.endCursor}`, { auth: viewer.auth });
    expect(page2.body.items.map((f: { path: string }) => f.path)).toEqual(['model/dbt/orders.yml']);
    expect(page2.body.pageInfo.hasNextPage).toBe(false);
    const file = page2.body.items[0];
    expect(cubeIn(file.content).name).toBe('orders');
    expect(file.size).toBe(Buffer.byteLength(file.content));
    expect(file.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('generated files are held one hour after completion; then 404 (stale)', async () => {
    const d = await createDeployment(svc);
    const res = await start(d, { manifest: manifest(), output: 'files' });
    await finished(d, res.body.syncJobId);
    clock.advance(59 * 60_000);
    expect((await svc.call('GET', `${base(d)}/${res.body.syncJobId}/generated-files`)).status).toBe(200);
    clock.advance(60_000);
    const stale = await svc.call('GET', `${base(d)}/${res.body.syncJobId}/generated-files`);
    expect(stale.status).toBe(404);
    expect(stale.body.code).toBe('GENERATED_FILES_NOT_FOUND');
    expect(svc.ctx.db.prepare('SELECT COUNT(*) AS n FROM transform_sync_files WHERE job_id = ?').get(res.body.syncJobId)).toEqual({ n: 0 });
  });

  it('generated-files → 404 for a committed run and for an unknown run', async () => {
    const d = await createDeployment(svc);
    const res = await start(d, { manifest: manifest() });
    await finished(d, res.body.syncJobId);
    const committed = await svc.call('GET', `${base(d)}/${res.body.syncJobId}/generated-files`);
    expect(committed.status).toBe(404);
    expect(committed.body.code).toBe('GENERATED_FILES_NOT_FOUND');
    expect((await svc.call('GET', `${base(d)}/00000000-0000-4000-8000-000000000000/generated-files`)).status).toBe(404);
  });

  it('source git reads target/manifest.json from the repository at ref', async () => {
    const d = await createDeployment(svc);
    const deployBranch = await getDeployBranch(svc.ctx, d);
    await commitFiles(svc.ctx, d, deployBranch, [{ path: 'target/manifest.json', content: JSON.stringify(manifest({ dbtVersion: '1.7.0' })) }], 'dbt parse', { name: 'CI', email: 'ci@example.com' });
    const manifestCommit = await getBranchHead(svc.ctx, d, deployBranch);
    // Read at the commit id: later commits do not change what this run sees.
    const res = await start(d, { source: 'git', ref: manifestCommit });
    expect(res.status).toBe(202);
    const status = await finished(d, res.body.syncJobId);
    expect(status).toMatchObject({ status: 'COMPLETED', source: 'git', ref: manifestCommit, manifestPath: 'target/manifest.json' });
    const result = (await svc.call('GET', `${base(d)}/${res.body.syncJobId}/result`)).body;
    expect(result.stats.dbtVersion).toBe('1.7.0');
    expect(result.files).toHaveLength(2);
  });

  it('source git fails the run when the ref or the manifest is missing', async () => {
    const d = await createDeployment(svc);
    const noManifest = await start(d, { source: 'git' });
    expect((await finished(d, noManifest.body.syncJobId)).error).toMatchObject({ code: 'MANIFEST_NOT_FOUND' });
    const badRef = await start(d, { source: 'git', ref: 'no-such-branch' });
    expect((await finished(d, badRef.body.syncJobId)).error).toMatchObject({ code: 'REF_NOT_FOUND' });
    const result = await svc.call('GET', `${base(d)}/${badRef.body.syncJobId}/result`);
    expect(result.status).toBe(409);
    expect(result.body.code).toBe('TRANSFORM_SYNC_NOT_COMPLETED');
  });

  it('bad start requests → 400: not a dbt manifest, manifest missing for source manifest, manifest sent with source git, output path outside model/', async () => {
    const d = await createDeployment(svc);
    const invalid = await start(d, { source: 'manifest', manifest: { hello: 'world' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('INVALID_MANIFEST');
    expect((await start(d, { source: 'manifest' })).body.errors[0].pointer).toBe('/body/manifest');
    expect((await start(d, { source: 'git', manifest: manifest() })).status).toBe(400);
    expect((await start(d, { manifest: manifest(), outputPath: '../outside' })).status).toBe(400);
    expect((await start(d, { manifest: manifest(), outputPath: 'docs' })).status).toBe(400);
    expect((await start(d, { manifest: manifest(), output: 'zip' })).status).toBe(400);
  });

  it('a branchName that does not exist answers 404 BRANCH_NOT_FOUND up front, as pushes do, and queues nothing', async () => {
    const d = await createDeployment(svc);
    const before = (await svc.call('GET', `${base(d)}?first=100`)).body.items.length;
    const res = await start(d, { manifest: manifest(), branchName: 'no-such-branch' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('BRANCH_NOT_FOUND');
    const gitSource = await start(d, { source: 'git', branchName: 'no-such-branch' });
    expect(gitSource.status).toBe(404);
    expect((await svc.call('GET', `${base(d)}?first=100`)).body.items).toHaveLength(before);
  });

  it('a later sync removes the files of models that are gone and reports unchanged files', async () => {
    const d = await createDeployment(svc);
    const branch = await getDeployBranch(svc.ctx, d);
    await finished(d, (await start(d, { manifest: manifest() })).body.syncJobId);
    const again = await start(d, { manifest: manifest() });
    await finished(d, again.body.syncJobId);
    const unchanged = (await svc.call('GET', `${base(d)}/${again.body.syncJobId}/result`)).body;
    expect(unchanged.commit).toBeNull();
    expect(unchanged.files.map((f: { status: string }) => f.status)).toEqual(['unchanged', 'unchanged']);
    const shrink = await start(d, { manifest: manifest({ withCustomers: false }) });
    await finished(d, shrink.body.syncJobId);
    const result = (await svc.call('GET', `${base(d)}/${shrink.body.syncJobId}/result`)).body;
    expect(result.removedFiles).toEqual(['model/dbt/customers.yml']);
    expect(result.files).toEqual([{ path: 'model/dbt/orders.yml', cube: 'orders', model: 'model.jaffle_shop.orders', status: 'modified' }]);
    expect((await readModelFiles(svc.ctx, d, branch)).map((f) => f.path)).toEqual(['model/dbt/orders.yml']);
  });

  it('a model named like a cube elsewhere on the branch becomes dbt_<name>', async () => {
    const d = await createDeployment(svc);
    const branch = await getDeployBranch(svc.ctx, d);
    await commitFiles(svc.ctx, d, branch, [{ path: 'model/cubes/orders.yml', content: 'cubes:\n  - name: orders\n    sql_table: public.orders\n    dimensions:\n      - { name: id, sql: id, type: number, primary_key: true }\n' }], 'hand-written', { name: 'A', email: 'a@example.com' });
    const res = await start(d, { manifest: manifest() });
    await finished(d, res.body.syncJobId);
    const result = (await svc.call('GET', `${base(d)}/${res.body.syncJobId}/result`)).body;
    expect(result.files.map((f: { cube: string }) => f.cube)).toEqual(['customers', 'dbt_orders']);
    expect(result.warnings.some((w: string) => w.includes('dbt_orders'))).toBe(true);
    expect(compileModel(await readModelFiles(svc.ctx, d, branch)).valid).toBe(true);
  });

  it('history filters by status and trigger; a commit changing the manifest re-runs an earlier git sync of its branch (trigger commit)', async () => {
    const d = await createDeployment(svc);
    const branch = await getDeployBranch(svc.ctx, d);
    const ci = { name: 'CI', email: 'ci@example.com' };
    await commitFiles(svc.ctx, d, branch, [{ path: 'target/manifest.json', content: JSON.stringify(manifest({ withCustomers: false })) }], 'dbt parse', ci);
    const first = await start(d, { source: 'git' });
    await finished(d, first.body.syncJobId);
    // A commit elsewhere does not re-run it…
    await commitFiles(svc.ctx, d, branch, [{ path: 'README.md', content: '# shop\n' }], 'docs', ci);
    // …a new manifest does. (The clock moves so history orders the two runs by time.)
    clock.advance(1000);
    await commitFiles(svc.ctx, d, branch, [{ path: 'target/manifest.json', content: JSON.stringify(manifest()) }], 'dbt parse again', ci);
    let rerun;
    for (let i = 0; i < 750 && !rerun; i++) {
      rerun = (await svc.call('GET', `${base(d)}?trigger=commit`)).body.items[0];
      if (!rerun) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(rerun).toMatchObject({ trigger: 'commit', source: 'git', branchName: branch });
    await finished(d, rerun.syncJobId);
    expect((await readModelFiles(svc.ctx, d, branch)).map((f) => f.path)).toEqual(['model/dbt/customers.yml', 'model/dbt/orders.yml']);
    const all = (await svc.call('GET', base(d))).body.items;
    expect(all.map((j: { syncJobId: string }) => j.syncJobId)).toEqual([rerun.syncJobId, first.body.syncJobId]);
    expect((await svc.call('GET', `${base(d)}?trigger=manual`)).body.items.map((j: { syncJobId: string }) => j.syncJobId)).toEqual([first.body.syncJobId]);
    expect((await svc.call('GET', `${base(d)}?status=FAILED`)).body.items).toEqual([]);
    expect((await svc.call('GET', `${base(d)}?status=COMPLETED&first=1`)).body.pageInfo.hasNextPage).toBe(true);
  });

  it('logs list what the run did', async () => {
    const d = await createDeployment(svc);
    const res = await start(d, { manifest: manifest() });
    await finished(d, res.body.syncJobId);
    const logs = await svc.call('GET', `${base(d)}/${res.body.syncJobId}/logs`);
    expect(logs.status).toBe(200);
    expect(logs.body.items.some((l: { message: string }) => l.message.includes('generated 2 cube files'))).toBe(true);
    expect(logs.body.items.some((l: { level: string; message: string }) => l.level === 'warn' && l.message.includes('stg_payments'))).toBe(true);
  });

  it('idempotencyKey: the same key and inputs return the original run; changed inputs → 409', async () => {
    const d = await createDeployment(svc);
    const key = '2b0a7f86-3c1e-4a57-9d2f-5e8b6c4a1d90';
    const a = await start(d, { manifest: manifest(), idempotencyKey: key });
    const b = await start(d, { manifest: manifest(), idempotencyKey: key });
    expect(b.body.syncJobId).toBe(a.body.syncJobId);
    const changed = await start(d, { manifest: manifest({ dbtVersion: '9.9.9' }), idempotencyKey: key });
    expect(changed.status).toBe(409);
    await finished(d, a.body.syncJobId);
  });

  it('starting needs SchemaUpdate (viewers get 403); unknown runs → 404', async () => {
    const d = await createDeployment(svc);
    const viewer = createUser(svc, 'viewer');
    expect((await start(d, { manifest: manifest() }, viewer.auth)).status).toBe(403);
    expect((await svc.call('GET', base(d), { auth: viewer.auth })).status).toBe(200);
    const unknown = await svc.call('GET', `${base(d)}/00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('TRANSFORM_SYNC_NOT_FOUND');
  });
});

describe('transform sync cancellation', () => {
  let idle: TestService;
  beforeAll(async () => {
    idle = await startTestService();
    // No worker takes jobs here, so a run stays QUEUED until cancelled.
    await getJobRunner(idle.ctx).stop();
  });
  afterAll(async () => idle.stop());

  it('DELETE cancels a run; a cancelled run has no result and no files', async () => {
    const d = await createDeployment(idle);
    const res = await idle.call('POST', base(d), { body: { manifest: manifest(), output: 'files' } });
    expect((await idle.call('GET', `${base(d)}/${res.body.syncJobId}`)).body.status).toBe('QUEUED');
    const cancelled = await idle.call('DELETE', `${base(d)}/${res.body.syncJobId}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    expect((await idle.call('GET', `${base(d)}/${res.body.syncJobId}/result`)).status).toBe(409);
    expect((await idle.call('GET', `${base(d)}/${res.body.syncJobId}/generated-files`)).status).toBe(404);
  });

  it('generated-files of a run not yet completed → 409', async () => {
    const d = await createDeployment(idle);
    const res = await idle.call('POST', base(d), { body: { manifest: manifest(), output: 'files' } });
    const early = await idle.call('GET', `${base(d)}/${res.body.syncJobId}/generated-files`);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('TRANSFORM_SYNC_NOT_COMPLETED');
  });
});
