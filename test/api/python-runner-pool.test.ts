import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PythonSandbox, type SandboxOutcome } from '../../src-main/features/embed-sessions/python-sandbox';
import type { PoolSettings } from '../../src-main/features/embed-sessions/python-runner-pool';
import { eventually, processAlive } from '../support/processes';

/**
 * Issue 23: how runners are shared out among dashboards — which runner a run lands on, how many are
 * kept, how many run at once. The policy, not Pyodide, is under test here, so the runners are light
 * processes speaking the runner's protocol (each answers with its PID and when it ran); runs of real
 * Pyodide runners through the service are in embed-python-isolation.test.ts.
 */

const LIGHT_RUNNER = `
const out = (line) => process.stdout.write(line + '\\n');
out(JSON.stringify({ ready: true }));
let pending = '';
process.stdin.on('data', (chunk) => {
  pending += chunk;
  for (let end = pending.indexOf('\\n'); end !== -1; end = pending.indexOf('\\n')) {
    const request = JSON.parse(pending.slice(0, end));
    pending = pending.slice(end + 1);
    const start = Date.now();
    setTimeout(() => {
      const result = { pid: process.pid, start, end: Date.now() };
      out(JSON.stringify({ id: request.id, ok: true, resultJson: JSON.stringify(result), stdout: '', stderr: '' }));
    }, Number(request.code) || 0);
  }
});
`;

interface Ran {
  pid: number;
  start: number;
  end: number;
}

let dir: string;
let runnerFile: string;
const sandboxes: PythonSandbox[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'drydock-light-runner-'));
  runnerFile = join(dir, 'light-runner.cjs');
  writeFileSync(runnerFile, LIGHT_RUNNER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  for (const sandbox of sandboxes.splice(0)) await sandbox.close();
});

function sandboxOf(pool: Partial<PoolSettings>): PythonSandbox {
  const sandbox = new PythonSandbox(
    { timeoutMs: 10_000, memoryLimitBytes: 64 * 1024 * 1024 },
    { launch: async () => ({ command: process.execPath, args: [runnerFile], env: {} }), pool: { warm: 2, spares: 1, concurrency: 2, idleMs: 60_000, ...pool } },
  );
  sandboxes.push(sandbox);
  return sandbox;
}

const ran = (outcome: SandboxOutcome): Ran => {
  if (outcome.kind !== 'ok') throw new Error(`The run failed: ${JSON.stringify(outcome)}`);
  return outcome.result as Ran;
};
const run = async (sandbox: PythonSandbox, domain: string, sleepMs = 0) => ran(await sandbox.run(domain, String(sleepMs), {}));

describe('runners shared out among dashboards', { timeout: 60_000 }, () => {
  it('a runner serves one dashboard only: each dashboard’s runs land on its own runner, never on another’s', async () => {
    const sandbox = sandboxOf({});
    const pids: Record<string, Set<number>> = { a: new Set(), b: new Set() };
    for (const domain of ['a', 'b', 'a', 'b', 'a']) pids[domain]!.add((await run(sandbox, domain)).pid);
    expect(pids.a!.size).toBe(1);
    expect(pids.b!.size).toBe(1);
    expect([...pids.a!][0]).not.toBe([...pids.b!][0]);
  });

  it('the first run of a new dashboard takes the clean spare, and a new spare starts; a runner that ran a script never becomes the spare', async () => {
    const sandbox = sandboxOf({});
    const used = new Set<number>([(await run(sandbox, 'a')).pid]);
    for (const domain of ['b', 'c', 'd']) {
      expect(await sandbox.spareReady()).toBe(true);
      const spare = sandbox.sparePid()!;
      expect(used.has(spare)).toBe(false);
      const pid = (await run(sandbox, domain)).pid;
      expect(pid).toBe(spare);
      used.add(pid);
      expect(await eventually(() => sandbox.sparePid() !== null && sandbox.sparePid() !== spare)).toBe(true);
    }
  });

  it('at most `warm` dashboards keep a runner: the least recently used one’s process is ended', async () => {
    const sandbox = sandboxOf({ warm: 2 });
    const a = (await run(sandbox, 'a')).pid;
    const b = (await run(sandbox, 'b')).pid;
    await run(sandbox, 'a');
    expect(sandbox.warmDomains()).toEqual(['b', 'a']);
    const c = (await run(sandbox, 'c')).pid;
    expect(sandbox.warmDomains()).toEqual(['a', 'c']);
    expect(await eventually(() => !processAlive(b))).toBe(true);
    expect([processAlive(a), processAlive(c)]).toEqual([true, true]);
    // B comes back on a runner of its own, not on A's or C's; A, now least recently used, makes room.
    const again = (await run(sandbox, 'b')).pid;
    expect([a, b, c]).not.toContain(again);
    expect(sandbox.warmDomains()).toEqual(['c', 'b']);
    expect(await eventually(() => !processAlive(a))).toBe(true);
  });

  it('runs of one dashboard go one at a time; runs of different dashboards run at once, at most `concurrency` of them', async () => {
    const sandbox = sandboxOf({ warm: 3, concurrency: 2 });
    // Warm every dashboard first, so start-up times do not blur the overlaps.
    for (const domain of ['a', 'b', 'c']) await run(sandbox, domain);
    const same = await Promise.all([run(sandbox, 'a', 500), run(sandbox, 'a', 500)]);
    expect(same[1]!.start).toBeGreaterThanOrEqual(same[0]!.end);
    const spans = await Promise.all(['a', 'b', 'c'].map((domain) => run(sandbox, domain, 1_000)));
    const overlapping = (t: number) => spans.filter((s) => s.start <= t && t < s.end).length;
    const most = Math.max(...spans.map((s) => overlapping(s.start)));
    expect(most).toBe(2);
  });

  it('a runner without runs for `idleMs` is ended, and so is the spare: an idle service holds no runner', async () => {
    const sandbox = sandboxOf({ idleMs: 1_000 });
    const pid = (await run(sandbox, 'a')).pid;
    expect(await eventually(() => sandbox.sparePid() !== null)).toBe(true);
    const spare = sandbox.sparePid()!;
    expect(await eventually(() => !processAlive(pid) && !processAlive(spare))).toBe(true);
    expect(sandbox.warmDomains()).toEqual([]);
    expect(sandbox.sparePid()).toBeNull();
    // The next run starts afresh.
    expect((await run(sandbox, 'a')).pid).not.toBe(pid);
  });

  it('closing the sandbox ends every runner and the spare; a run after it is unavailable', async () => {
    const sandbox = sandboxOf({});
    const pids = [(await run(sandbox, 'a')).pid, (await run(sandbox, 'b')).pid];
    await sandbox.spareReady();
    pids.push(sandbox.sparePid()!);
    await sandbox.close();
    expect(await eventually(() => pids.every((pid) => !processAlive(pid)))).toBe(true);
    expect(await sandbox.run('a', '0', {})).toEqual({ kind: 'unavailable', message: 'The service is stopping.' });
  });
});
