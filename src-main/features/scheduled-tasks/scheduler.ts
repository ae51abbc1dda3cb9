import type { ServiceContext } from '../../context';
import { WakeTimerScheduler } from '../../platform/jobs/wake-timer';
import { enqueueRun } from './runs';
import { nextRunOf, scheduledTasksEnabled, type TaskRow } from './tasks';

/** Longest sleep between checks: tasks created by other processes are picked up within it. */
const MAX_SLEEP_MS = 30_000;
const BATCH = 100;

/**
 * Fires due tasks: a timer wakes at the earliest `next_run_at` (or every 30 s), and each due task
 * is claimed by moving its `next_run_at` forward with a compare-and-set, in the same transaction
 * that inserts its run and queues the job. So a scheduled time runs exactly once, even with
 * several processes on one data dir. Times missed while the service was down fire once (a single
 * catch-up run), not once per missed slot.
 */
export class TaskScheduler extends WakeTimerScheduler {
  constructor(private readonly ctx: ServiceContext) {
    super({
      clock: ctx.clock,
      maxSleepMs: MAX_SLEEP_MS,
      nextDueAt: () =>
        (ctx.db.prepare('SELECT MIN(next_run_at) AS at FROM scheduled_tasks WHERE next_run_at IS NOT NULL').get() as { at: string | null }).at,
      onError: (error) => ctx.log.error('scheduled tasks: firing due tasks failed', { error: error.message }),
    });
  }

  /** Fires every task due at the clock's now; returns how many runs it queued. */
  tick(): number {
    if (!scheduledTasksEnabled(this.ctx)) return 0;
    const { db, clock } = this.ctx;
    let fired = 0;
    for (;;) {
      const now = clock.now();
      const due = db
        .prepare('SELECT * FROM scheduled_tasks WHERE next_run_at IS NOT NULL AND next_run_at <= ? ORDER BY next_run_at, seq LIMIT ?')
        .all(now.toISOString(), BATCH) as TaskRow[];
      for (const task of due) if (this.fire(task, now)) fired++;
      if (due.length < BATCH) return fired;
    }
  }

  private fire(task: TaskRow, now: Date): boolean {
    const { db } = this.ctx;
    return db.transaction(() => {
      const scheduledFor = task.next_run_at!;
      const claimed = db
        .prepare('UPDATE scheduled_tasks SET next_run_at = ?, last_run_at = ? WHERE id = ? AND next_run_at = ?')
        .run(nextRunOf(task, now), now.toISOString(), task.id, scheduledFor);
      if (claimed.changes === 0) return false; // another process fired it, or the schedule changed meanwhile
      return enqueueRun(this.ctx, task, 'scheduled', scheduledFor, task.user_id) !== null;
    })();
  }
}

/** The scheduler of this service (created with the area's routes). */
export function getTaskScheduler(ctx: ServiceContext): TaskScheduler {
  let scheduler = ctx.services.scheduledTaskScheduler;
  if (!(scheduler instanceof TaskScheduler)) {
    scheduler = new TaskScheduler(ctx);
    ctx.services.scheduledTaskScheduler = scheduler;
  }
  return scheduler as TaskScheduler;
}
