// `npm run bench -- query`: a 3-dimension, 2-measure query over 1,000,000 generated orders (with
// about 100,000 customers joined), through the data API over HTTP (compile cache, plan, DuckDB,
// row shaping, JSON), next to the same SQL run directly on a DuckDB connection in the same run.
// Targets: ≤ 300 ms end to end; overhead ≤ 20 % over DuckDB alone.

import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { duckdbDialect, planQuery } from '../../src-shared/model/query';
import { compileModel } from '../../src-shared/model';
import { emulatorData } from '../../src-main/features/queries/engines';
import { readModelFiles } from '../../src-main/features/data-model';
import { createService, silentLogger } from '../../src-main/service';
import { MemorySecretStore } from '../../src-main/platform/secrets';
import { median } from './stats';

const ORDERS = 1_000_000;
const RUNS = 9;
const KEY = 'dd_bench_query_key_abcdefghijklmnopqrstuvwxyz012345';

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-bench-query-'));
  const service = await createService({ dataDir, secrets: new MemorySecretStore(), log: silentLogger, bootstrapApiKey: KEY });
  service.ctx.services.sampleData = { orders: ORDERS };
  try {
    const created = await fetch(`${service.url}/build/api/v1/deployments/`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } }),
    });
    const deploymentId = ((await created.json()) as { id: number }).id;
    // The sample model's customers cube is open to its `support` group (all rows): join it.
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${service.url}${path}`, { method, headers: { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    const me = (await (await call('GET', '/api/v1/users/me')).json()) as { id: number };
    await call('POST', '/api/v1/groups', { name: 'support', userIds: [me.id] });
    const t0 = performance.now();
    const engine = await emulatorData(service.ctx, 'warehouse').engine();
    const generation = performance.now() - t0;
    const counts = (await engine.query('SELECT (SELECT count(*) FROM ecommerce.orders), (SELECT count(*) FROM ecommerce.customers), (SELECT count(*) FROM ecommerce.line_items)')).rows[0]!;

    const query = (limit: number) => ({
      measures: ['orders.count', 'orders.total_amount'],
      dimensions: ['orders.status', 'customers.country'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month' }],
      limit,
    });
    // A different limit per run (always above the ~700 rows): no run reuses another's result.
    const load = async (limit: number) => {
      const url = `${service.url}/deployments/${deploymentId}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(query(limit)))}`;
      const res = await fetch(url, { headers: { authorization: `Api-Key ${KEY}` } });
      const body = (await res.json()) as { data?: unknown[]; error?: string };
      if (!body.data) throw new Error(`load failed: ${JSON.stringify(body)}`);
      return body.data.length;
    };

    const model = compileModel(await readModelFiles(service.ctx, deploymentId)).model;
    const plan = planQuery(model, query(10_000), { dialect: duckdbDialect, security: null });
    const planning: number[] = [];
    for (let i = 0; i < 50; i++) {
      const p0 = performance.now();
      planQuery(model, query(10_000 + i), { dialect: duckdbDialect, security: null });
      planning.push(performance.now() - p0);
    }

    const connection = await engine.connect();
    const direct = async () => {
      const reader = await connection.runAndReadAll(plan.main.sql);
      return reader.getRowsJson().length;
    };
    await load(20_000);
    await direct();
    const viaApi: number[] = [];
    const viaDuck: number[] = [];
    // CPU time of this process (all its threads: DuckDB's, the service's, the client's) per query:
    // on a loaded machine wall times swing with the scheduler, CPU time much less.
    const cpuApi: number[] = [];
    const cpuDuck: number[] = [];
    const cpuMs = (since: NodeJS.CpuUsage) => {
      const d = process.cpuUsage(since);
      return (d.user + d.system) / 1000;
    };
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const d0 = performance.now();
      const dc = process.cpuUsage();
      rows = await direct();
      cpuDuck.push(cpuMs(dc));
      viaDuck.push(performance.now() - d0);
      const a0 = performance.now();
      const ac = process.cpuUsage();
      await load(10_000 + i);
      cpuApi.push(cpuMs(ac));
      viaApi.push(performance.now() - a0);
    }
    connection.closeSync();
    const api = median(viaApi);
    const duck = median(viaDuck);
    console.log(`data:                 ${counts[0]} orders, ${counts[1]} customers, ${counts[2]} line items (generated in ${ms(generation)})`);
    console.log(`query:                3 dimensions (orders.status, customers.country, orders.created_at by month), 2 measures (count, sum); ${rows} rows`);
    console.log(`planning:             ${ms(median(planning))} median`);
    console.log(`DuckDB alone:         ${ms(duck)} median of ${RUNS} (runs: ${viaDuck.map(ms).join(', ')})`);
    console.log(`data API over HTTP:   ${ms(api)} median of ${RUNS} (runs: ${viaApi.map(ms).join(', ')}; target ≤ 300 ms)`);
    console.log(`overhead:             ${(((api - duck) / duck) * 100).toFixed(1)} % (target ≤ 20 %)`);
    const cApi = median(cpuApi);
    const cDuck = median(cpuDuck);
    console.log(`CPU per query:        DuckDB alone ${ms(cDuck)}, data API ${ms(cApi)} (client included): +${ms(cApi - cDuck)}, ${(((cApi - cDuck) / cDuck) * 100).toFixed(1)} %`);
    console.log(`machine load:         ${loadavg().map((l) => l.toFixed(2)).join(', ')} (1, 5, 15 min)`);
  } finally {
    await service.close();
  }
}
