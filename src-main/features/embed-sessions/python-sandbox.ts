// The Python sandbox: one warm Pyodide thread (workers/python-worker.ts) that runs one script at
// a time with a time and a memory limit. Loading Pyodide takes seconds, so the thread starts on
// the first run and is kept while runs come; it ends after a while without any, and is replaced
// when a runaway script had to be stopped by terminating it.
import { Worker } from 'node:worker_threads';
import type { ServiceContext } from '../../context';
import pythonEntry from '../../workers/python-worker?modulePath';
import type { PythonRunMessage, PythonRunReply, PythonWorkerData } from '../../workers/python-worker';

export interface SandboxLimits {
  timeoutMs: number;
  memoryLimitBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { timeoutMs: 10_000, memoryLimitBytes: 256 * 1024 * 1024 };
/** How long an interrupted script gets to stop before its thread is terminated. */
const INTERRUPT_GRACE_MS = 2_000;
const IDLE_MS = 10 * 60_000;
const START_TIMEOUT_MS = 120_000;

export type SandboxOutcome =
  | { kind: 'ok'; result: unknown; stdout: string; stderr: string; durationMs: number }
  | { kind: 'error'; errorType: string; message: string; traceback: string; stdout: string; stderr: string }
  | { kind: 'timeout'; stdout: string }
  | { kind: 'memory'; message: string; stdout: string }
  | { kind: 'unavailable'; message: string };

interface Running {
  worker: Worker;
  interrupt: Uint8Array;
  ready: Promise<void>;
}

export class PythonSandbox {
  private current: Running | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | null = null;
  private nextId = 1;
  private closed = false;

  constructor(readonly limits: SandboxLimits = DEFAULT_LIMITS) {}

  /** Runs `code` with `globals` bound; runs queue behind each other on the one thread. */
  run(code: string, globals: Record<string, unknown>): Promise<SandboxOutcome> {
    const next = this.queue.then(() => this.runNow(code, globals));
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idle) clearTimeout(this.idle);
    const running = this.current;
    this.current = null;
    if (running) await running.worker.terminate();
  }

  private thread(): Running {
    if (this.current) return this.current;
    const shared = new SharedArrayBuffer(1);
    const workerData: PythonWorkerData = { interrupt: shared, memoryLimitBytes: this.limits.memoryLimitBytes };
    // The JS heap of the thread is bounded too (Pyodide's own objects live there).
    const worker = new Worker(pythonEntry, { workerData, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('Pyodide did not start in time.')), START_TIMEOUT_MS);
      worker.once('message', (message: { ready: boolean; message?: string }) => {
        clearTimeout(timer);
        if (message.ready) resolve();
        else reject(new Error(message.message ?? 'Pyodide did not start.'));
      });
      worker.once('error', (error) => (clearTimeout(timer), reject(error)));
    });
    ready.catch(() => undefined);
    const running: Running = { worker, interrupt: new Uint8Array(shared), ready };
    worker.on('exit', () => {
      if (this.current === running) this.current = null;
    });
    worker.unref();
    this.current = running;
    return running;
  }

  private async runNow(code: string, globals: Record<string, unknown>): Promise<SandboxOutcome> {
    if (this.closed) return { kind: 'unavailable', message: 'The service is stopping.' };
    if (this.idle) clearTimeout(this.idle);
    const running = this.thread();
    try {
      await running.ready;
    } catch (error) {
      await this.discard(running);
      return { kind: 'unavailable', message: `The Python runtime could not start: ${(error as Error).message}` };
    }
    const started = Date.now();
    const id = this.nextId++;
    const outcome = await new Promise<SandboxOutcome>((resolve) => {
      let settled = false;
      const finish = (value: SandboxOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(soft);
        clearTimeout(hard);
        running.worker.off('message', onMessage);
        running.worker.off('exit', onExit);
        resolve(value);
      };
      const onMessage = (reply: PythonRunReply) => {
        if (reply.id !== id) return;
        if (reply.ok) {
          finish({ kind: 'ok', result: reply.resultJson === null ? null : JSON.parse(reply.resultJson), stdout: reply.stdout, stderr: reply.stderr, durationMs: Date.now() - started });
        } else if (reply.errorType === 'KeyboardInterrupt' && timedOut) {
          finish({ kind: 'timeout', stdout: reply.stdout });
        } else if (reply.errorType === 'MemoryError') {
          finish({ kind: 'memory', message: reply.message, stdout: reply.stdout });
        } else {
          finish({ kind: 'error', errorType: reply.errorType, message: reply.message, traceback: reply.traceback, stdout: reply.stdout, stderr: reply.stderr });
        }
      };
      const onExit = () => finish(timedOut ? { kind: 'timeout', stdout: '' } : { kind: 'memory', message: 'The Python thread ran out of memory and was stopped.', stdout: '' });
      let timedOut = false;
      // Ask Python to stop (KeyboardInterrupt at its next bytecode) …
      const soft = setTimeout(() => {
        timedOut = true;
        Atomics.store(running.interrupt, 0, 2);
      }, this.limits.timeoutMs);
      // … and stop the thread when it does not (a script stuck in C code).
      const hard = setTimeout(() => {
        timedOut = true;
        void this.discard(running);
        finish({ kind: 'timeout', stdout: '' });
      }, this.limits.timeoutMs + INTERRUPT_GRACE_MS);
      running.worker.on('message', onMessage);
      running.worker.once('exit', onExit);
      const message: PythonRunMessage = { id, code, globals };
      running.worker.postMessage(message);
    });
    if (!this.closed) this.idle = setTimeout(() => void this.discard(this.current), IDLE_MS).unref();
    return outcome;
  }

  private async discard(running: Running | null): Promise<void> {
    if (!running) return;
    if (this.current === running) this.current = null;
    await running.worker.terminate().catch(() => undefined);
  }
}

/** The service's sandbox (created on first use, closed with the service). Test seam: `ctx.services.pythonSandbox`. */
export function pythonSandbox(ctx: ServiceContext): PythonSandbox {
  const existing = ctx.services.pythonSandbox;
  if (existing instanceof PythonSandbox) return existing;
  const sandbox = new PythonSandbox(DEFAULT_LIMITS);
  ctx.services.pythonSandbox = sandbox;
  ctx.onClose(() => sandbox.close());
  return sandbox;
}
