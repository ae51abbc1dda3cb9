// Loading CSV and Parquet files into the local emulators: inspect (types inferred, shown before
// import), import (all rows or none), and the imported table queried through the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment } from '../support/deployments';
import { startTestService, type TestService } from '../support/service';
import { createUser } from '../support/users';

let svc: TestService;
let deploymentId: number;
const base = () => `/api/v1/deployments/${deploymentId}/data-sources`;
const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

const CSV = 'region,target,starts_on,active\nNorth,1200.50,2025-01-01,true\nSouth,980,2025-02-01,false\nEast,,2025-03-01,true\n';

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.sampleData = { orders: 500 };
  deploymentId = await createDeployment(svc);
});
afterAll(async () => svc?.stop());

async function tables(dataSource = 'default') {
  const res = await svc.call('GET', `${base()}/${dataSource}/tables`);
  expect(res.status).toBe(200);
  return res.body.items as { schema: string; name: string; columns: { name: string; type: string }[]; rowCount: number }[];
}

describe('loading a CSV file into the local warehouse', () => {
  let fileId: string;

  it('inspect infers the columns and their warehouse types and shows rows before anything is imported', async () => {
    const res = await svc.call('POST', `${base()}/default/table-files`, { body: { fileName: 'sales targets.csv', contentBase64: b64(CSV) } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      format: 'csv',
      rowCount: 3,
      suggestedName: 'SALES_TARGETS',
      columns: [
        { name: 'REGION', type: 'VARCHAR' },
        { name: 'TARGET', type: 'FLOAT' },
        { name: 'STARTS_ON', type: 'DATE' },
        { name: 'ACTIVE', type: 'BOOLEAN' },
      ],
    });
    expect(res.body.sampleRows[0]).toEqual(['North', 1200.5, '2025-01-01', true]);
    fileId = res.body.fileId;
    expect((await tables()).some((t) => t.name === 'SALES_TARGETS')).toBe(false);
  });

  it('import creates the table with every row and registers it in the warehouse catalog', async () => {
    const res = await svc.call('POST', `${base()}/default/tables`, { body: { fileId, schema: 'planning', name: 'sales_targets' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ schema: 'PLANNING', name: 'SALES_TARGETS', rowCount: 3 });
    expect((await tables()).find((t) => t.name === 'SALES_TARGETS')).toMatchObject({ schema: 'PLANNING', rowCount: 3 });
    const { getLocalWarehouse } = await import('../../src-main/features/warehouse-sync');
    expect(getLocalWarehouse(svc.ctx).describeTable('ANALYTICS', 'PLANNING', 'SALES_TARGETS')?.map((c) => c.name)).toEqual(['REGION', 'TARGET', 'STARTS_ON', 'ACTIVE']);
    // The file was used up.
    const again = await svc.call('POST', `${base()}/default/tables`, { body: { fileId, schema: 'planning', name: 'other' } });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('TABLE_FILE_NOT_FOUND');
  });

  it('a model over the imported table answers queries with its numbers', async () => {
    const dev = await svc.call('POST', `/build/api/v1/deployments/${deploymentId}/dev-mode`);
    const branch: string = dev.body.branch.branchName;
    const model = [
      'cubes:',
      '  - name: targets',
      '    sql_table: planning.sales_targets',
      '    dimensions:',
      '      - { name: region, sql: region, type: string, primary_key: true }',
      '    measures:',
      '      - { name: total, sql: target, type: sum }',
      '      - { name: count, type: count }',
    ].join('\n');
    const put = await svc.call('PUT', `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=${branch}`, { body: { files: [{ path: 'model/cubes/targets.yml', content: model }] } });
    expect(put.status).toBe(200);
    const q = encodeURIComponent(JSON.stringify({ measures: ['targets.total', 'targets.count'] }));
    const res = await svc.call('GET', `/deployments/${deploymentId}/dev-mode/${branch}/cubejs-api/v1/load?query=${q}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ 'targets.total': '2180.5', 'targets.count': '3' }]);
  });

  it('an existing table needs replace: true; with it the new rows replace the old ones', async () => {
    const inspected = await svc.call('POST', `${base()}/default/table-files`, { body: { fileName: 't.csv', contentBase64: b64('region,target\nWest,5\n') } });
    const refused = await svc.call('POST', `${base()}/default/tables`, { body: { fileId: inspected.body.fileId, schema: 'planning', name: 'sales_targets' } });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('TABLE_EXISTS');
    const replaced = await svc.call('POST', `${base()}/default/tables`, { body: { fileId: inspected.body.fileId, schema: 'planning', name: 'sales_targets', replace: true } });
    expect(replaced.status).toBe(201);
    expect(replaced.body.rowCount).toBe(1);
  });
});

describe('bad files', () => {
  it('a CSV with rows of unequal width is refused with TABLE_FILE_INVALID and leaves nothing behind', async () => {
    const before = await tables();
    const res = await svc.call('POST', `${base()}/default/table-files`, { body: { fileName: 'broken.csv', contentBase64: b64('a,b\n1,2\n3,4,5,6\n"unterminated\n') } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('TABLE_FILE_INVALID');
    expect(res.body.detail).toMatch(/broken\.csv is not a readable CSV file/);
    expect(await tables()).toEqual(before);
  });

  it('a file that is not Parquet is refused; an unknown extension without a format too', async () => {
    const res = await svc.call('POST', `${base()}/default/table-files`, { body: { fileName: 'data.parquet', contentBase64: b64('this is not parquet') } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('TABLE_FILE_INVALID');
    const unknown = await svc.call('POST', `${base()}/default/table-files`, { body: { fileName: 'data.bin', contentBase64: b64('x') } });
    expect(unknown.status).toBe(400);
  });

  it('loading needs deployment edit access', async () => {
    const viewer = createUser(svc, 'viewer');
    const res = await svc.call('POST', `${base()}/default/table-files`, { body: { fileName: 'a.csv', contentBase64: b64('a\n1\n') }, auth: viewer.auth });
    expect(res.status).toBe(403);
  });
});

describe('Parquet into the local lakehouse', () => {
  it('a Parquet file written by DuckDB imports into the lakehouse with Databricks types', async () => {
    const { emulatorData } = await import('../../src-main/features/queries/engines');
    const engine = await emulatorData(svc.ctx, 'lakehouse').engine();
    const path = `${svc.dataDir}/export.parquet`;
    await engine.query(`COPY (SELECT 1::BIGINT AS id, 'a' AS label, 2.5::DOUBLE AS score UNION ALL SELECT 2, 'b', 3.5) TO '${path}' (FORMAT PARQUET)`);
    const { readFileSync } = await import('node:fs');
    const inspected = await svc.call('POST', `${base()}/lake/table-files`, { body: { fileName: 'export.parquet', contentBase64: readFileSync(path).toString('base64') } });
    expect(inspected.status).toBe(201);
    expect(inspected.body.columns).toEqual([
      { name: 'id', type: 'BIGINT' },
      { name: 'label', type: 'STRING' },
      { name: 'score', type: 'DOUBLE' },
    ]);
    const imported = await svc.call('POST', `${base()}/lake/tables`, { body: { fileId: inspected.body.fileId, schema: 'scores', name: 'results' } });
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ schema: 'scores', name: 'results', rowCount: 2 });
    const { LakehouseEmulator, defaultEmulatorFile } = await import('../../src-main/connectors/lakehouse');
    const lake = LakehouseEmulator.open(defaultEmulatorFile(svc.dataDir));
    try {
      expect(lake.getObject('main', 'scores', 'results')?.columns.map((c) => c.type)).toEqual(['BIGINT', 'STRING', 'DOUBLE']);
    } finally {
      lake.close();
    }
  });
});
