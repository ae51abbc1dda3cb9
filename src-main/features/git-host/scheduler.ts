import type { ServiceContext } from '../../context';
import { WakeTimerScheduler } from '../../platform/jobs/wake-timer';
import { fetchUpstream } from '../data-model';

/** Longest sleep between checks: connections changed by other processes are picked up within it. */
const MAX_SLEEP_MS = 60_000;

/**
 * Background fetch: a timer wakes at the earliest `next_fetch_at` of the connections, claims each
 * due one by moving its `next_fetch_at` forward with a compare-and-set (so several processes on one
 * data dir fetch once), and starts the fetch off the request path. A fetch's outcome lands on the
 * connection (`lastFetchAt`, `lastFetchError`); a running fetch is cancelled with
 * `DELETE …/git-host/fetch` or when the service stops. Interval 0 turns it off for a connection.
 */
export class FetchScheduler extends WakeTimerScheduler {
  constructor(private readonly ctx: ServiceContext) {
    super({
      clock: ctx.clock,
      maxSleepMs: MAX_SLEEP_MS,
      nextDueAt: () =>
        (ctx.db.prepare('SELECT MIN(next_fetch_at) AS at FROM git_host_connections WHERE fetch_interval_seconds > 0').get() as { at: string | null }).at,
      onError: (error) => ctx.log.error('background git fetch: starting due fetches failed', { error: error.message }),
    });
  }

  /** Starts the fetch of every connection due at `now`; returns their deployment ids. */
  tick(now: Date = this.ctx.clock.now()): number[] {
    const { db } = this.ctx;
    const due = db
      .prepare('SELECT deployment_id, fetch_interval_seconds, next_fetch_at FROM git_host_connections WHERE fetch_interval_seconds > 0 AND next_fetch_at <= ?')
      .all(now.toISOString()) as { deployment_id: number; fetch_interval_seconds: number; next_fetch_at: string }[];
    const started: number[] = [];
    for (const row of due) {
      const next = new Date(now.getTime() + row.fetch_interval_seconds * 1000).toISOString();
      const claimed = db
        .prepare('UPDATE git_host_connections SET next_fetch_at = ? WHERE deployment_id = ? AND next_fetch_at = ?')
        .run(next, row.deployment_id, row.next_fetch_at);
      if (claimed.changes === 0) continue;
      started.push(row.deployment_id);
      // The outcome is recorded on the connection by the fetch listener; nothing to do here.
      fetchUpstream(this.ctx, row.deployment_id).catch(() => undefined);
    }
    return started;
  }
}

/** The background fetch scheduler of this service. */
export function getFetchScheduler(ctx: ServiceContext): FetchScheduler {
  let scheduler = ctx.services.gitFetchScheduler;
  if (!(scheduler instanceof FetchScheduler)) {
    scheduler = new FetchScheduler(ctx);
    ctx.services.gitFetchScheduler = scheduler;
  }
  return scheduler as FetchScheduler;
}
