/**
 * Queries in flight, in memory: each has an id, progress, an abort controller and, once done, its
 * outcome. The data API finds a running query again by its key (same model, same user rights, same
 * query) so a client polling after `Continue wait` picks up the same run; the data preview polls
 * and cancels runs by id. Finished runs stay a while (results for 10 minutes; joinable by key for
 * 30 seconds, so a reload after new data runs afresh), bounded in number.
 */
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../../context';

export type RunStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

export interface RunControl {
  signal: AbortSignal;
  progress(stage: string, percent: number): void;
}

export interface Run<T> {
  id: string;
  key: string | null;
  deploymentId: number;
  userId: number | null;
  branch: string;
  status: RunStatus;
  progress: { stage: string; percentComplete: number };
  startedAt: Date;
  finishedAt: Date | null;
  value?: T;
  error?: unknown;
  /** Resolves when the run ends, whatever the outcome. */
  done: Promise<void>;
  controller: AbortController;
}

const KEEP_MS = 10 * 60 * 1000;
const JOINABLE_MS = 30 * 1000;
const MAX_RUNS = 200;

export class QueryRuns {
  private readonly runs = new Map<string, Run<unknown>>();
  private readonly byKey = new Map<string, string>();

  constructor(private readonly now: () => Date) {}

  /** Starts `task`, or returns the run already going (or just finished) under `key`. */
  start<T>(
    init: { key: string | null; deploymentId: number; userId: number | null; branch: string },
    task: (control: RunControl) => Promise<T>,
    onJoined?: () => void,
  ): Run<T> {
    this.sweep();
    if (init.key !== null) {
      const existing = this.runs.get(this.byKey.get(init.key) ?? '');
      const fresh = existing && (existing.status === 'RUNNING' || (existing.status === 'COMPLETED' && this.now().getTime() - existing.finishedAt!.getTime() < JOINABLE_MS));
      if (fresh) {
        onJoined?.();
        return existing as Run<T>;
      }
    }
    const controller = new AbortController();
    const run: Run<T> = {
      id: randomUUID(),
      ...init,
      status: 'RUNNING',
      progress: { stage: 'queued', percentComplete: 0 },
      startedAt: this.now(),
      finishedAt: null,
      controller,
      done: Promise.resolve(),
    };
    const control: RunControl = {
      signal: controller.signal,
      progress: (stage, percent) => {
        if (run.status === 'RUNNING') run.progress = { stage, percentComplete: Math.max(0, Math.min(100, Math.round(percent))) };
      },
    };
    run.done = Promise.resolve()
      .then(() => task(control))
      .then(
        (value) => {
          if (run.status !== 'RUNNING') return;
          run.value = value;
          run.status = 'COMPLETED';
          run.progress = { stage: 'done', percentComplete: 100 };
        },
        (error: unknown) => {
          if (run.status !== 'RUNNING') return;
          run.error = error;
          run.status = controller.signal.aborted ? 'CANCELLED' : 'FAILED';
        },
      )
      .finally(() => {
        run.finishedAt ??= this.now();
      });
    this.runs.set(run.id, run as Run<unknown>);
    if (init.key !== null) this.byKey.set(init.key, run.id);
    return run;
  }

  get<T>(id: string): Run<T> | undefined {
    this.sweep();
    return this.runs.get(id) as Run<T> | undefined;
  }

  /** Waits for the run to end, at most `ms`; true when it ended. */
  async wait(run: Run<unknown>, ms: number): Promise<boolean> {
    if (run.status !== 'RUNNING') return true;
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([run.done.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
    clearTimeout(timer);
    return ended;
  }

  /** Stops a running query: the engine is interrupted, the run ends CANCELLED. */
  cancel(run: Run<unknown>): void {
    if (run.status !== 'RUNNING') return;
    run.status = 'CANCELLED';
    run.finishedAt = this.now();
    run.controller.abort();
  }

  cancelAll(): void {
    for (const run of this.runs.values()) this.cancel(run);
  }

  private sweep(): void {
    const now = this.now().getTime();
    for (const [id, run] of this.runs) {
      const old = run.finishedAt !== null && now - run.finishedAt.getTime() > KEEP_MS;
      if (old || (this.runs.size > MAX_RUNS && run.status !== 'RUNNING')) {
        this.runs.delete(id);
        if (run.key !== null && this.byKey.get(run.key) === id) this.byKey.delete(run.key);
      }
    }
  }
}

export function queryRunsOf(ctx: ServiceContext): QueryRuns {
  let runs = ctx.services.queryRuns as QueryRuns | undefined;
  if (!runs) {
    runs = new QueryRuns(() => ctx.clock.now());
    ctx.services.queryRuns = runs;
    const registered = runs;
    ctx.onClose(() => registered.cancelAll());
  }
  return runs;
}
