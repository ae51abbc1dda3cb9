import { spawn, spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
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

  it("keeps what it compiled in Node's compile cache, in the user's cache folder, and compiles the next start from it", () => {
    const cacheHome = mkdtempSync(join(tmpdir(), 'dd-cache-home-'));
    const env = { ...process.env, XDG_CACHE_HOME: cacheHome, NODE_COMPILE_CACHE: undefined };
    expect(spawnSync(process.execPath, [BIN, 'serve', '--help'], { env, encoding: 'utf8' }).status).toBe(0);
    const [versionDir] = readdirSync(join(cacheHome, 'drydock', 'compile-cache'));
    expect(versionDir).toContain(process.version);
    const second = spawnSync(process.execPath, [BIN, 'serve', '--help'], { env: { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }, encoding: 'utf8' });
    expect(second.status).toBe(0);
    const accepted = [...second.stderr.matchAll(/V8 code cache for CommonJS \S+\/out\/main\/(\S+) was accepted/g)].map((m) => m[1]);
    expect(accepted.some((file) => /^chunks\/program-/.test(file))).toBe(true);
    expect(second.stderr).not.toMatch(/was rejected/);
  });

  it('runs as before where the cache folder cannot be written', () => {
    const notAFolder = join(mkdtempSync(join(tmpdir(), 'dd-cache-home-')), 'file');
    writeFileSync(notAFolder, '');
    const result = spawnSync(process.execPath, [BIN, '--version'], { env: { ...process.env, XDG_CACHE_HOME: notAFolder, NODE_COMPILE_CACHE: undefined }, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(result.stderr).toBe('');
  });

  it('gives its worker threads the compile cache too: a built service validates through the model thread, whose entry compiles from the cache on the next start', async () => {
    const cacheHome = mkdtempSync(join(tmpdir(), 'dd-cache-home-'));
    const dataDir = mkdtempSync(join(tmpdir(), 'dd-cli-'));
    const env = { DRYDOCK_BOOTSTRAP_API_KEY: KEY, DRYDOCK_SAMPLE_PROJECT: new URL('../../resources/sample-project', import.meta.url).pathname, XDG_CACHE_HOME: cacheHome, NODE_COMPILE_CACHE: undefined };
    const headers = { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' };
    const validate = async (url: string, name: string) => {
      const body = JSON.stringify({ name, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });
      const created = await fetch(`${url}/build/api/v1/deployments/`, { method: 'POST', headers, body });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      const validated = await fetch(`${url}/build/api/v1/deployments/${id}/data-model/validate?branchName=main`, { headers });
      expect(validated.status).toBe(200);
      expect(await validated.json()).toMatchObject({ valid: true, fileCount: 11 });
    };
    const first = await startServe({ dataDir, env });
    try {
      await validate(first.url, 'first');
    } finally {
      expect(await first.stop('SIGTERM')).toBe(0);
    }
    const second = await startServe({ dataDir, env: { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' } });
    try {
      await validate(second.url, 'second');
    } finally {
      expect(await second.stop('SIGTERM')).toBe(0);
    }
    expect(second.output()).toMatch(/V8 code cache for CommonJS \S+\/out\/main\/chunks\/model-worker-\S+ was accepted/);
  });
});
