import { spawn, spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from '../support/serve';

const KEY = 'dd_cli_test_key_abcdefghijklmnopqrstuvwxyz0123';
const BIN = new URL('../../bin/drydock.js', import.meta.url).pathname;

describe('drydock serve', () => {
  it('prints its listening line and serves the API with DRYDOCK_BOOTSTRAP_API_KEY as the admin key', async () => {
    const serve = await startServe({ env: { DRYDOCK_BOOTSTRAP_API_KEY: KEY } });
    try {
      expect(serve.output()).toMatch(/Drydock listening on http:\/\/127\.0\.0\.1:\d+/);
      expect(serve.output()).not.toContain('Admin API key');
      const me = await fetch(`${serve.url}/api/v1/users/me`, { headers: { authorization: `Api-Key ${KEY}` } });
      expect(me.status).toBe(200);
      expect((await fetch(`${serve.url}/api/v1/users/me`)).status).toBe(401);
    } finally {
      expect(await serve.stop('SIGTERM')).toBe(0);
    }
  });

  it('prints a generated admin key once, on the start that created the tenant', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dd-cli-'));
    const first = await startServe({ dataDir, env: { DRYDOCK_BOOTSTRAP_API_KEY: '' } });
    const key = /Admin API key \(shown once, stored only as a hash\): (dd_\S+)/.exec(first.output())?.[1];
    expect(key).toBeTruthy();
    expect(await first.stop()).toBe(0);
    const second = await startServe({ dataDir, env: { DRYDOCK_BOOTSTRAP_API_KEY: '' } });
    try {
      expect(second.output()).not.toContain('Admin API key');
      expect((await fetch(`${second.url}/api/v1/users/me`, { headers: { authorization: `Api-Key ${key}` } })).status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  it('prints a one-time login link that opens a session', async () => {
    const serve = await startServe({ env: { DRYDOCK_BOOTSTRAP_API_KEY: KEY } });
    try {
      const code = /\?login=(\S+)/.exec(serve.output())?.[1];
      expect(code).toBeTruthy();
      const res = await fetch(`${serve.url}/api/v1/auth/login-code`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      expect(res.status).toBe(200);
    } finally {
      await serve.stop();
    }
  });

  it('names the command that prints a new login link for this very service, and a used link answers with it (issue 24)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dd cli ')); // a space: the command quotes the path
    const serve = await startServe({ dataDir, env: { DRYDOCK_BOOTSTRAP_API_KEY: KEY, DRYDOCK_INVOKED_AS: '' } });
    try {
      const command = `drydock login-link --port ${serve.port} --data-dir '${dataDir}'`;
      // Printed right after the link (startServe resolves at the link).
      await expect.poll(() => serve.output()).toContain(`A login link works once. For a new one, any time: ${command}`);
      const code = /\?login=(\S+)/.exec(serve.output())![1];
      const exchange = (c: string) => fetch(`${serve.url}/api/v1/auth/login-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: c }) });
      expect((await exchange(code)).status).toBe(200);
      const again = await exchange(code);
      expect(again.status).toBe(401);
      expect(await again.json()).toMatchObject({ code: 'LOGIN_CODE_INVALID', reason: 'used', newLinkCommand: command });
      // The command, run as printed, gives a link that works.
      const printed = spawnSync(process.execPath, [BIN, 'login-link', '--port', String(serve.port), '--data-dir', dataDir], { encoding: 'utf8' });
      expect(printed.status).toBe(0);
      const fresh = /\?login=(\S+)/.exec(printed.stdout)![1];
      expect((await exchange(fresh)).status).toBe(200);
    } finally {
      await serve.stop();
    }
  });

  it('started by `npm run serve` it names the npm form, which prints a new link for it (issue 24)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dd-cli-'));
    const script = new URL('../../scripts/serve.js', import.meta.url).pathname;
    // What npm runs for `npm run serve -- …`: scripts/serve.js with the arguments after `--`.
    const proc = spawn(process.execPath, [script, '--data-dir', dataDir, '--secrets', 'file', '--port', '0'], { env: { ...process.env, DRYDOCK_BOOTSTRAP_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    try {
      await expect.poll(() => out, { timeout: 60_000 }).toMatch(/For a new one, any time: .*\n/);
      const port = /Drydock listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)![1];
      expect(out).toContain(`For a new one, any time: npm run serve -- login-link --port ${port} --data-dir ${dataDir}\n`);
      const printed = spawnSync(process.execPath, [script, 'login-link', '--port', port, '--data-dir', dataDir], { encoding: 'utf8' });
      expect(printed.status).toBe(0);
      const code = /\?login=(\S+)/.exec(printed.stdout)![1];
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login-code`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
      expect(res.status).toBe(200);
    } finally {
      proc.kill('SIGTERM');
      await new Promise((resolve) => proc.once('exit', resolve));
    }
  });

  it('SIGTERM answers the requests already sent, then exits 0', async () => {
    const serve = await startServe({ env: { DRYDOCK_BOOTSTRAP_API_KEY: KEY } });
    const inFlight = fetch(`${serve.url}/api/v1/spec`, { headers: { authorization: `Api-Key ${KEY}` } });
    // Long enough for the request to reach the server on a busy machine (later ones get 503 while closing).
    await new Promise((r) => setTimeout(r, 250));
    const exit = serve.stop('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await exit).toBe(0);
    expect(serve.output()).toContain('SIGTERM');
  });

  it('refuses a database from a newer Drydock with a clear message and exit 1', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dd-cli-'));
    const db = new Database(join(dataDir, 'drydock.sqlite'));
    db.pragma('user_version = 9999');
    db.close();
    const result = spawnSync(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--secrets', 'file', '--port', '0'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/newer Drydock/);
  });

  it('rejects bad options with a usage message', () => {
    const result = spawnSync(process.execPath, [BIN, 'serve', '--secrets', 'vault'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/--secrets must be/);
  });

  it('compiles its own start code with the code cache the build made, which this Node accepts (src-main/code-cache.ts)', () => {
    const hook = new URL('../../out/main/code-cache.js', import.meta.url).pathname;
    const script = `const { cachedFiles, rejectedFiles } = require(${JSON.stringify(hook)}); console.log(JSON.stringify([cachedFiles(), rejectedFiles()]));`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    const [cached, rejected] = JSON.parse(result.stdout) as [string[], string[]];
    expect(cached).toContain('cli.js');
    expect(cached.some((file) => /^chunks\/server-/.test(file))).toBe(true);
    expect(rejected).toEqual([]);
    // On Node 20 a script compiled from a code cache cannot `import()` (the drivers, DuckDB): such files compile as Node does.
    // (The rule of leftToNode in src-main/code-cache.ts: `import()` with nothing inside, in a message, is no call.)
    const callsImport = cached.filter((file) => /\bimport\s*\((?!\s*\))/.test(readFileSync(new URL(`../../out/main/${file}`, import.meta.url), 'utf8')));
    expect(callsImport).toEqual([]);
  });

  it('gives its worker threads the code cache too: both worker entries are in it and accepted, and a built service validates through them', async () => {
    const hook = new URL('../../out/main/code-cache.js', import.meta.url).pathname;
    const script = `const { cachedFiles, rejectedFiles } = require(${JSON.stringify(hook)}); console.log(JSON.stringify([cachedFiles(), rejectedFiles()]));`;
    const [cached, rejected] = JSON.parse(spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout) as [string[], string[]];
    // The entries of this build (their names carry a content hash), recorded by the warm start's validate.
    const built = readdirSync(new URL('../../out/main/chunks/', import.meta.url)).filter((file) => /^(compute|model)-worker-.*\.js$/.test(file));
    expect(built).toHaveLength(2);
    for (const file of built) expect(cached).toContain(`chunks/${file}`);
    expect(rejected).toEqual([]);

    // The model shard thread loads worker-boot.js first (the hook), then model-worker with the cache.
    const serve = await startServe({ env: { DRYDOCK_BOOTSTRAP_API_KEY: KEY, DRYDOCK_SAMPLE_PROJECT: new URL('../../resources/sample-project', import.meta.url).pathname } });
    try {
      const headers = { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' };
      const body = JSON.stringify({ name: 'cache', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });
      const created = await fetch(`${serve.url}/build/api/v1/deployments/`, { method: 'POST', headers, body });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      const validated = await fetch(`${serve.url}/build/api/v1/deployments/${id}/data-model/validate?branchName=main`, { headers });
      expect(validated.status).toBe(200);
      expect(await validated.json()).toMatchObject({ valid: true, fileCount: 11 });
    } finally {
      expect(await serve.stop('SIGTERM')).toBe(0);
    }
  });
});
