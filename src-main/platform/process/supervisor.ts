/**
 * Keeps the desktop app's service process running: spawns it, waits for its ready message (URL
 * and a session token), notices when it dies, restarts it with a growing delay, gives up when it
 * keeps dying before it ever serves, and stops it cleanly. Free of Electron: the spawner is
 * injected (Electron's `utilityProcess.fork` in the app, `child_process.fork` in tests).
 */
import { parseChildMessage, type ChildMessage, type DesktopSession, type ParentMessage, type ServiceProcessOptions } from './service-protocol';

/** The part of a child process the supervisor uses. */
export interface ServiceChild {
  postMessage(message: ParentMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  /** `code` null when the process was killed by a signal (then `signal` names it, where known). */
  onExit(listener: (code: number | null, signal?: string | null) => void): void;
  kill(): void;
}

export type SpawnServiceChild = () => ServiceChild;

export type SupervisorEvent =
  | { type: 'starting'; attempt: number }
  | { type: 'ready'; url: string; restarted: boolean }
  /** The service process ended without being asked to; it starts again after `restartInMs`. */
  | { type: 'crashed'; reason: string; restartInMs: number }
  /** It will not be started again (it keeps failing, or cannot start at all). */
  | { type: 'gave-up'; reason: string }
  | { type: 'stopped' };

export interface SupervisorOptions {
  spawn: SpawnServiceChild;
  service: ServiceProcessOptions;
  onEvent?: (event: SupervisorEvent) => void;
  /** How long a start may take before the process is killed and started again (default 60 s). */
  readyTimeoutMs?: number;
  /** How long `stop()` waits for a clean exit before killing (default 15 s). */
  stopTimeoutMs?: number;
  /** First restart delay, doubled per failure in a row up to `maxBackoffMs` (default 500 ms, 30 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** A process that served this long resets the failure count (default 60 s). */
  stableAfterMs?: number;
  /** Failures in a row after which the supervisor gives up (default 6). */
  maxFailures?: number;
  /** How long a session request may take (default 15 s). */
  requestTimeoutMs?: number;
}

export interface ServiceConnection {
  url: string;
  session: DesktopSession;
}

interface Pending<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

export class ServiceSupervisor {
  private child: ServiceChild | null = null;
  private connection: ServiceConnection | null = null;
  private attempt = 0;
  private failures = 0;
  private readySince = 0;
  private lastPort = 0;
  private readyTimer: NodeJS.Timeout | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopping: Promise<void> | null = null;
  private gaveUp: string | null = null;
  /** Why the current process could not start, as it said before it was stopped. */
  private lastFailure: string | null = null;
  private readyWaiters: Pending<ServiceConnection>[] = [];
  private sessionRequests = new Map<number, Pending<DesktopSession>>();
  private nextRequestId = 1;

  constructor(private readonly options: SupervisorOptions) {}

  /** Starts the service process; resolves once it serves (rejects if the supervisor gives up first). */
  start(): Promise<ServiceConnection> {
    if (!this.child && !this.restartTimer && !this.stopping && !this.gaveUp) this.launch();
    return this.whenReady();
  }

  /** The serving process's URL and its latest session, or null while none serves. */
  current(): ServiceConnection | null {
    return this.connection;
  }

  /** Resolves once a process serves. */
  whenReady(): Promise<ServiceConnection> {
    if (this.connection) return Promise.resolve(this.connection);
    if (this.gaveUp) return Promise.reject(new Error(this.gaveUp));
    if (this.stopping) return Promise.reject(new Error('The service is stopping.'));
    return new Promise((resolve, reject) => this.readyWaiters.push({ resolve, reject }));
  }

  /** A fresh session from the serving process (the previous one is revoked). */
  async renewSession(): Promise<ServiceConnection> {
    const connection = await this.whenReady();
    const child = this.child!;
    const requestId = this.nextRequestId++;
    const session = await new Promise<DesktopSession>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.sessionRequests.delete(requestId);
        reject(new Error('The service did not answer the session request in time.'));
      }, this.options.requestTimeoutMs ?? 15_000);
      this.sessionRequests.set(requestId, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      child.postMessage({ type: 'session', requestId });
    });
    if (this.connection?.url === connection.url) this.connection = { url: connection.url, session };
    return { url: connection.url, session };
  }

  /** After the supervisor gave up: clears the failure count and starts the service process again. */
  retry(): Promise<ServiceConnection> {
    if (this.gaveUp && !this.stopping) {
      this.gaveUp = null;
      this.failures = 0;
      this.launch();
    }
    return this.whenReady();
  }

  /** Asks the process to stop, waits for it to exit (killing it after the timeout), restarts nothing. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.clearTimers();
      this.failWaiters(new Error('The service is stopping.'));
      const child = this.child;
      if (child) {
        const exited = new Promise<void>((resolve) => child.onExit(() => resolve()));
        try {
          child.postMessage({ type: 'stop' });
        } catch {
          child.kill();
        }
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          exited.then(() => false),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.options.stopTimeoutMs ?? 15_000))),
        ]);
        clearTimeout(timer);
        if (timedOut) {
          child.kill();
          await exited;
        }
      }
      this.child = null;
      this.connection = null;
      this.emit({ type: 'stopped' });
    })();
    return this.stopping;
  }

  // ---- internals --------------------------------------------------------------------------

  private launch(): void {
    this.restartTimer = null;
    this.attempt++;
    this.emit({ type: 'starting', attempt: this.attempt });
    let child: ServiceChild;
    try {
      child = this.options.spawn();
    } catch (error) {
      this.onEnded(`the service process could not be started: ${(error as Error).message}`);
      return;
    }
    this.child = child;
    let ended = false;
    child.onMessage((raw) => {
      const message = parseChildMessage(raw);
      if (message && this.child === child) this.onMessage(child, message);
    });
    child.onExit((code, signal) => {
      if (ended) return;
      ended = true;
      if (this.child !== child) return;
      this.child = null;
      this.onEnded(signal ? `it was killed (${signal})` : code === null ? 'it was killed' : `it exited with code ${code}`);
    });
    this.readyTimer = setTimeout(() => {
      this.readyTimer = null;
      if (this.child === child && !this.connection) child.kill();
    }, this.options.readyTimeoutMs ?? 60_000);
    child.postMessage({ type: 'start', options: { ...this.options.service, port: this.lastPort || this.options.service.port } });
  }

  private onMessage(child: ServiceChild, message: ChildMessage): void {
    switch (message.type) {
      case 'ready': {
        if (this.readyTimer) clearTimeout(this.readyTimer);
        this.readyTimer = null;
        this.connection = { url: message.url, session: message.session };
        this.readySince = Date.now();
        this.lastPort = Number(new URL(message.url).port) || 0;
        this.emit({ type: 'ready', url: message.url, restarted: this.attempt > 1 });
        for (const waiter of this.readyWaiters.splice(0)) waiter.resolve(this.connection);
        return;
      }
      case 'session':
        this.sessionRequests.get(message.requestId)?.resolve(message.session);
        this.sessionRequests.delete(message.requestId);
        return;
      case 'session-failed':
        this.sessionRequests.get(message.requestId)?.reject(new Error(message.message));
        this.sessionRequests.delete(message.requestId);
        return;
      case 'start-failed':
        if (!message.retry) this.gaveUp = `The service cannot start: ${message.message}`;
        this.lastFailure = message.message;
        child.kill();
        return;
    }
  }

  private onEnded(how: string): void {
    if (this.readyTimer) clearTimeout(this.readyTimer);
    this.readyTimer = null;
    const wasServing = this.connection !== null;
    this.connection = null;
    for (const request of this.sessionRequests.values()) request.reject(new Error('The service process ended.'));
    this.sessionRequests.clear();
    if (this.stopping) return;
    const reason = this.lastFailure ? `${this.lastFailure} (${how})` : wasServing ? `The service stopped unexpectedly: ${how}.` : `The service did not start: ${how}.`;
    this.lastFailure = null;
    // A process that served for a while starts the count afresh; quick deaths add up.
    if (wasServing && Date.now() - this.readySince >= (this.options.stableAfterMs ?? 60_000)) this.failures = 0;
    this.failures++;
    if (!this.gaveUp && this.failures >= (this.options.maxFailures ?? 6)) {
      this.gaveUp = `${reason} It failed ${this.failures} times in a row; Drydock stopped restarting it.`;
    }
    if (this.gaveUp) {
      this.emit({ type: 'gave-up', reason: this.gaveUp });
      this.failWaiters(new Error(this.gaveUp));
      return;
    }
    const delay = Math.min(this.options.maxBackoffMs ?? 30_000, (this.options.backoffMs ?? 500) * 2 ** (this.failures - 1));
    this.emit({ type: 'crashed', reason, restartInMs: delay });
    this.restartTimer = setTimeout(() => this.launch(), delay);
  }

  private failWaiters(error: Error): void {
    for (const waiter of this.readyWaiters.splice(0)) waiter.reject(error);
  }

  private clearTimers(): void {
    if (this.readyTimer) clearTimeout(this.readyTimer);
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.readyTimer = null;
    this.restartTimer = null;
  }

  private emit(event: SupervisorEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // A listener's failure must not stop supervision.
    }
  }
}
