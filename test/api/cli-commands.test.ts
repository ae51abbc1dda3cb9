// The API commands of the built CLI (deployments, status, push, pull, publish, load-table, promote, jobs)
// against a real `drydock serve` process, with its local warehouse and lakehouse emulators.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src-main/cli/program';
import { startServe, type ServeProcess } from '../support/serve';
import { apiAt, BIN, cliEnv, jsonOf, runCli, startCommand } from '../support/cli';
import { deployFiles, saveSettings, waitForBuildOf, type ApiCaller } from '../support/lakehouse';

const KEY = 'dd_cli_commands_key_abcdefghijklmnopqrstuvwxyz01';

let serve: ServeProcess;
let api: ApiCaller;
let env: NodeJS.ProcessEnv;
let a: number;
let b: number;
/** The deploy-branch commit of b once orders_overview is gone. */
let bCommit: string;

async function createDeployment(name: string): Promise<number> {
  const res = await api.call('POST', '/build/api/v1/deployments/', {
    body: { name, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } },
  });
  if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${res.text}`);
  return res.body.id;
}

const drydock = (...args: string[]) => runCli(args, { env });

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  // Generous: a cold start on a loaded machine takes tens of seconds.
  serve = await startServe({ env: { DRYDOCK_BOOTSTRAP_API_KEY: KEY }, args: ['--no-login-link'], timeoutMs: 110_000 });
  api = apiAt(serve.url, KEY);
  env = cliEnv({ DRYDOCK_URL: serve.url, DRYDOCK_API_KEY: KEY });
  // Each new deployment holds the sample project on its deploy branch.
  a = await createDeployment('cli-a');
  b = await createDeployment('cli-b');
}, 120_000);
afterAll(async () => {
  await serve?.stop();
});

// Each test spawns the CLI several times: generous on a loaded machine.
describe('drydock API commands', { timeout: 120_000 }, () => {
  it('deployments lists every deployment; --json prints them as an array', async () => {
    const text = await drydock('deployments');
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^ID\s+NAME\s+DEPLOY BRANCH\s+REGION\s+VERSION\n/);
    expect(text.stdout).toMatch(new RegExp(`\\n${a}\\s+cli-a\\s+main\\s+aws/`));
    const json = jsonOf(await drydock('deployments', '--json'));
    expect(json.map((d: { id: number; name: string }) => [d.id, d.name])).toEqual([
      [a, 'cli-a'],
      [b, 'cli-b'],
    ]);
  });

  it('refuses to guess the deployment among several: DEPLOYMENT_REQUIRED, exit 1, the problem as JSON with --json', async () => {
    const result = await drydock('status', '--json');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^DEPLOYMENT_REQUIRED: The service has 2 deployments; pick one with -d ID or NAME/);
    expect(jsonOf(result)).toEqual({ error: { code: 'DEPLOYMENT_REQUIRED', detail: expect.stringContaining('cli-a') } });
    const unknown = await drydock('status', '-d', 'nope');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/^DEPLOYMENT_NOT_FOUND: /);
  });

  it('carries the service’s problem code on failure: a wrong key, no key, no service', async () => {
    // A flag beats the environment.
    const wrong = await drydock('deployments', '--key', 'dd_wrong_key_000000000000000000000000000000');
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/^UNAUTHENTICATED: /);
    const none = await runCli(['deployments'], { env: cliEnv({ DRYDOCK_URL: serve.url }) });
    expect(none.status).toBe(1);
    expect(none.stderr).toMatch(/^CREDENTIAL_REQUIRED: No credential for http:\/\/127\.0\.0\.1:\d+/);
    const gone = await drydock('deployments', '--url', `http://127.0.0.1:${await closedPort()}`, '--json');
    expect(gone.status).toBe(1);
    expect(jsonOf(gone).error).toMatchObject({ code: 'NETWORK_ERROR', status: 0, detail: expect.stringContaining('ECONNREFUSED') });
  });

  it('push waits for the warehouse job and prints the semantic views; --json gives { job, result }', async () => {
    const json = await drydock('push', 'product_sales', '-d', 'cli-a', '--schema', 'PUBLIC', '--prefix', 'CLI_', '--json');
    expect(json.status, json.stderr).toBe(0);
    const { job, result } = jsonOf(json);
    expect(job).toMatchObject({ kind: 'push', deploymentId: a, status: 'COMPLETED', percentComplete: 100, error: null });
    expect(result).toMatchObject({ syncJobId: job.id, viewCount: 1, schema: 'PUBLIC', views: [{ viewName: 'product_sales', qualifiedName: 'ANALYTICS.PUBLIC.CLI_product_sales' }] });
    const text = await drydock('push', 'customer_directory', '-d', String(a), '--schema', 'PUBLIC', '--prefix', 'CLI_');
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Pushed 1 view to ANALYTICS\.PUBLIC from main at [0-9a-f]{12}:\n/);
    expect(text.stdout).toMatch(/customer_directory\s+ANALYTICS\.PUBLIC\.CLI_customer_directory\s+created/);
  });

  it('a push the service refuses, and a push job that fails, exit 1 with the code', async () => {
    // The sample's order_funnel keeps a filtered measure on purpose, which a semantic view cannot hold.
    const refused = await drydock('push', 'order_funnel', '-d', 'cli-a', '--schema', 'PUBLIC', '--json');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^MODEL_NOT_PUSHABLE: /);
    expect(jsonOf(refused).error).toMatchObject({ code: 'MODEL_NOT_PUSHABLE', status: 422, errors: [{ pointer: '/body/viewNames/0' }] });
    // The sample schema is readable but DRYDOCK may not create semantic views in it.
    const failed = await drydock('push', 'product_sales', '-d', 'cli-a', '--schema', 'ECOMMERCE');
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/Started push job [0-9a-f-]{36}\.\nWAREHOUSE_INSUFFICIENT_PRIVILEGES: /);
    const usage = await drydock('push', '-d', 'cli-a', '--schema', 'PUBLIC');
    expect(usage.status).toBe(1);
    expect(usage.stderr).toMatch(/^VIEWS_REQUIRED: /);
  });

  it('pull commits the warehouse’s semantic views as model files on the branch', async () => {
    const result = await drydock('pull', '-d', 'cli-a', '--schema', 'PUBLIC', '--view', 'CLI_*', '--output-path', 'model/views/warehouse', '--json');
    expect(result.status, result.stderr).toBe(0);
    const { job, result: pulled } = jsonOf(result);
    expect(job).toMatchObject({ kind: 'pull', status: 'COMPLETED' });
    expect(pulled.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(pulled.generatedFiles.map((f: { path: string; status: string }) => [f.path, f.status])).toEqual([
      ['model/views/warehouse/cli_customer_directory.yml', 'added'],
      ['model/views/warehouse/cli_product_sales.yml', 'added'],
    ]);
    const file = await api.call('GET', `/build/api/v1/deployments/${a}/data-model/files?path=model/views/warehouse/cli_product_sales.yml`);
    expect(file.status).toBe(200);
    expect(file.body.commit).toBe(pulled.commit);
  });

  it('jobs lists the deployment’s jobs with their kind, shows one with its result, and leaves a finished one alone on cancel', async () => {
    const list = await drydock('jobs', 'list', '--all', '-d', 'cli-a', '--json');
    expect(list.status, list.stderr).toBe(0);
    const jobs = jsonOf(list);
    expect(jobs.map((j: { kind: string; status: string }) => `${j.kind} ${j.status}`)).toEqual(
      expect.arrayContaining(['pull COMPLETED', 'push COMPLETED', 'push FAILED']),
    );
    expect(jsonOf(await drydock('jobs', '-d', 'cli-a', '--json'))).toEqual([]); // nothing is running
    const push = jobs.find((j: { kind: string; status: string }) => j.kind === 'push' && j.status === 'COMPLETED');
    const shown = jsonOf(await drydock('jobs', 'show', push.id, '-d', 'cli-a', '--json'));
    expect(shown.job).toEqual(push);
    expect(shown.result.views[0].semanticViewName).toMatch(/^CLI_/);
    const cancel = await drydock('jobs', 'cancel', push.id, '-d', 'cli-a');
    expect(cancel.status).toBe(0);
    expect(cancel.stdout).toContain(`push job ${push.id} already ended COMPLETED; nothing to cancel.`);
    const missing = await drydock('jobs', 'show', '00000000-0000-4000-8000-000000000000', '-d', 'cli-a');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^JOB_NOT_FOUND: /);
  });

  it('push --all pushes every view of the branch on a warehouse data source (not the lakehouse view order_trends)', async () => {
    // The sample's order_funnel uses a measure a semantic view cannot hold; make it a simple one.
    const simple = 'views:\n  - name: order_funnel\n    cubes:\n      - join_path: orders\n        includes: [status, count]\n';
    bCommit = await deployFiles(api, b, { 'model/views/order_funnel.yml': simple });
    const result = await drydock('push', '--all', '-d', 'cli-b', '--schema', 'PUBLIC', '--prefix', 'ALL_', '--json');
    expect(result.status, result.stderr).toBe(0);
    expect(jsonOf(result).result.views.map((v: { viewName: string }) => v.viewName)).toEqual(['customer_directory', 'order_funnel', 'orders_overview', 'product_sales']);
    expect(jsonOf(result).result.commit).toBe(bCommit);
  });

  it('publish runs a lakehouse publication: exit 0 when every view published, 1 with PUBLICATION_PARTIAL otherwise', async () => {
    const build = await waitForBuildOf(api, b, bCommit);
    expect(build.buildStatus, build.detail).toBe('succeeded');
    // order_trends is the sample's view on the lakehouse data source `lake`.
    await saveSettings(api, b, { enabled: true, selectionMode: 'selected', selectedViews: ['order_trends'], targetCatalog: 'main', targetSchema: 'default', targetNamePrefix: 'cli_' });
    const preview = await drydock('publish', '--preview', '-d', 'cli-b', '--json');
    expect(preview.status, preview.stderr).toBe(0);
    expect(jsonOf(preview).result.views).toEqual([expect.objectContaining({ viewName: 'order_trends', target: 'main.default.cli_order_trends', action: 'create' })]);
    const run = await drydock('publish', '-d', 'cli-b', '--json');
    expect(run.status, run.stderr).toBe(0);
    expect(jsonOf(run)).toMatchObject({ job: { kind: 'publish', status: 'COMPLETED', dataSourceName: 'lake' }, result: { views: [{ viewName: 'order_trends', outcome: 'created' }] } });
    // A second lakehouse view with an access policy, which a metric view cannot carry.
    const restricted = 'views:\n  - name: restricted_trends\n    cubes:\n      - join_path: order_history\n        includes: [status, count]\n    access_policy:\n      - group: analysts\n        member_level:\n          includes: "*"\n';
    bCommit = await deployFiles(api, b, { 'model/views/restricted_trends.yml': restricted });
    expect((await waitForBuildOf(api, b, bCommit)).buildStatus).toBe('succeeded');
    // `all` holds only the views on `lake`: the sample's warehouse views are not in it.
    await saveSettings(api, b, { enabled: true, selectionMode: 'all', targetCatalog: 'main', targetSchema: 'default', targetNamePrefix: 'cli_' });
    const partial = await drydock('publish', '-d', 'cli-b');
    expect(partial.status).toBe(1);
    expect(partial.stdout).toMatch(/\nrestricted_trends\s+main\.default\.cli_restricted_trends\s+blocked\s+MODEL_PUBLISH_ACCESS_POLICY\n/);
    expect(partial.stdout).toMatch(/\norder_trends\s+main\.default\.cli_order_trends\s+unchanged\s+-\n/);
    expect(partial.stdout).not.toMatch(/product_sales|customer_directory|orders_overview|order_funnel/);
    expect(partial.stderr).toMatch(/PUBLICATION_PARTIAL: 1 of 2 views did not publish\./);
  });

  it('load-table prints the inferred columns and imports every row; a bad file exits 1 with its code and imports nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'drydock-cli-table-'));
    const good = join(dir, 'sales targets.csv');
    writeFileSync(good, 'region,target\nNorth,1200.5\nSouth,980\n');
    const tablesOf = async () =>
      (await api.call('GET', `/api/v1/deployments/${a}/data-sources/default/tables`)).body.items.map((t: { schema: string; name: string; rowCount: number }) => `${t.schema}.${t.name}:${t.rowCount}`.toLowerCase());

    const loaded = await drydock('load-table', good, '--schema', 'planning', '-d', String(a));
    expect(loaded.status, loaded.stderr).toBe(0);
    expect(loaded.stderr).toMatch(/sales targets\.csv: 2 rows, read as csv/);
    expect(loaded.stdout).toMatch(/^region\s+\S+$/im);
    expect(loaded.stdout).toMatch(/Loaded 2 rows into planning\.sales_targets of data source default\./i);
    expect(await tablesOf()).toContain('planning.sales_targets:2');

    const again = await drydock('load-table', good, '--schema', 'planning', '-d', String(a), '--json');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^[A-Z_]+: /m);

    const broken = join(dir, 'broken.csv');
    writeFileSync(broken, 'a,b\n1,2\n3,4,5,6\n"unterminated\n');
    const before = await tablesOf();
    const refused = await drydock('load-table', broken, '--schema', 'planning', '-d', String(a));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/TABLE_FILE_INVALID/);
    expect(await tablesOf()).toEqual(before);

    const missing = await drydock('load-table', join(dir, 'nope.csv'), '--schema', 'planning', '-d', String(a));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/FILE_NOT_FOUND/);
  });

  it('status shows the deployment, the build of the deploy branch and the running jobs', async () => {
    const result = await drydock('status', '-d', 'cli-b', '--json');
    expect(result.status, result.stderr).toBe(0);
    expect(jsonOf(result)).toMatchObject({ deployment: { id: b, name: 'cli-b' }, build: { branch: 'main', buildStatus: 'succeeded', deployStatus: 'deployed' }, jobs: [] });
    const text = await drydock('status', '-d', 'cli-b');
    expect(text.stdout).toMatch(/^Deployment \d+ "cli-b" \(http:\/\/127\.0\.0\.1:\d+\), deploy branch main\nBuild of main at [0-9a-f]{12}: succeeded; deploy: deployed\nRunning jobs: none\n$/);
  });

  it('promote previews by default (nothing changes) and applies with --apply', async () => {
    const created = await api.call('POST', `/api/v1/deployments/${a}/workbooks`, { body: { name: 'Revenue', slug: 'revenue' } });
    expect(created.status).toBe(201);
    const preview = await drydock('promote', 'revenue', '-d', 'cli-a', '--to', 'cli-b', '--json');
    expect(preview.status, preview.stderr).toBe(0);
    expect(jsonOf(preview).preview).toMatchObject({ operation: 'CREATE', source: { workbookId: created.body.id }, target: { deploymentId: b, workbookId: null } });
    expect((await api.call('GET', `/api/v1/deployments/${b}/workbooks`)).body.items).toEqual([]);
    const applied = await drydock('promote', String(created.body.id), '-d', 'cli-a', '--to', String(b), '--apply');
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/Promoted: promotion \d+, target workbook \d+ \(CREATE\)\./);
    expect((await api.call('GET', `/api/v1/deployments/${b}/workbooks`)).body.items.map((w: { slug: string }) => w.slug)).toEqual(['revenue']);
    const again = jsonOf(await drydock('promote', 'revenue', '-d', 'cli-a', '--to', 'cli-b', '--json'));
    expect(again.preview).toMatchObject({ operation: 'UPDATE', changes: { identical: true } });
  });
});

// Each test spawns the CLI several times: generous on a loaded machine.
describe('drydock login, profiles, logout', { timeout: 120_000 }, () => {
  it('login checks the key against the service, then saves the profile with its key in the secret store, not in SQLite', { timeout: 120_000 }, async () => {
    const home = cliEnv({ DRYDOCK_SECRETS: 'file' });
    const bad = await runCli(['login', '--profile', 'remote', '--url', serve.url], { env: home, input: 'dd_not_the_key_0000000000000000000000000000\n' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^UNAUTHENTICATED: /);
    expect(jsonOf(await runCli(['profiles', '--json'], { env: home }))).toEqual([]); // nothing saved

    const good = await runCli(['login', '--profile', 'remote', '--url', `${serve.url}/api/v1`, '--json'], { env: home, input: `${KEY}\n` });
    expect(good.status, good.stderr).toBe(0);
    expect(jsonOf(good)).toMatchObject({ created: true, profile: { name: 'remote', baseUrl: serve.url, credentialKind: 'api-key', lastCheck: { ok: true } }, user: { role: 'admin' } });
    const dataDir = home.DRYDOCK_DATA_DIR!;
    expect(readFileSync(join(dataDir, 'drydock.sqlite')).includes(KEY)).toBe(false);
    expect(JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'))).toEqual({ 'profile:remote:credential': KEY });

    // The profile beats DRYDOCK_URL/DRYDOCK_API_KEY; a flag beats the profile.
    const elsewhere = { ...home, DRYDOCK_URL: `http://127.0.0.1:${await closedPort()}`, DRYDOCK_API_KEY: 'dd_wrong_key_000000000000000000000000000000' };
    const listed = await runCli(['deployments', '--profile', 'remote', '--json'], { env: elsewhere });
    expect(listed.status, listed.stderr).toBe(0);
    expect(jsonOf(listed).map((d: { name: string }) => d.name)).toContain('cli-a');
    const flagged = await runCli(['deployments', '--profile', 'remote', '--key', 'dd_wrong_key_000000000000000000000000000000'], { env: home });
    expect(flagged.stderr).toMatch(/^UNAUTHENTICATED: /);

    expect((await runCli(['profiles'], { env: home })).stdout).toMatch(/^NAME\s+URL\s+CREDENTIAL\s+LAST CHECK\nremote\s+http:\/\/127\.0\.0\.1:\d+\s+api-key\s+ok /);
    const out = await runCli(['logout', '--profile', 'remote'], { env: home });
    expect(out.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'))).toEqual({});
    const gone = await runCli(['deployments', '--profile', 'remote'], { env: home });
    expect(gone.status).toBe(1);
    expect(gone.stderr).toMatch(/^PROFILE_NOT_FOUND: /);
  });

  it('login refuses plain http to another machine and a malformed profile name before asking for a key', async () => {
    const home = cliEnv({ DRYDOCK_SECRETS: 'file' });
    const insecure = await runCli(['login', '--profile', 'prod', '--url', 'http://drydock.example.com', '--key', KEY], { env: home });
    expect(insecure.status).toBe(1);
    expect(insecure.stderr).toMatch(/^PROFILE_URL_INSECURE: /);
    const name = await runCli(['login', '--profile', 'Prod Server', '--url', serve.url, '--key', KEY], { env: home });
    expect(name.stderr).toMatch(/^PROFILE_NAME_INVALID: /);
  });

  it.skipIf(!existsSync('/usr/bin/script'))('login on a terminal prompts for the key without echoing it', async () => {
    const home = cliEnv({ DRYDOCK_SECRETS: 'file' });
    // util-linux `script` gives the CLI a pseudo-terminal and forwards our stdin to it.
    const command = `${process.execPath} ${BIN} login --profile tty --url ${serve.url}`;
    const { done, child } = startCommand('/usr/bin/script', ['-qec', command, '/dev/null'], home);
    // Type only once the prompt is up (the terminal echoes whatever arrives before).
    await new Promise<void>((resolve) => {
      let shown = '';
      child.stdout!.on('data', (d) => {
        shown += d;
        if (shown.includes('API key for tty')) resolve();
      });
    });
    child.stdin!.write(`${KEY}x\u007f\r`); // a typo erased with backspace
    const result = await done;
    expect(result.status, result.stdout).toBe(0);
    expect(result.stdout).toContain('API key for tty (');
    expect(result.stdout).toContain('Saved profile tty');
    expect(result.stdout).not.toContain(KEY);
    expect(JSON.parse(readFileSync(join(home.DRYDOCK_DATA_DIR!, 'secrets.json'), 'utf8'))).toEqual({ 'profile:tty:credential': KEY });
  });
});

// Each test spawns the CLI several times: generous on a loaded machine.
describe('drydock promote --to-profile', { timeout: 120_000 }, () => {
  const REMOTE_KEY = 'dd_cli_remote_key_abcdefghijklmnopqrstuvwxyz012';
  let remote: ServeProcess;
  let remoteApi: ApiCaller;
  beforeAll(async () => {
    remote = await startServe({ env: { DRYDOCK_BOOTSTRAP_API_KEY: REMOTE_KEY }, args: ['--no-login-link'], timeoutMs: 110_000 });
    remoteApi = apiAt(remote.url, REMOTE_KEY);
    const created = await remoteApi.call('POST', '/build/api/v1/deployments/', {
      body: { name: 'remote-prod', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } },
    });
    expect(created.status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await remote?.stop();
  });

  it('promotes a workbook to a deployment of a profile saved with drydock login, as a transfer job', { timeout: 120_000 }, async () => {
    // The profile goes into the local service's own data dir, where its profiles area reads it.
    const local = { ...env, DRYDOCK_DATA_DIR: serve.dataDir, DRYDOCK_SECRETS: 'file' };
    const login = await runCli(['login', '--profile', 'prod', '--url', remote.url, '--key', REMOTE_KEY], { env: local });
    expect(login.status, login.stderr).toBe(0);
    const workbook = await api.call('POST', `/api/v1/deployments/${a}/workbooks`, { body: { name: 'Margins', slug: 'margins' } });
    expect(workbook.status).toBe(201);

    const preview = await runCli(['promote', 'margins', '-d', 'cli-a', '--to-profile', 'prod', '--to', 'remote-prod', '--json'], { env: local });
    expect(preview.status, preview.stderr).toBe(0);
    expect(jsonOf(preview).preview).toMatchObject({ profileName: 'prod', remoteBaseUrl: remote.url, operation: 'CREATE', target: { workbookId: null } });
    expect((await remoteApi.call('GET', '/api/v1/deployments/1/workbooks')).body.items).toEqual([]);

    const applied = await runCli(['promote', 'margins', '-d', 'cli-a', '--to-profile', 'prod', '--to', 'remote-prod', '--apply', '--json'], { env: local });
    expect(applied.status, applied.stderr).toBe(0);
    const { transfer } = jsonOf(applied);
    expect(transfer).toMatchObject({ kind: 'workbook-promotion', status: 'COMPLETED', profileName: 'prod', operation: 'CREATE', target: { deploymentId: 1 } });
    const onRemote = (await remoteApi.call('GET', '/api/v1/deployments/1/workbooks')).body.items;
    expect(onRemote.map((w: { slug: string; id: number }) => [w.slug, w.id])).toEqual([['margins', transfer.target.workbookId]]);

    const listed = jsonOf(await runCli(['jobs', 'list', '--all', '--kind', 'transfer', '-d', 'cli-a', '--json'], { env: local }));
    expect(listed).toEqual([expect.objectContaining({ kind: 'transfer', id: transfer.id, status: 'COMPLETED', deploymentId: a })]);
  });
});

// Each test spawns the CLI several times: generous on a loaded machine.
describe('drydock --help', { timeout: 120_000 }, () => {
  it('every command and subcommand has help with its usage, options and description', async () => {
    const program = buildProgram(() => {}, () => {});
    const all = (command: typeof program, prefix: string[] = []): [string, typeof program][] =>
      command.commands.flatMap((c) => [[[...prefix, c.name()].join(' '), c] as [string, typeof program], ...all(c, [...prefix, c.name()])]);
    const commands = all(program);
    expect(commands.map(([name]) => name)).toEqual(
      expect.arrayContaining(['serve', 'validate', 'login', 'deployments', 'status', 'push', 'pull', 'publish', 'promote', 'jobs', 'jobs list', 'jobs show', 'jobs wait', 'jobs cancel']),
    );
    for (const [name, command] of commands) {
      const help = command.helpInformation();
      expect(help, name).toMatch(new RegExp(`^Usage: drydock ${name}\\b`));
      expect(command.description(), name).not.toBe('');
      expect(help, name).toContain('-h, --help');
    }
    // And the built CLI answers --help (exit 0) for a command.
    const built = await runCli(['push', '--help']);
    expect(built.status).toBe(0);
    expect(built.stdout).toMatch(/^Usage: drydock push \[options\] \[views\.\.\.\]/);
  });
});
