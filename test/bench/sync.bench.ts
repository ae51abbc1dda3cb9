// `npm run bench -- sync`: push 128 model views to the local warehouse emulator through the API.
// Each view joins a fact cube to a dimension cube defined by plain SQL (so a helper view is created
// too) and exposes 6 dimensions and 5 metrics. Prints the 202 → COMPLETED time of the push (median
// of 3 runs) and the per-view DDL generation time. Target: 202 → COMPLETED ≤ 2 s.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileModel } from '../../src-shared/model';
import { generateSemanticViewDdl } from '../../src-shared/model/generate/semantic-view-ddl';
import { commitFiles } from '../../src-main/features/data-model';
import { getLocalWarehouse } from '../../src-main/features/warehouse-sync';
import { createService, silentLogger } from '../../src-main/service';
import { MemorySecretStore } from '../../src-main/platform/secrets';
import { median } from './stats';

export const VIEWS = 128;
const RUNS = 3;
const KEY = 'dd_bench_sync_key_abcdefghijklmnopqrstuvwxyz012345';

export function benchModel(views = VIEWS): string {
  const lines = ['cubes:'];
  for (let i = 0; i < views; i++) {
    lines.push(
      `  - name: fact_${i}`,
      '    sql_table: public.facts',
      '    joins:',
      `      - name: dim_${i}`,
      '        relationship: many_to_one',
      `        sql: "{CUBE}.dim_id = {dim_${i}.id}"`,
      '    dimensions:',
      '      - { name: id, sql: id, type: number, primary_key: true }',
      '      - { name: status, sql: "{CUBE}.status", type: string, description: Status }',
      '      - { name: channel, sql: channel, type: string }',
      '      - { name: created_at, sql: created_at, type: time }',
      '      - { name: region, sql: "UPPER({CUBE}.region)", type: string }',
      '    measures:',
      '      - { name: count, type: count }',
      '      - { name: revenue, sql: amount, type: sum }',
      '      - { name: average, sql: amount, type: avg }',
      '      - { name: buyers, sql: customer_id, type: count_distinct }',
      `  - name: dim_${i}`,
      '    sql: SELECT * FROM ANALYTICS.PUBLIC.DIMS',
      '    dimensions:',
      '      - { name: id, sql: id, type: number, primary_key: true }',
      '      - { name: name, sql: name, type: string }',
      '    measures:',
      '      - { name: largest, sql: size, type: max }',
    );
  }
  lines.push('views:');
  for (let i = 0; i < views; i++) {
    lines.push(
      `  - name: view_${i}`,
      `    description: Benchmark view ${i}`,
      '    cubes:',
      `      - join_path: fact_${i}`,
      '        includes: [status, channel, created_at, region, count, revenue, average, buyers]',
      `      - join_path: fact_${i}.dim_${i}`,
      '        prefix: true',
      '        includes: [name, largest]',
    );
  }
  return `${lines.join('\n')}\n`;
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;

export async function run(): Promise<void> {
  process.env.DRYDOCK_SAMPLE_PROJECT = mkdtempSync(join(tmpdir(), 'drydock-bench-empty-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-bench-sync-'));
  const service = await createService({ dataDir, secrets: new MemorySecretStore(), log: silentLogger, bootstrapApiKey: KEY });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: `Api-Key ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  try {
    const emulator = getLocalWarehouse(service.ctx);
    emulator.createTable('ANALYTICS', 'PUBLIC', 'FACTS', [
      { name: 'ID', type: 'NUMBER' },
      { name: 'DIM_ID', type: 'NUMBER' },
      { name: 'STATUS', type: 'VARCHAR' },
      { name: 'CHANNEL', type: 'VARCHAR' },
      { name: 'CREATED_AT', type: 'TIMESTAMP_NTZ' },
      { name: 'REGION', type: 'VARCHAR' },
      { name: 'AMOUNT', type: 'NUMBER(12,2)' },
      { name: 'CUSTOMER_ID', type: 'NUMBER' },
    ]);
    emulator.createTable('ANALYTICS', 'PUBLIC', 'DIMS', [
      { name: 'ID', type: 'NUMBER' },
      { name: 'NAME', type: 'VARCHAR' },
      { name: 'SIZE', type: 'NUMBER' },
    ]);
    const model = benchModel();
    const created = await call('POST', '/build/api/v1/deployments/', { name: 'bench', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });
    const deploymentId = created.body.id as number;
    await commitFiles(service.ctx, deploymentId, 'main', [{ path: 'model/bench.yml', content: model }], 'bench model', { name: 'Bench', email: 'bench@localhost' });

    // Per-view DDL generation, on the compiled model.
    const compiled = compileModel([{ path: 'model/bench.yml', content: model }]).model;
    const generation: number[] = [];
    for (let i = 0; i < VIEWS; i++) {
      const t0 = performance.now();
      generateSemanticViewDdl(compiled, `view_${i}`, { name: `SV_VIEW_${i}`, database: 'ANALYTICS', schema: 'PUBLIC' });
      generation.push(performance.now() - t0);
    }

    const viewNames = Array.from({ length: VIEWS }, (_, i) => `view_${i}`);
    const endToEnd: number[] = [];
    const accepted: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const schema = `BENCH_${r}`;
      emulator.createSchema('ANALYTICS', schema);
      emulator.grantFullAccess('DRYDOCK', { database: 'ANALYTICS', schema });
      const t0 = performance.now();
      const start = await call('POST', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs`, { schema, prefix: 'SV_', viewNames });
      const t202 = performance.now();
      if (start.status !== 202) throw new Error(`push refused: ${JSON.stringify(start.body)}`);
      for (;;) {
        const progress = await call('GET', `/api/v1/deployments/${deploymentId}/warehouse-semantic-view-syncs/${start.body.syncJobId}`);
        if (progress.body.status === 'COMPLETED') break;
        if (progress.body.status === 'FAILED' || progress.body.status === 'CANCELLED') throw new Error(`push ended ${JSON.stringify(progress.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      endToEnd.push(performance.now() - t202);
      accepted.push(t202 - t0);
    }

    const sortedGeneration = [...generation].sort((a, b) => a - b);
    console.log(`views per push:                 ${VIEWS} (each 2 tables, 1 helper view, 6 dimensions, 5 metrics)`);
    console.log(`POST → 202 (validate + enqueue): ${ms(median(accepted))} median of ${RUNS}`);
    console.log(`202 → COMPLETED:                 ${ms(median(endToEnd))} median of ${RUNS} (runs: ${endToEnd.map(ms).join(', ')}; target ≤ 2000 ms)`);
    console.log(
      `DDL generation per view:         ${ms(median(generation))} median, ${ms(sortedGeneration[Math.floor(VIEWS * 0.95)]!)} p95, ${ms(generation.reduce((a, b) => a + b, 0))} for all ${VIEWS}`,
    );
  } finally {
    await service.close();
  }
}
