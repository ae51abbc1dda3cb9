/**
 * Calls `fn` once this process's parent has exited (the process was re-parented).
 *
 * `npm start` and `npm run serve` run through `sh -c`; npm passes a SIGTERM or SIGINT on only to
 * that shell, which dies without passing it further. The launchers set DRYDOCK_STOP_WITH_PARENT so
 * the service then stops as if it had been sent SIGTERM, instead of serving on as an orphan.
 * Polled, because no portable event says a parent has gone; the timer keeps nothing alive.
 */
export function onParentExit(fn: () => void, intervalMs = 250): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    fn();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
