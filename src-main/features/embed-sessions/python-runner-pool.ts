// Python runners bound to trust domains (issue 23). A warm runner keeps whatever a script leaves in
// it — patched modules, `builtins`, globals of `__main__`, a profile hook, the JavaScript side — and
// a later script in the same runner sees it. So a runner that has run a script of one trust domain
// (a dashboard: the people who can edit its code) only ever runs scripts of that domain again; a
// hook planted by one dashboard's editor never sees another dashboard's filters.
//
//   spare   one clean runner, started ahead of need, that has never run a script: the first run
//           of a dashboard without a runner takes it (no cold start), and another spare starts
//           once the taken one is ready (so two Pyodide loads do not compete for the CPU)
//   lanes   one per dashboard: its runner and its queue (its runs go one at a time); at most
//           `warm` lanes keep a runner, the least recently used one's is ended first
//   slots   runs of different dashboards at once, at most `concurrency`
//
// Runners end after `idleMs` without a run of theirs (the spare after `idleMs` without any run), so
// an unused service holds no runner. A runner that died (time limit, crash, protocol violation) is
// simply not there any more: its dashboard's next run takes the spare.
import type { RunnerProcess } from './python-runner-process';

export interface PoolSettings {
  /** Dashboards whose runner is kept warm, at most (the spare not counted). Never below `concurrency`. */
  warm: number;
  /** Clean runners kept started ahead of need: 0 or 1. */
  spares: number;
  /** Runs of different dashboards at the same time, at most. */
  concurrency: number;
  /** A dashboard's runner is ended after this long without its runs; the spare after this long without any run. */
  idleMs: number;
}

/** The pool was closed (the service is stopping) before the run could start. */
export class PoolClosed extends Error {
  constructor() {
    super('The service is stopping.');
  }
}

interface Lane {
  domain: string;
  runner: RunnerProcess | null;
  /** The tail of this dashboard's queue. */
  queue: Promise<unknown>;
  /** Runs queued or in flight. */
  pending: number;
  /** A run of this dashboard holds a slot and the runner right now: its runner cannot be ended for room. */
  active: boolean;
  idle: NodeJS.Timeout | null;
}

export class RunnerPool {
  /** In order of last use, least recent first (a Map keeps insertion order; a use re-inserts). */
  private readonly lanes = new Map<string, Lane>();
  private spare: RunnerProcess | null = null;
  private freeSlots: number;
  private readonly waiting: (() => void)[] = [];
  private spareIdle: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly settings: PoolSettings;

  constructor(
    settings: PoolSettings,
    private readonly start: () => RunnerProcess,
  ) {
    const concurrency = Math.max(1, Math.floor(settings.concurrency));
    // Every run in flight holds a runner: fewer warm runners than runs at once could not be kept.
    this.settings = { ...settings, concurrency, warm: Math.max(concurrency, Math.floor(settings.warm)) };
    this.freeSlots = concurrency;
  }

  /** Runs `task` with `domain`'s runner, after that domain's earlier runs and within the concurrency cap. */
  use<T>(domain: string, task: (runner: RunnerProcess) => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new PoolClosed());
    const lane = this.touch(domain);
    lane.pending++;
    const next = lane.queue.then(() => this.runInSlot(lane, task));
    lane.queue = next.catch(() => undefined);
    return next.finally(() => {
      lane.pending--;
      this.afterRun(lane);
    });
  }

  /** Starts the spare now if there is none (a caller expecting runs soon). */
  prestart(): void {
    this.refillSpare();
  }

  /** The live runner of `domain`, if it has one. */
  runnerOf(domain: string): RunnerProcess | null {
    return live(this.lanes.get(domain)?.runner ?? null);
  }

  /** The clean spare, if one is up or starting. */
  spareRunner(): RunnerProcess | null {
    return live(this.spare);
  }

  /** Dashboards holding a live runner, least recently used first. */
  warmDomains(): string[] {
    return [...this.lanes.values()].filter((lane) => live(lane.runner)).map((lane) => lane.domain);
  }

  close(): void {
    this.closed = true;
    if (this.spareIdle) clearTimeout(this.spareIdle);
    this.spare?.kill();
    this.spare = null;
    for (const lane of this.lanes.values()) this.endRunner(lane);
    // Runs waiting for a slot go on, find the pool closed and fail with PoolClosed.
    for (const wake of this.waiting.splice(0)) wake();
  }

  private touch(domain: string): Lane {
    let lane = this.lanes.get(domain);
    if (lane) this.lanes.delete(domain);
    else lane = { domain, runner: null, queue: Promise.resolve(), pending: 0, active: false, idle: null };
    this.lanes.set(domain, lane);
    if (lane.idle) clearTimeout(lane.idle);
    lane.idle = null;
    if (this.spareIdle) clearTimeout(this.spareIdle);
    this.spareIdle = null;
    return lane;
  }

  private async runInSlot<T>(lane: Lane, task: (runner: RunnerProcess) => Promise<T>): Promise<T> {
    await this.takeSlot();
    lane.active = true;
    try {
      if (this.closed) throw new PoolClosed();
      return await task(this.runnerFor(lane));
    } finally {
      lane.active = false;
      this.releaseSlot();
      // A run that ended holds its runner no longer: a lane over the limit can give its runner up now.
      this.endLeastRecentlyUsed();
    }
  }

  /** The lane's runner; or the spare (clean), bound to the lane from now on; or a fresh one. */
  private runnerFor(lane: Lane): RunnerProcess {
    const bound = live(lane.runner);
    if (bound) return bound;
    const spare = live(this.spare);
    this.spare = null;
    const runner = spare ?? this.start();
    lane.runner = runner;
    // The next new dashboard finds a spare; started once this runner is up, so the two loads do not
    // compete. A runtime that cannot start at all is not retried in a loop: only the next run retries.
    runner.ready.then(
      () => this.refillSpare(),
      () => undefined,
    );
    this.endLeastRecentlyUsed();
    return runner;
  }

  private refillSpare(): void {
    if (this.closed || this.settings.spares < 1 || live(this.spare)) return;
    const spare = this.start();
    this.spare = spare;
    spare.ready.catch(() => {
      if (this.spare === spare) this.spare = null;
      spare.kill();
    });
    this.armSpareIdle();
  }

  /** Ends the runners of the least recently used lanes until at most `warm` hold one (a lane running now is skipped). */
  private endLeastRecentlyUsed(): void {
    const holding = [...this.lanes.values()].filter((lane) => live(lane.runner));
    let excess = holding.length - this.settings.warm;
    for (const lane of holding) {
      if (excess <= 0) return;
      if (lane.active) continue;
      this.endRunner(lane);
      excess--;
    }
  }

  private endRunner(lane: Lane): void {
    lane.runner?.kill();
    lane.runner = null;
    if (lane.idle) clearTimeout(lane.idle);
    lane.idle = null;
    if (lane.pending === 0) this.lanes.delete(lane.domain);
  }

  private afterRun(lane: Lane): void {
    if (lane.pending > 0 || this.closed) return;
    if (!live(lane.runner)) {
      this.endRunner(lane);
    } else {
      lane.idle = setTimeout(() => this.endRunner(lane), this.settings.idleMs);
      lane.idle.unref();
    }
    this.armSpareIdle();
  }

  private armSpareIdle(): void {
    if (this.spareIdle) clearTimeout(this.spareIdle);
    this.spareIdle = setTimeout(() => {
      this.spare?.kill();
      this.spare = null;
    }, this.settings.idleMs);
    this.spareIdle.unref();
  }

  private takeSlot(): Promise<void> {
    if (this.freeSlots > 0) {
      this.freeSlots--;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private releaseSlot(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.freeSlots++;
  }
}

const live = (runner: RunnerProcess | null): RunnerProcess | null => (runner && !runner.ended ? runner : null);
