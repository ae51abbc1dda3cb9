// `npm run bench -- review` (issue 26, item 3): a change review of a branch that changes 5 members
// used by 50 dashboard widget queries and 10 views, over the 1,000,000 generated orders of
// `npm run bench -- query` — both commits compiled, diffed, the impact found, every affected query
// run on both sides and compared — through the HTTP API of an in-process service, start to result.
// Target: ≤ 5 s on the 2-core machine. Knobs: BENCH_RUNS (default 3), BENCH_CONCURRENCY (queries at
// once), BENCH_NO_DATA_DIFF=1 (semantic diff and impact only), BENCH_DETAIL=1 (the slowest queries).
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitFiles } from '../../src-main/features/data-model';
import { emulatorData } from '../../src-main/features/queries/engines';
import { createService, silentLogger } from '../../src-main/service';
import { MemorySecretStore } from '../../src-main/platform/secrets';
import { median } from './stats';

const ORDERS = 1_000_000;
const RUNS = Number(process.env.BENCH_RUNS) || 3;
const KEY = 'dd_bench_review_key_abcdefghijklmnopqrstuvwxyz012';
const AUTHOR = { name: 'Bench', email: 'bench@example.com' };
const SAMPLE = new URL('../../resources/sample-project/model/', import.meta.url).pathname;

const ms = (n: number) => `${n.toFixed(0)} ms`;

/** Views like orders_overview under other names: with it, order_funnel and product_sales, the 10 views the change reaches. */
const overviewCopies = (overview: string) =>
  Array.from({ length: 7 }, (_, i) => ({ path: `model/views/orders_overview_${i + 2}.yml`, content: overview.replace('name: orders_overview', `name: orders_overview_${i + 2}`) }));

/** The 5 members the branch changes: three measures and two dimensions of orders. */
function changedOrders(orders: string): string {
  return orders
    .replace('      - name: total_amount\n        sql: amount\n', "      - name: total_amount\n        sql: \"CASE WHEN {CUBE}.status = 'returned' THEN 0 ELSE {CUBE}.amount END\"\n")
    .replace('      - name: average_order_value\n        sql: amount\n', '      - name: average_order_value\n        sql: "ROUND({CUBE}.amount, 0)"\n')
    .replace('      - name: buying_customers\n        sql: customer_id\n', "      - name: buying_customers\n        sql: \"CASE WHEN {CUBE}.status <> 'placed' THEN {CUBE}.customer_id END\"\n")
    .replace('      - name: status\n        sql: status\n', "      - name: status\n        sql: \"CASE WHEN {CUBE}.status = 'shipped' THEN 'completed' ELSE {CUBE}.status END\"\n")
    .replace('      - name: amount\n        sql: amount\n', '      - name: amount\n        sql: "ROUND({CUBE}.amount, 0)"\n');
}

/** 50 distinct widget queries over the changed members, through the views and on the cubes. */
function widgetQueries(): unknown[] {
  const views = ['orders_overview', ...Array.from({ length: 7 }, (_, i) => `orders_overview_${i + 2}`)];
  const measures = [['total_amount'], ['average_order_value'], ['buying_customers'], ['count', 'total_amount'], ['total_amount', 'average_order_value']];
  const breakdowns: ((v: string) => Record<string, unknown>)[] = [
    (v) => ({ dimensions: [`${v}.status`] }),
    (v) => ({ dimensions: [`${v}.customers_country`] }),
    (v) => ({ timeDimensions: [{ dimension: `${v}.created_at`, granularity: 'month' }] }),
    (v) => ({ dimensions: [`${v}.status`, `${v}.customers_country`] }),
    () => ({}),
  ];
  const out: unknown[] = [];
  for (const v of views) {
    for (let i = 0; i < 5 && out.length < 40; i++) out.push({ measures: measures[(i + views.indexOf(v)) % measures.length]!.map((m) => `${v}.${m}`), ...breakdowns[i]!(v) });
  }
  for (const [m, d] of [
    ['orders.total_amount', 'orders.status'],
    ['orders.average_order_value', 'orders.status'],
    ['orders.buying_customers', 'orders.status'],
    ['orders.count', 'orders.status'],
    ['orders.total_amount', 'customers.country'],
    ['orders.buying_customers', 'customers.country'],
    ['orders.average_order_value', 'customers.city'],
    ['orders.total_amount', 'orders.amount'],
    ['order_funnel.count', 'order_funnel.status'],
    ['product_sales.revenue', 'product_sales.order_status'],
  ] as const) {
    out.push({ measures: [m], dimensions: [d], limit: 1000 });
  }
  return out;
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-bench-review-'));
  const service = await createService({ dataDir, secrets: new MemorySecretStore(), log: silentLogger, bootstrapApiKey: KEY });
  service.ctx.services.sampleData = { orders: ORDERS };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.url}${path}`, { method, headers: { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  try {
    const created = await call('POST', '/build/api/v1/deployments/', { name: 'bench', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });
    const id = created.body.id as number;
    // The sample model's customers cube is open to its `support` group: the reviewer is in it.
    const me = (await call('GET', '/api/v1/users/me')).body as { id: number };
    await call('POST', '/api/v1/groups', { name: 'support', userIds: [me.id] });
    const t0 = performance.now();
    await emulatorData(service.ctx, 'warehouse').engine();
    const generation = performance.now() - t0;

    const overview = readFileSync(join(SAMPLE, 'views/orders_overview.yml'), 'utf8');
    await commitFiles(service.ctx, id, 'main', overviewCopies(overview), 'Seven more overviews', AUTHOR);
    const queries = widgetQueries();
    for (let w = 0; w < 5; w++) {
      const widgets = queries.slice(w * 10, w * 10 + 10).map((query, i) => ({ id: `w${i}`, type: 'CHART', position: { x: 0, y: i * 4, w: 6, h: 4 }, config: { title: `Widget ${w}.${i}`, query } }));
      const wb = await call('POST', `/api/v1/deployments/${id}/workbooks`, { name: `Dashboard ${w}`, dashboardDraft: { widgets } });
      await call('POST', `/api/v1/deployments/${id}/workbooks/${wb.body.id as number}/publish`);
    }
    await call('POST', `/build/api/v1/deployments/${id}/branches`, { branchName: 'five-changes' });
    await commitFiles(service.ctx, id, 'five-changes', [{ path: 'model/cubes/orders.yml', content: changedOrders(readFileSync(join(SAMPLE, 'cubes/orders.yml'), 'utf8')) }], 'Five member changes', AUTHOR);

    const review = async () => {
      const started = performance.now();
      const cpu0 = process.cpuUsage();
      const options = {
        ...(process.env.BENCH_CONCURRENCY ? { concurrency: Number(process.env.BENCH_CONCURRENCY) } : {}),
        ...(process.env.BENCH_NO_DATA_DIFF ? { dataDiff: false } : {}),
      };
      const res = await call('POST', `/api/v1/deployments/${id}/data-model/reviews`, { head: 'five-changes', refresh: true, options });
      if (res.status !== 202) throw new Error(`review start failed: ${JSON.stringify(res.body)}`);
      for (;;) {
        const status = await call('GET', `/api/v1/deployments/${id}/data-model/reviews/${res.body.reviewId as string}`);
        if (status.body.status === 'COMPLETED') break;
        if (['FAILED', 'CANCELLED'].includes(status.body.status as string)) throw new Error(`review ended ${JSON.stringify(status.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const result = (await call('GET', `/api/v1/deployments/${id}/data-model/reviews/${res.body.reviewId as string}/result`)).body as {
        changes: unknown[];
        impact: { widgets: unknown[]; views: unknown[]; members: unknown[] };
        dataDiff: { durationMs: number; queries: { id: string; label: string; status: string; durationMs: { base: number | null; head: number | null } | null }[] };
      };
      const cpu = process.cpuUsage(cpu0);
      return { wall: performance.now() - started, cpu: (cpu.user + cpu.system) / 1000, result };
    };
    const first = await review();
    const runs = [first];
    for (let i = 1; i < RUNS; i++) runs.push(await review());
    const r = first.result;
    const byStatus = (status: string) => r.dataDiff.queries.filter((q) => q.status === status).length;
    const ran = r.dataDiff.queries.filter((q) => q.durationMs);
    const statements = new Set(ran.flatMap((q) => [`${q.durationMs!.base}`, `${q.durationMs!.head}`])).size;
    console.log(`data:                 ${ORDERS.toLocaleString('en-US')} orders (generated in ${ms(generation)})`);
    console.log(`change:               ${r.changes.length} member changes; ${r.impact.members.length} members, ${r.impact.views.length} views, ${r.impact.widgets.length} widgets reached`);
    console.log(
      `data diff:            ${r.dataDiff.queries.length} queries (${byStatus('changed')} changed, ${byStatus('same')} same, ${byStatus('identical')} identical SQL, ${byStatus('failed')} failed, ${byStatus('skipped')} skipped), about ${statements} distinct statements run`,
    );
    console.log(`review, start to result: ${ms(median(runs.map((x) => x.wall)))} median of ${RUNS} (runs: ${runs.map((x) => ms(x.wall)).join(', ')}; target ≤ 5,000 ms)`);
    console.log(`  of which data diff:    ${ms(median(runs.map((x) => x.result.dataDiff.durationMs)))} median`);
    console.log(`CPU of the process:   ${ms(median(runs.map((x) => x.cpu)))} median per review (all threads: DuckDB's, workers', HTTP)`);
    if (process.env.BENCH_DETAIL) {
      const slow = [...ran].sort((a, b) => (b.durationMs!.base ?? 0) + (b.durationMs!.head ?? 0) - (a.durationMs!.base ?? 0) - (a.durationMs!.head ?? 0)).slice(0, 15);
      for (const q of slow) console.log(`  ${q.durationMs!.base} + ${q.durationMs!.head} ms  ${q.label}  (${q.id})`);
    }
    console.log(`machine load:         ${loadavg().map((l) => l.toFixed(2)).join(', ')} (1, 5, 15 min)`);
  } finally {
    await service.close();
  }
}
