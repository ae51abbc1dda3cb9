// `npm run bench -- modeltests` (issue 26, item 3): whole-process time of `drydock test` (spawn →
// exit, what a CI step waits for) running 100 model tests of the sample project on its fixture
// CSVs, next to the same tests run in this process. Needs the build (`npm run build`). Target on
// the 2-core machine: ≤ 3 s for the whole process.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testProject } from '../../src-main/cli/model-tests/project';
import { median } from './stats';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'drydock.js');
const RUNS = 5;
const TIME = '/usr/bin/time';

const ms = (v: number) => `${v.toFixed(0)} ms`;

/** 100 tests over the sample model: counts and totals by each status, country and month, through cubes and views. */
function hundredTests(): string {
  const statuses: [string, number, number][] = [
    ['completed', 5, 401.26],
    ['shipped', 2, 145.24],
    ['placed', 2, 500],
    ['returned', 1, 60],
  ];
  const tests: string[] = [];
  for (let round = 0; tests.length < 100; round++) {
    for (const [status, count, total] of statuses) {
      const entity = round % 2 === 0 ? 'orders' : 'orders_overview';
      tests.push(
        [
          `  - name: ${status} orders, round ${round}`,
          '    query:',
          `      measures: [${entity}.count, ${entity}.total_amount]`,
          `      filters: [{ member: ${entity}.status, operator: equals, values: [${status}] }]`,
          '    expect:',
          '      values:',
          `        - { member: ${entity}.count, equals: ${count} }`,
          `        - { member: ${entity}.total_amount, equals: ${total}, tolerance: 0.001 }`,
        ].join('\n'),
      );
    }
    tests.push(
      [
        `  - name: orders by status, round ${round}`,
        '    query:',
        '      measures: [orders.count]',
        '      dimensions: [orders.status]',
        '    expect:',
        '      row_count: 4',
        '      unique: [orders.status]',
        '      totals_equal:',
        '        - { member: orders.count, query: { measures: [orders.count] } }',
      ].join('\n'),
    );
  }
  return `data:\n  fixtures:\n    ecommerce.orders: fixtures/orders.csv\n    ecommerce.customers: fixtures/customers.csv\ntests:\n${tests.slice(0, 100).join('\n')}\n`;
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-bench-modeltests-'));
  cpSync(join(ROOT, 'resources/sample-project/model'), join(dir, 'model'), { recursive: true });
  cpSync(join(ROOT, 'resources/sample-project/tests/fixtures'), join(dir, 'tests/fixtures'), { recursive: true });
  writeFileSync(join(dir, 'tests', 'hundred.yml'), hundredTests());
  return dir;
}

function runOnce(dir: string): { wallMs: number; cpuMs: number | null; passed: number; failed: number } {
  const withTime = existsSync(TIME);
  const args = ['test', dir, '--format', 'json'];
  const started = performance.now();
  const result = withTime
    ? spawnSync(TIME, ['-f', 'CPU %U %S', process.execPath, BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    : spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const wallMs = performance.now() - started;
  const cpu = /CPU ([\d.]+) ([\d.]+)/.exec(result.stderr ?? '');
  const report = JSON.parse(result.stdout) as { summary: { passed: number; failed: number; errors: number } };
  return { wallMs, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null, passed: report.summary.passed, failed: report.summary.failed + report.summary.errors };
}

export async function run(): Promise<void> {
  if (!existsSync(join(ROOT, 'out', 'main'))) throw new Error('Build first: npm run build (the bench spawns bin/drydock.js).');
  const dir = project();
  runOnce(dir); // warm the file cache
  const runs = Array.from({ length: RUNS }, () => runOnce(dir));
  const inProcess: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await testProject(dir);
    inProcess.push(performance.now() - t0);
  }
  const cpu = runs.map((r) => r.cpuMs).filter((c): c is number => c !== null);
  console.log(`tests:                ${runs[0]!.passed} passed, ${runs[0]!.failed} failed (100 tests on the sample project's fixture CSVs)`);
  console.log(`drydock test:         ${ms(median(runs.map((r) => r.wallMs)))} median of ${RUNS}, whole process (runs: ${runs.map((r) => ms(r.wallMs)).join(', ')}; target ≤ 3,000 ms)`);
  if (cpu.length) console.log(`  CPU (user+system):  ${ms(median(cpu))} median`);
  console.log(`in this process:      ${ms(median(inProcess))} median (read, compile, load the fixtures, run, check)`);
  console.log(`machine load:         ${loadavg().map((l) => l.toFixed(2)).join(', ')} (1, 5, 15 min)`);
}
