// The desktop app's service supervision, under plain Node: `child_process.fork` stands in for
// Electron's `utilityProcess.fork`. The service process is the real one (src-main/service-process.ts,
// bundled from source as the build bundles it), on a real data dir and a real port.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceSupervisor, type SpawnServiceChild, type SupervisorEvent } from '../../../src-main/platform/process/supervisor';
import type { ServiceProcessOptions } from '../../../src-main/platform/process/service-protocol';
import { createServiceHost, type ServiceHostUi } from '../../../src-main/app/service-host';
import { bundleNodeEntry } from '../../../scripts/source-workers.js';

const root = join(import.meta.dirname, '../../..');
let serviceEntry: string;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'drydock-supervisor-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  serviceEntry = await bundleNodeEntry({ root, entry: join(root, 'src-main/service-process.ts') });
}, 120_000);
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Spawns `file` with child_process.fork, remembering every child it started. */
function forkSpawner(file: string, env: Record<string, string> = {}) {
  const children: ChildProcess[] = [];
  const spawn: SpawnServiceChild = () => {
    const child = fork(file, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: [], env: { ...process.env, ...env } });
    children.push(child);
    return {
      postMessage: (message) => void child.send(message),
      onMessage: (listener) => void child.on('message', listener),
      onExit: (listener) => void child.on('exit', listener),
      kill: () => void child.kill('SIGKILL'),
    };
  };
  return { spawn, children };
}

const options = (dataDir: string): ServiceProcessOptions => ({ dataDir, secrets: 'file', port: 0, rendererDir: null, corsOrigins: [] });

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });

const me = async (url: string, token: string) => (await fetch(`${url}/api/v1/users/me`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('the service process of the desktop app', () => {
  it('runs in its own process, hands over its URL and a session token that authenticates, renews the session, and stops cleanly', async () => {
    const { spawn, children } = forkSpawner(serviceEntry);
    const events: SupervisorEvent[] = [];
    const supervisor = new ServiceSupervisor({ spawn, service: options(tempDir()), onEvent: (e) => events.push(e) });
    const ready = await supervisor.start();
    expect(children).toHaveLength(1);
    expect(children[0]!.pid).not.toBe(process.pid);
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await me(ready.url, ready.session.token)).toBe(200);
    expect((await fetch(`${ready.url}/api/v1/users/me`)).status).toBe(401);

    const renewed = await supervisor.renewSession();
    expect(renewed.session.token).not.toBe(ready.session.token);
    expect(await me(ready.url, renewed.session.token)).toBe(200);
    // The previous session is revoked when a new one is issued.
    expect(await me(ready.url, ready.session.token)).toBe(401);

    const port = Number(new URL(ready.url).port);
    await supervisor.stop();
    await exited(children[0]!);
    expect(children[0]!.exitCode).toBe(0);
    expect(await listening(port)).toBe(false);
    expect(events.map((e) => e.type)).toEqual(['starting', 'ready', 'stopped']);
  }, 120_000);

  it('notices a service process that died, says so, and restarts it on the same port with a new session', async () => {
    const { spawn, children } = forkSpawner(serviceEntry);
    const events: SupervisorEvent[] = [];
    const supervisor = new ServiceSupervisor({ spawn, service: options(tempDir()), backoffMs: 50, onEvent: (e) => events.push(e) });
    try {
      const first = await supervisor.start();
      children[0]!.kill('SIGKILL');
      await exited(children[0]!);
      const crashed = await until(() => events.find((e): e is Extract<SupervisorEvent, { type: 'crashed' }> => e.type === 'crashed'));
      expect(crashed.reason).toMatch(/stopped unexpectedly.*killed \(SIGKILL\)/);
      expect(crashed.restartInMs).toBe(50);
      const second = await until(() => (events.some((e) => e.type === 'ready' && e.restarted) ? (supervisor.current() ?? undefined) : undefined));
      expect(children).toHaveLength(2);
      expect(second.url).toBe(first.url);
      expect(await me(second.url, second.session.token)).toBe(200);
    } finally {
      await supervisor.stop();
    }
    await exited(children[1]!);
    expect(children[1]!.exitCode).toBe(0);
  }, 120_000);

  it('does not restart a service that cannot start (a database of a newer release) and gives the reason', async () => {
    const dataDir = tempDir();
    const db = new Database(join(dataDir, 'drydock.sqlite'));
    db.pragma('user_version = 9999');
    db.close();
    const { spawn, children } = forkSpawner(serviceEntry);
    const events: SupervisorEvent[] = [];
    const supervisor = new ServiceSupervisor({ spawn, service: options(dataDir), backoffMs: 10, onEvent: (e) => events.push(e) });
    await expect(supervisor.start()).rejects.toThrow(/cannot start: The database .* schema version 9999/);
    expect(children).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'gave-up' });
    await supervisor.stop();
  }, 120_000);
});

describe('restarts of a failing service process', () => {
  it('waits longer after each failure in a row and gives up after maxFailures, rejecting whoever waits', async () => {
    const { spawn, children } = forkSpawner(join(root, 'test/support/broken-service-process.mjs'), { BROKEN_MODE: 'exit' });
    const events: SupervisorEvent[] = [];
    const supervisor = new ServiceSupervisor({ spawn, service: options(tempDir()), backoffMs: 20, maxFailures: 4, onEvent: (e) => events.push(e) });
    await expect(supervisor.start()).rejects.toThrow(/failed 4 times in a row/);
    expect(children).toHaveLength(4);
    const delays = events.filter((e): e is Extract<SupervisorEvent, { type: 'crashed' }> => e.type === 'crashed').map((e) => e.restartInMs);
    expect(delays).toEqual([20, 40, 80]);
    expect(events.filter((e) => e.type === 'crashed').every((e) => /did not start: it exited with code 3/.test((e as { reason: string }).reason))).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'gave-up' });
    await supervisor.stop();
  }, 60_000);

  it('kills a process that does not become ready in time and starts another', async () => {
    const { spawn, children } = forkSpawner(join(root, 'test/support/broken-service-process.mjs'), { BROKEN_MODE: 'silent' });
    const events: SupervisorEvent[] = [];
    const supervisor = new ServiceSupervisor({ spawn, service: options(tempDir()), readyTimeoutMs: 300, backoffMs: 20, onEvent: (e) => events.push(e) });
    void supervisor.start().catch(() => undefined);
    await until(() => (children.length >= 2 ? true : undefined), 20_000);
    await exited(children[0]!);
    expect(children[0]!.signalCode).toBe('SIGKILL');
    expect(events.find((e) => e.type === 'crashed')).toMatchObject({ reason: expect.stringMatching(/did not start: it was killed/) });
    await supervisor.stop();
    await exited(children.at(-1)!);
  }, 60_000);
});

describe('the desktop shell hosting the service process', () => {
  /** What the app would show the user, recorded; `gaveUpAnswer` is the user's choice in the dialog. */
  function recordingUi(gaveUpAnswer: 'retry' | 'quit') {
    const shown: string[] = [];
    const ui: ServiceHostUi = {
      serviceCrashed: (reason) => void shown.push(`crashed: ${reason}`),
      serviceRestored: (url, originChanged) => void shown.push(`restored: ${url} ${originChanged ? 'new origin' : 'same origin'}`),
      serviceGaveUp: async (reason) => (shown.push(`gave up: ${reason}`), gaveUpAnswer),
    };
    return { ui, shown };
  }

  it('tells the user when the service process dies and when it is back, and hands the window a working token afterwards', async () => {
    const { spawn, children } = forkSpawner(serviceEntry);
    const { ui, shown } = recordingUi('quit');
    let quit = false;
    const host = createServiceHost({ spawn, service: options(tempDir()), ui, quit: () => (quit = true), supervision: { backoffMs: 50 } });
    try {
      const url = await host.start();
      const before = await host.connection();
      expect(before.baseUrl).toBe(url);
      expect(await me(url, before.token)).toBe(200);
      // The window asks again (as it does on a 401): the same session while it is far from expiry.
      expect((await host.connection()).token).toBe(before.token);

      children[0]!.kill('SIGKILL');
      await exited(children[0]!);
      // Asked while the service is down, the shell waits for the restarted process.
      const after = await host.connection();
      expect(after.baseUrl).toBe(url);
      expect(after.token).not.toBe(before.token);
      expect(await me(url, after.token)).toBe(200);
      expect(shown).toEqual([expect.stringMatching(/^crashed: The service stopped unexpectedly: it was killed \(SIGKILL\)/), `restored: ${url} same origin`]);
      expect(quit).toBe(false);
    } finally {
      await host.stop();
    }
  }, 120_000);

  it('renews a session token near its expiry', async () => {
    const { spawn } = forkSpawner(serviceEntry);
    let clock = Date.now();
    const host = createServiceHost({ spawn, service: options(tempDir()), ui: recordingUi('quit').ui, quit: () => undefined, now: () => clock });
    try {
      const url = await host.start();
      const first = await host.connection();
      clock = Date.parse(first.expiresAt) - 60_000;
      const renewed = await host.connection();
      expect(renewed.token).not.toBe(first.token);
      expect(await me(url, renewed.token)).toBe(200);
      expect(await me(url, first.token)).toBe(401);
    } finally {
      await host.stop();
    }
  }, 120_000);

  it('asks the user once the service keeps dying, and starts it again when they choose to try again', async () => {
    const { spawn, children } = forkSpawner(serviceEntry);
    const { ui, shown } = recordingUi('retry');
    const host = createServiceHost({ spawn, service: options(tempDir()), ui, quit: () => undefined, supervision: { backoffMs: 50, maxFailures: 1 } });
    try {
      const url = await host.start();
      children[0]!.kill('SIGKILL');
      await exited(children[0]!);
      await until(() => (shown.length >= 2 ? true : undefined));
      const after = await host.connection();
      expect(children).toHaveLength(2);
      expect(shown[0]).toMatch(/^gave up: The service stopped unexpectedly: .* failed 1 times in a row/);
      expect(shown[1]).toBe(`restored: ${url} same origin`);
      expect(await me(after.baseUrl, after.token)).toBe(200);
    } finally {
      await host.stop();
    }
  }, 120_000);

  it('quits the app when the user chooses to quit after the service keeps dying', async () => {
    const { spawn, children } = forkSpawner(serviceEntry);
    const { ui } = recordingUi('quit');
    let quit = false;
    const host = createServiceHost({ spawn, service: options(tempDir()), ui, quit: () => (quit = true), supervision: { backoffMs: 50, maxFailures: 1 } });
    await host.start();
    children[0]!.kill('SIGKILL');
    await until(() => (quit ? true : undefined));
    expect(children).toHaveLength(1);
    await expect(host.connection()).rejects.toThrow(/failed 1 times in a row/);
    await host.stop();
  }, 120_000);

  it('reports a service that cannot start from start(), without asking the user to retry', async () => {
    const { spawn } = forkSpawner(join(root, 'test/support/broken-service-process.mjs'), { BROKEN_MODE: 'exit' });
    const { ui, shown } = recordingUi('retry');
    const host = createServiceHost({ spawn, service: options(tempDir()), ui, quit: () => undefined, supervision: { backoffMs: 10, maxFailures: 2 } });
    await expect(host.start()).rejects.toThrow(/did not start: it exited with code 3/);
    expect(shown).toEqual([]);
    await host.stop();
  }, 60_000);
});

async function until<T>(check: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
