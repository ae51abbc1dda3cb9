import { useId, useState } from 'react';
import { toShownError, type ShownError } from './errors';
import { newIdempotencyKey, type Replay } from './retry';
import { Button, ProblemBanner } from './ui';

/**
 * The Retry button of a failed job, whatever its kind: replays the request as a new job, is
 * disabled saying why when it cannot, and shows a failed retry (a line in lists, a banner on the
 * job page). The kind says what to send (`replayWith`) and how to start and open it (`start`).
 */
export function RetryControl<T>({
  replayWith,
  start,
  compact,
  label,
  ariaLabel,
  title,
  doing,
  buttonClassName,
}: {
  /** The request to send again with this key, or why it cannot be sent. */
  replayWith: (idempotencyKey: string) => Replay<T>;
  /** Sends the request and opens the new job. */
  start: (body: T) => Promise<void>;
  compact: boolean;
  label: string;
  ariaLabel: string;
  title: string;
  /** What a failed retry was doing, for its error ("Retrying the push"). */
  doing: string;
  buttonClassName?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  // One key per button: a double click (or an answer lost on the way) returns the same new job.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const reasonId = useId();
  const replay = replayWith(idempotencyKey);

  const retry = async () => {
    if (!replay.ok) return;
    setBusy(true);
    setError(null);
    try {
      await start(replay.body);
    } catch (e) {
      setError(toShownError(e, doing));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        className={buttonClassName}
        onClick={(e) => {
          e.stopPropagation();
          void retry();
        }}
        busy={busy}
        disabled={!replay.ok}
        title={replay.ok ? title : replay.reason}
        aria-label={compact ? ariaLabel : undefined}
        aria-describedby={replay.ok ? undefined : reasonId}
      >
        {compact ? 'Retry' : label}
      </Button>
      {!replay.ok && (
        <span id={reasonId} className={compact ? 'sr-only' : 'muted retry-reason'}>
          {replay.reason}
        </span>
      )}
      {error && (compact ? <span className="retry-error" role="alert">{error.detail}</span> : <ProblemBanner error={error} onDismiss={() => setError(null)} />)}
    </>
  );
}
