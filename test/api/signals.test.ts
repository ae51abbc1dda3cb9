// SIGTERM and SIGINT to each way of starting the headless service stop it cleanly and leave no
// process behind. Runs the built app (`npm run build`; `npm test` builds before this runs).
//
// SIGTERM goes to the launcher's process alone (what `kill PID` or a supervisor does); npm passes
// it only to the shell it runs the script in. SIGINT goes to the launcher's process group, as
// Ctrl-C in a terminal sends it.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processAlive } from '../support/processes';

const ROOT = new URL('../..', import.meta.url).pathname;

interface Launcher {
  name: string;
  command: string;
  args: (dataDir: string) => string[];
}

const serveArgs = (dataDir: string) => ['--port', '0', '--data-dir', dataDir, '--secrets', 'file'];
const LAUNCHERS: Launcher[] = [
  { name: 'npm start', command: 'npm', args: (d) => ['start', '--silent', '--', ...serveArgs(d)] },
  { name: 'npm run serve', command: 'npm', args: (d) => ['run', 'serve', '--silent', '--', ...serveArgs(d), '--no-login-link'] },
  { name: 'drydock serve', command: process.execPath, args: (d) => [join(ROOT, 'bin', 'drydock.js'), 'serve', ...serveArgs(d), '--no-login-link'] },
];

/** Every process below `pid` (Linux /proc). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const child of children.get(p) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(pid);
  return found;
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function startAndSignal(launcher: Launcher, signal: NodeJS.Signals, target: 'process' | 'group') {
  const dataDir = mkdtempSync(join(tmpdir(), 'drydock-signals-'));
  const proc = spawn(launcher.command, launcher.args(dataDir), {
    cwd: ROOT,
    env: { ...process.env, DRYDOCK_HEADLESS: '1', DRYDOCK_SECRETS: 'file' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a group signal reaches the launcher's processes and not the tests'.
    detached: true,
  });
  let output = '';
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  try {
    await until(`${launcher.name} listens`, () => /Drydock listening on http:\/\/127\.0\.0\.1:\d+/.test(output), 90_000);
    const url = /Drydock listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1];
    expect((await fetch(`${url}/api/v1/health`)).status).toBe(200);
    const tree = descendants(proc.pid!);
    process.kill(target === 'group' ? -proc.pid! : proc.pid!, signal);
    await exited;
    await until(`every process of ${launcher.name} ended`, () => tree.every((pid) => !processAlive(pid)), 20_000);
    const portClosed = await fetch(`${url}/api/v1/health`).then(
      () => false,
      () => true,
    );
    return { output, portClosed, dataDir };
  } finally {
    for (const pid of [proc.pid!, ...descendants(proc.pid!)]) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
  }
}

describe.skipIf(process.platform !== 'linux')('signals to the headless service', () => {
  for (const [signal, target] of [
    ['SIGTERM', 'process'],
    ['SIGINT', 'group'],
  ] as const) {
    it(`${signal} to the ${target} of npm start, npm run serve and drydock serve stops the service cleanly, closes the port and leaves no process`, async () => {
      const results = await Promise.all(LAUNCHERS.map((launcher) => startAndSignal(launcher, signal, target)));
      results.forEach(({ output, portClosed, dataDir }, i) => {
        const name = LAUNCHERS[i].name;
        expect(portClosed, `${name}: port still open\n${output}`).toBe(true);
        // The clean path ran: in-flight requests finished, jobs released, then the database closed
        // (SQLite removes the write-ahead log when the last connection closes).
        expect(output, name).toMatch(/finishing in-flight requests and releasing running jobs/);
        expect(output, name).not.toMatch(/Shutdown failed/);
        expect(existsSync(join(dataDir, 'drydock.sqlite-wal')), `${name}: database left open`).toBe(false);
      });
    }, 240_000);
  }
});
