// One Python runner process (workers/python-runner.ts) seen from the service: started from a
// RunnerLaunch (which may still be being worked out: the object exists at once, so the pool can
// hand it around), ready once Pyodide is loaded, then answering one run at a time. Everything it
// writes is untrusted: lines are capped and checked (workers/python-protocol.ts), and a runner that
// writes anything but the answer to the run in flight is ended.
import { spawn, type ChildProcess } from 'node:child_process';
import { LINE_CAP, LineSplitter, ProtocolError, readRunnerMessage, type RunReply, type RunRequest } from '../../workers/python-protocol';
import type { RunnerLaunch } from './python-launch';

/** How much of the runner's stderr is kept (its last characters), to explain a failed start or a crash. */
const STDERR_KEPT = 8 * 1024;

/** The runner ended while a run was in flight (or before it was ready). */
export class RunnerExited extends Error {
  constructor(
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly stderr: string,
  ) {
    super(`The Python process ended (${signal ? `signal ${signal}` : `exit code ${code}`}).`);
  }

  /** Whether the JavaScript heap limit (--max-old-space-size) ended it. */
  get outOfMemory(): boolean {
    return /heap out of memory|Reached heap limit|Out of memory/i.test(this.stderr);
  }
}

interface InFlight {
  id: string;
  resolve(reply: RunReply): void;
  reject(error: Error): void;
}

export class RunnerProcess {
  readonly ready: Promise<void>;
  private child: ChildProcess | null = null;
  private killed = false;
  private readonly lines = new LineSplitter(LINE_CAP);
  private state: 'starting' | 'ready' | 'ended' = 'starting';
  private inFlight: InFlight | null = null;
  private stderrTail = '';
  private settleReady!: { resolve(): void; reject(error: Error): void };
  private readonly exitListeners: (() => void)[] = [];

  constructor(launch: RunnerLaunch | Promise<RunnerLaunch>, startTimeoutMs: number) {
    this.ready = new Promise<void>((resolve, reject) => (this.settleReady = { resolve, reject }));
    this.ready.catch(() => undefined);
    const startTimer = setTimeout(() => this.fail(new Error('Pyodide did not start in time.')), startTimeoutMs);
    this.ready.then(() => clearTimeout(startTimer), () => clearTimeout(startTimer));
    Promise.resolve(launch).then(
      (how) => this.spawn(how),
      (error: unknown) => this.fail(error as Error),
    );
  }

  private spawn(launch: RunnerLaunch): void {
    if (this.state === 'ended' || this.killed) return;
    const child = spawn(launch.command, launch.args, { env: launch.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    this.child = child;
    child.stdout!.on('data', (chunk: Buffer) => this.onStdout(chunk));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => (this.stderrTail = (this.stderrTail + text).slice(-STDERR_KEPT)));
    // A runner that ends closes its pipes; writing to it then must not throw in the service.
    child.stdin!.on('error', () => undefined);
    child.on('error', (error) => this.fail(error));
    child.on('exit', (code, signal) => this.exited(code, signal));
    // An idle warm runner must not keep the service's event loop alive.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Ended, or being ended: no run may be sent to it any more. */
  get ended(): boolean {
    return this.state === 'ended' || this.killed;
  }

  onExit(listener: () => void): void {
    this.exitListeners.push(listener);
  }

  /** Sends one run; resolves with the runner's reply, rejects with RunnerExited or ProtocolError. */
  run(request: RunRequest): Promise<RunReply> {
    if (this.state !== 'ready' || this.killed || this.inFlight || !this.child) return Promise.reject(new Error('The Python runner is not ready for a run.'));
    const child = this.child;
    return new Promise<RunReply>((resolve, reject) => {
      this.inFlight = { id: request.id, resolve, reject };
      child.stdin!.write(`${JSON.stringify(request)}\n`);
    });
  }

  /** Ends the process at once (SIGKILL: a script stuck in a loop does not get to run any further). */
  kill(): void {
    this.killed = true;
    const child = this.child;
    if (!child) {
      // Not spawned yet (its launch is still being worked out): it never will be.
      this.fail(new Error('The Python runner was stopped before it started.'));
      return;
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private onStdout(chunk: Buffer): void {
    if (this.state === 'ended') return;
    try {
      for (const line of this.lines.push(chunk)) this.onLine(line);
    } catch (error) {
      // A protocol violation, or the runner's own account of why it could not start.
      this.fail(error as Error);
    }
  }

  private onLine(line: string): void {
    const message = readRunnerMessage(line);
    if ('ready' in message) {
      if (this.state !== 'starting') throw new ProtocolError('The Python runner announced its start twice.');
      if (!message.ready) throw new Error(message.message);
      this.state = 'ready';
      this.settleReady.resolve();
      return;
    }
    const inFlight = this.inFlight;
    if (!inFlight || message.id !== inFlight.id) throw new ProtocolError('The Python runner answered a run that was not asked.');
    this.inFlight = null;
    inFlight.resolve(message);
  }

  /** Ends the runner for a reason of the service's (a broken start, a protocol violation). */
  private fail(error: Error): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    this.kill();
    this.settleReady.reject(error);
    const inFlight = this.inFlight;
    this.inFlight = null;
    inFlight?.reject(error);
    // Never spawned: no exit event will come to say it is gone.
    if (!this.child) for (const listener of this.exitListeners) listener();
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    const exited = new RunnerExited(code, signal, this.stderrTail);
    if (this.state !== 'ended') {
      this.state = 'ended';
      this.settleReady.reject(exited);
      const inFlight = this.inFlight;
      this.inFlight = null;
      inFlight?.reject(exited);
    }
    for (const listener of this.exitListeners) listener();
  }
}
