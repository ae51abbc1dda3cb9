// The Python sandbox (issue 23): a dashboard widget's Python runs in a process of its own, never in
// the service's. The picture:
//
//   service process                                          runner processes (python-runner.ts):
//   PythonSandbox, RunnerPool: which runner a run goes to      one per dashboard, and a clean spare
//     (python-runner-pool.ts)
//   RunnerProcess: checks every line it reads  ──stdin──▶  {id, code, globals}       Pyodide (CPython
//                                              ◀─stdout─  {ready} / {id, result…}   on WebAssembly)
//                  keeps the last 8 KB of      ◀─stderr─  diagnostics only
//   kills a runner: at the time limit, on a protocol violation, after 10 idle minutes, to make
//   room for a more recently used dashboard, with the service
//
// A runner is started by python-launch.ts: the service's own executable (Electron as Node in the
// desktop app), Node's permission model reading only Pyodide's files and its own (no writes, no
// processes, no workers, addons, WASI or inspector), no code generation from strings, a bounded
// JavaScript heap, an environment of a few harmless names; on Linux, when available, a network
// namespace of its own and CPU, memory and file-size limits. Before any script runs, the runner closes the
// network and whatever else the permission model leaves open (python-lockdown.ts) and checks its
// guarantees, refusing to start without them.
//
// Loading Pyodide takes seconds, so runners are kept warm — but a warm runner keeps what its scripts
// left behind, so each is bound to one dashboard (python-runner-pool.ts): a clean spare waits for
// the first run of a dashboard, at most a few dashboards keep a runner (least recently used ended
// first), and a runner that overran its time, broke the protocol or failed in its runtime is killed;
// its dashboard's next run takes the spare.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import type { Logger, ServiceContext } from '../../context';
import runnerEntry from '../../workers/python-runner?modulePath';
import { ProtocolError, type RunReply } from '../../workers/python-protocol';
import { runnerLaunch, unpackedPath, type RunnerLaunch, type RunnerLaunchInput } from './python-launch';
import { RunnerExited, RunnerProcess } from './python-runner-process';
import { PoolClosed, RunnerPool, type PoolSettings } from './python-runner-pool';

export interface SandboxLimits {
  timeoutMs: number;
  memoryLimitBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { timeoutMs: 10_000, memoryLimitBytes: 256 * 1024 * 1024 };
/** The runner's JavaScript heap (Pyodide's own objects; Python's heap is the WebAssembly memory). */
const HEAP_LIMIT_MB = 256;
/** CPU seconds one runner may use in all, where prlimit exists: a runner spinning without its service ends by itself. */
const CPU_SECONDS = 600;
/**
 * What the runtime's writable memory may take besides the script's heap and the JavaScript heap:
 * measured after load, 750 MB of it is mapped (thread stacks, heap reservations; 170 MB resident).
 */
const RUNTIME_DATA_BYTES = 1024 * 1024 * 1024;
const START_TIMEOUT_MS = 120_000;

/**
 * Two dashboards keep a warm runner, plus the clean spare: 160–175 MB resident each once Pyodide is
 * loaded, so about 500 MB in all. Two runs at once (one on a single core): a run is CPU-bound.
 */
export const DEFAULT_POOL: PoolSettings = { warm: 2, spares: 1, concurrency: Math.min(2, availableParallelism()), idleMs: 10 * 60_000 };

export type SandboxOutcome =
  | { kind: 'ok'; result: unknown; stdout: string; stderr: string; durationMs: number }
  | { kind: 'error'; errorType: string; message: string; traceback: string; stdout: string; stderr: string }
  | { kind: 'timeout' }
  | { kind: 'memory'; message: string; stdout: string }
  | { kind: 'unavailable'; message: string };

export interface SandboxOptions {
  /** How to start a runner (tests may point elsewhere); by default the service's own runtime. */
  launch?: (limits: SandboxLimits) => Promise<RunnerLaunch>;
  /** Where a runner that could not start or broke the protocol is reported (with its stderr). */
  log?: Logger;
  /** How many runners, at once, for how long (DEFAULT_POOL by default). */
  pool?: Partial<PoolSettings>;
}

export class PythonSandbox {
  private readonly pool: RunnerPool;
  private closed = false;
  private readonly launch: (limits: SandboxLimits) => Promise<RunnerLaunch>;
  private readonly log: Logger | undefined;

  constructor(
    readonly limits: SandboxLimits = DEFAULT_LIMITS,
    options: SandboxOptions = {},
  ) {
    this.launch = options.launch ?? defaultLaunch;
    this.log = options.log;
    this.pool = new RunnerPool({ ...DEFAULT_POOL, ...options.pool }, () => new RunnerProcess(this.launch(this.limits), START_TIMEOUT_MS));
  }

  /**
   * Runs `code` with `globals` bound, on the runner of `domain` (the dashboard whose code it is):
   * never on a runner that ran another domain's code. Runs of one domain queue behind each other.
   */
  async run(domain: string, code: string, globals: Record<string, unknown>): Promise<SandboxOutcome> {
    try {
      return await this.pool.use(domain, (runner) => this.runOn(runner, code, globals));
    } catch (error) {
      if (error instanceof PoolClosed) return { kind: 'unavailable', message: error.message };
      throw error;
    }
  }

  /** The PID of `domain`'s warm runner, if it has one. */
  runnerPid(domain: string): number | null {
    return this.pool.runnerOf(domain)?.pid ?? null;
  }

  /** The PID of the clean spare runner, if one is up or starting. */
  sparePid(): number | null {
    return this.pool.spareRunner()?.pid ?? null;
  }

  /** Resolves once the spare is ready (false when there is none, or it failed to start). */
  async spareReady(): Promise<boolean> {
    const spare = this.pool.spareRunner();
    if (!spare) return false;
    return spare.ready.then(
      () => true,
      () => false,
    );
  }

  /** Starts the clean spare now if there is none, so the next new dashboard finds it ready. */
  prestart(): void {
    if (!this.closed) this.pool.prestart();
  }

  /** Dashboards holding a warm runner, least recently used first. */
  warmDomains(): string[] {
    return this.pool.warmDomains();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pool.close();
  }

  private async runOn(runner: RunnerProcess, code: string, globals: Record<string, unknown>): Promise<SandboxOutcome> {
    try {
      await runner.ready;
    } catch (error) {
      runner.kill();
      // The runner's stderr may name this installation's paths: it goes to the log, not to the caller.
      this.log?.warn('The Python runner could not start.', { error: (error as Error).message, stderr: error instanceof RunnerExited ? error.stderr : undefined });
      return { kind: 'unavailable', message: `The Python runtime could not start: ${(error as Error).message ?? String(error)}` };
    }
    const started = Date.now();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      runner.kill();
    }, this.limits.timeoutMs);
    try {
      const reply = await runner.run({ id: randomUUID(), code, globals });
      // A runtime that failed is not reused: the dashboard's next run takes the spare.
      if (!reply.ok && reply.broken) runner.kill();
      return outcomeOf(reply, Date.now() - started);
    } catch (error) {
      runner.kill();
      if (error instanceof ProtocolError) this.log?.warn('The Python runner broke the protocol and was stopped.', { error: error.message });
      return timedOut ? { kind: 'timeout' } : failureOutcome(error);
    } finally {
      clearTimeout(timer);
    }
  }
}

function outcomeOf(reply: RunReply, durationMs: number): SandboxOutcome {
  if (reply.ok) {
    return { kind: 'ok', result: reply.resultJson === null ? null : parseResult(reply.resultJson), stdout: reply.stdout, stderr: reply.stderr, durationMs };
  }
  // Python's heap refused to grow, or the process's memory limit refused a JavaScript copy of Python data.
  if (reply.errorType === 'MemoryError' || /RangeError: Array buffer allocation failed/.test(reply.traceback)) {
    return { kind: 'memory', message: reply.message, stdout: reply.stdout };
  }
  return { kind: 'error', errorType: reply.errorType, message: reply.message, traceback: reply.traceback, stdout: reply.stdout, stderr: reply.stderr };
}

/** The runner's `result`: JSON it wrote itself, so JSON that does not parse is a violation. */
function parseResult(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    throw new ProtocolError('The Python runner wrote a result that is not JSON.');
  }
}

function failureOutcome(error: unknown): SandboxOutcome {
  if (error instanceof RunnerExited && error.outOfMemory) {
    return { kind: 'memory', message: 'The Python process ran out of memory and was stopped.', stdout: '' };
  }
  const errorType = error instanceof ProtocolError ? 'SandboxViolation' : error instanceof RunnerExited ? 'RunnerExited' : 'RunnerFailed';
  const message = `${errorType}: ${(error as Error).message}`;
  return { kind: 'error', errorType, message, traceback: message, stdout: '', stderr: '' };
}

/** The real file behind a path (Node's permission model checks the paths modules resolve to). */
const onDisk = (path: string) => realpathSync(unpackedPath(path));

let linuxTools: Promise<{ prlimit: string | null; unshare: string | null }> | null = null;

/** prlimit and unshare, where they exist and work for this user (probed once per service). */
export function probeLinuxTools(): Promise<{ prlimit: string | null; unshare: string | null }> {
  if (process.platform !== 'linux') return Promise.resolve({ prlimit: null, unshare: null });
  const find = (name: string) => ['/usr/bin', '/bin'].map((dir) => `${dir}/${name}`).find((path) => existsSync(path)) ?? null;
  const works = (path: string | null, args: string[]) =>
    new Promise<string | null>((resolve) => {
      if (!path) return resolve(null);
      execFile(path, args, { env: { PATH: '/usr/bin:/bin' }, timeout: 5_000 }, (error) => resolve(error ? null : path));
    });
  return (linuxTools ??= Promise.all([works(find('prlimit'), ['--cpu=5', 'true']), works(find('unshare'), ['--map-root-user', '--net', 'true'])]).then(
    ([prlimit, unshare]) => ({ prlimit, unshare }),
  ));
}

/** What the service's runner is started from: its own runtime and environment, the bundled runner, Pyodide's files. */
export async function serviceLaunchInput(limits: SandboxLimits): Promise<RunnerLaunchInput> {
  return {
    execPath: process.execPath,
    electronVersion: process.versions.electron,
    platform: process.platform,
    env: process.env,
    runnerFile: onDisk(runnerEntry),
    pyodideDir: onDisk(dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))),
    memoryLimitBytes: limits.memoryLimitBytes,
    heapLimitMb: HEAP_LIMIT_MB,
    cpuSeconds: CPU_SECONDS,
    dataLimitBytes: limits.memoryLimitBytes + HEAP_LIMIT_MB * 1024 * 1024 + RUNTIME_DATA_BYTES,
    ...(await probeLinuxTools()),
  };
}

async function defaultLaunch(limits: SandboxLimits): Promise<RunnerLaunch> {
  return runnerLaunch(await serviceLaunchInput(limits));
}

/** The service's sandbox (created on first use, closed with the service). Test seam: `ctx.services.pythonSandbox`. */
export function pythonSandbox(ctx: ServiceContext): PythonSandbox {
  const existing = ctx.services.pythonSandbox;
  if (existing instanceof PythonSandbox) return existing;
  const sandbox = new PythonSandbox(DEFAULT_LIMITS, { log: ctx.log });
  ctx.services.pythonSandbox = sandbox;
  ctx.onClose(() => sandbox.close());
  return sandbox;
}
