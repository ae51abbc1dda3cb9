// `drydock review` (issue 26) of the built CLI against a real `drydock serve`: branches committed
// through the API, a published dashboard, the emulator's DuckDB data; every report format and the
// exit codes a CI job relies on.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAt, cliEnv, jsonOf, runCli } from '../support/cli';
import { deployFiles, type ApiCaller } from '../support/lakehouse';
import { startServe, type ServeProcess } from '../support/serve';
import { gitIn } from '../support/git-cli';

const KEY = 'dd_cli_review_key_abcdefghijklmnopqrstuvwxyz0123';
const SAMPLE = join(__dirname, '../../resources/sample-project/model');
const ORDERS = readFileSync(join(SAMPLE, 'cubes/orders.yml'), 'utf8');
const OVERVIEW = readFileSync(join(SAMPLE, 'views/orders_overview.yml'), 'utf8');

let serve: ServeProcess;
let api: ApiCaller;
let env: NodeJS.ProcessEnv;
let id: number;
const drydock = (...args: string[]) => runCli([...args, '-d', String(id)], { env });

async function branchWith(name: string, files: Record<string, string | null>): Promise<string> {
  const created = await api.call('POST', `/build/api/v1/deployments/${id}/branches`, { body: { branchName: name } });
  if (created.status !== 201) throw new Error(`branch ${name}: ${created.status} ${created.text}`);
  return deployFiles(api, id, files, undefined, name);
}

beforeAll(async () => {
  serve = await startServe({ env: { DRYDOCK_BOOTSTRAP_API_KEY: KEY, DRYDOCK_SAMPLE_ORDERS: '3000' }, args: ['--no-login-link'], timeoutMs: 110_000 });
  api = apiAt(serve.url, KEY);
  env = cliEnv({ DRYDOCK_URL: serve.url, DRYDOCK_API_KEY: KEY });
  const created = await api.call('POST', '/build/api/v1/deployments/', {
    body: { name: 'cli-review', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } },
  });
  id = created.body.id;
  const wb = await api.call('POST', `/api/v1/deployments/${id}/workbooks`, {
    body: {
      name: 'Sales overview',
      dashboardDraft: {
        widgets: [
          { id: 'by-status', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { title: 'Orders by status', query: { measures: ['orders_overview.total_amount'], dimensions: ['orders_overview.status'] } } },
          { id: 'aov', type: 'CHART', position: { x: 0, y: 4, w: 6, h: 4 }, config: { title: 'Average order value', query: { measures: ['orders.average_order_value'] } } },
        ],
      },
    },
  });
  expect(wb.status, wb.text).toBe(201);
  expect((await api.call('POST', `/api/v1/deployments/${id}/workbooks/${wb.body.id}/publish`)).status).toBe(200);
  await branchWith('no-returns', {
    'model/cubes/orders.yml': ORDERS.replace('      - name: total_amount\n        sql: amount\n', "      - name: total_amount\n        sql: \"CASE WHEN {CUBE}.status = 'returned' THEN 0 ELSE {CUBE}.amount END\"\n"),
  });
  await branchWith('drop-aov', {
    'model/cubes/orders.yml': ORDERS.replace(/ {6}- name: average_order_value\n(.*\n){3}/, ''),
    'model/views/orders_overview.yml': OVERVIEW.replace('          - average_order_value\n', ''),
  });
}, 150_000);

afterAll(async () => {
  await serve?.stop();
});

describe('drydock review', { timeout: 120_000 }, () => {
  it('prints what changed, where, and the numbers before and after; exits 0 when nothing breaks', async () => {
    const result = await drydock('review', '--head', 'no-returns');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Review of no-returns \([0-9a-f]{12}\) against main \([0-9a-f]{12}\): 1 change, 2 widgets affected, \d+ queries with changed numbers/);
    expect(result.stdout).toMatch(/model\/cubes\/orders\.yml:\d+:\d+ {2}measure orders\.total_amount: sql changed {2}\[numbers\]/);
    expect(result.stdout).toContain('≠ Sales overview › Orders by status');
    expect(result.stdout).toMatch(/returned: total_amount [\d,.]+ → 0/);
    expect(result.stdout).toMatch(/total_amount total [\d,.]+ → [\d,.]+ \(−[\d.]+ %\)/);
  });

  it('with --fail-on changed-numbers exits 1 when numbers change; Markdown for a pull-request comment', async () => {
    const result = await drydock('review', '--head', 'no-returns', '--format', 'markdown', '--fail-on', 'changed-numbers');
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^### ⚠️ Drydock review: 1 change, 2 widgets affected/);
    expect(result.stdout).toContain('#### Numbers that change');
    expect(result.stdout).toMatch(/\| Sales overview › Orders by status \| total_amount total [\d,.]+ → [\d,.]+/);
    expect(result.stdout).toContain('<summary>1 model change</summary>');
  });

  it('exits 1 when a widget breaks; SARIF to a file locates it at the removed member, a text summary on stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'drydock-review-sarif-'));
    const file = join(dir, 'out', 'review.sarif');
    const result = await drydock('review', '--head', 'drop-aov', '--no-data-diff', '--format', 'sarif', '--output', file);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toContain('Breaks:');
    expect(result.stdout).toContain('✖ widget Sales overview › Average order value:');
    const sarif = JSON.parse(readFileSync(file, 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    const breaks = sarif.runs[0].results.filter((r: { ruleId: string }) => r.ruleId === 'MODEL_CHANGE_BREAKS');
    expect(breaks.length).toBeGreaterThanOrEqual(2);
    expect(breaks[0].level).toBe('error');
    expect(breaks[0].locations[0].physicalLocation.artifactLocation).toMatchObject({ uri: 'model/cubes/orders.yml', uriBaseId: '%SRCROOT%' });
    expect(breaks[0].locations[0].physicalLocation.region.startLine).toBeGreaterThan(1);
  });

  it('prints the result as JSON with --json; --fail-on never exits 0 even when something breaks', async () => {
    const first = await drydock('review', '--head', 'drop-aov', '--no-data-diff', '--json', '--fail-on', 'never');
    expect(first.status, first.stderr).toBe(0);
    const json = jsonOf(first);
    expect(json.head.ref).toBe('drop-aov');
    expect(json.impact.breaking.length).toBeGreaterThan(0);
  });

  it('refuses an unknown ref with REF_NOT_FOUND and exit 1', async () => {
    const result = await drydock('review', '--head', 'no-such-branch');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^REF_NOT_FOUND: "no-such-branch" names no branch or commit/);
  });
});

describe('drydock review --repo (offline, over a local git repository)', { timeout: 120_000 }, () => {
  const ROOT = join(__dirname, '../..');
  let repo: string;
  const git = (...args: string[]) => gitIn(repo, ...args);

  beforeAll(() => {
    // The project lives in a folder of a bigger repository, as it often does.
    repo = mkdtempSync(join(tmpdir(), 'drydock-review-repo-'));
    cpSync(join(ROOT, 'resources/sample-project/model'), join(repo, 'analytics/model'), { recursive: true });
    cpSync(join(ROOT, 'resources/sample-project/tests'), join(repo, 'analytics/tests'), { recursive: true });
    writeFileSync(join(repo, 'README.md'), 'not part of the project\n');
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'Model');
    git('checkout', '-q', '-b', 'no-returns');
    const orders = join(repo, 'analytics/model/cubes/orders.yml');
    writeFileSync(orders, readFileSync(orders, 'utf8').replace('      - name: total_amount\n        sql: amount\n', "      - name: total_amount\n        sql: \"CASE WHEN {CUBE}.status = 'returned' THEN 0 ELSE {CUBE}.amount END\"\n"));
    git('commit', '-q', '-am', 'No revenue from returns');
  });

  it('reviews HEAD against where it left main, with the numbers on the tests’ fixture tables', async () => {
    const result = await runCli(['review', '--repo', join(repo, 'analytics')], { env: cliEnv(), cwd: repo });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Review of HEAD \\(${git('rev-parse', 'HEAD').slice(0, 12)}\\) against main \\(${git('rev-parse', 'main').slice(0, 12)}\\)`));
    expect(result.stdout).toMatch(/model\/cubes\/orders\.yml:\d+:\d+ {2}measure orders\.total_amount: sql changed/);
    expect(result.stdout).toContain('≠ orders_overview: by status');
    // The fixture's one returned order (60.00) no longer counts.
    expect(result.stdout).toContain('returned: total_amount 60 → 0');
    expect(result.stdout).toMatch(/total_amount total 1,106\.5 → 1,046\.5/);
    const strict = await runCli(['review', '--repo', join(repo, 'analytics'), '--fail-on', 'changed-numbers', '--format', 'json'], { env: cliEnv(), cwd: repo });
    expect(strict.status).toBe(1);
    expect(jsonOf(strict).summary).toMatchObject({ changes: 1, breaking: 0 });
  });

  it('compares with where HEAD left the branch named by --base, not with what that branch gained since (`main~0`: its tip)', async () => {
    const repoDir = join(repo, 'analytics');
    const forked = git('rev-parse', 'main');
    git('checkout', '-q', 'main');
    const overview = join(repo, 'analytics/model/views/orders_overview.yml');
    writeFileSync(overview, readFileSync(overview, 'utf8').replace('description: Orders with the customer who placed them', 'description: Changed on main'));
    git('commit', '-q', '-am', 'Main moves on');
    git('checkout', '-q', 'no-returns');
    try {
      const fromFork = await runCli(['review', '--repo', repoDir, '--base', 'main', '--no-data-diff', '--format', 'json'], { env: cliEnv(), cwd: repo });
      expect(fromFork.status, fromFork.stderr).toBe(0);
      expect(jsonOf(fromFork).base).toEqual({ ref: 'main', commit: forked });
      expect(jsonOf(fromFork).changes.map((c: { name: string }) => c.name)).toEqual(['orders.total_amount']);
      const tip = await runCli(['review', '--repo', repoDir, '--base', 'main~0', '--no-data-diff', '--format', 'json'], { env: cliEnv(), cwd: repo });
      expect(tip.status, tip.stderr).toBe(0);
      expect(jsonOf(tip).base.commit).toBe(git('rev-parse', 'main'));
      expect(jsonOf(tip).changes.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['orders.total_amount', 'orders_overview']));
    } finally {
      git('checkout', '-q', 'main');
      git('reset', '-q', '--hard', forked);
      git('checkout', '-q', 'no-returns');
    }
  });

  it('takes any two refs; refuses unknown refs and folders outside a repository', async () => {
    const same = await runCli(['review', '--repo', join(repo, 'analytics'), '--base', 'main', '--head', 'main', '--format', 'json'], { env: cliEnv(), cwd: repo });
    expect(same.status, same.stderr).toBe(0);
    expect(jsonOf(same).changes).toEqual([]);
    const unknown = await runCli(['review', '--repo', join(repo, 'analytics'), '--base', 'nope'], { env: cliEnv(), cwd: repo });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/^REF_NOT_FOUND: "nope"/);
    const outside = await runCli(['review', '--repo', mkdtempSync(join(tmpdir(), 'drydock-no-repo-'))], { env: cliEnv() });
    expect(outside.status).toBe(2);
    expect(outside.stderr).toMatch(/^NOT_A_GIT_REPOSITORY: /);
  });
});
