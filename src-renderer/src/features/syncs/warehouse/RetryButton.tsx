import { useId, useState } from 'react';
import { startWarehouseSemanticViewPull, startWarehouseSemanticViewSync, type StartPullInput, type StartPushInput, type SyncJob } from '../../../../../src-shared/api/warehouse-sync';
import { navigate } from '../../../app/router';
import { api } from '../../../app/session';
import { toShownError, type ShownError } from '../../../lib/errors';
import { Button, ProblemBanner } from '../../../lib/ui';
import { newIdempotencyKey, shortId } from '../data';
import { warehouseJobPath } from '../links';
import { offersRetry, warehouseReplay } from '../retry';
import { trackJob } from './jobs';

/**
 * "Retry" on a failed, partial or cancelled push or pull: sends its request again as a new job and
 * opens that job. Disabled, saying why, when the request cannot be replayed (its branch is gone…).
 */
export function RetryJobButton({
  deploymentId,
  job,
  branchExists,
  compact = false,
}: {
  deploymentId: number;
  job: SyncJob;
  branchExists: (name: string) => boolean | undefined;
  compact?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  // One key per button: a double click (or an answer lost on the way) returns the same new job.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const reasonId = useId();
  if (!offersRetry(job.status)) return null;
  const replay = warehouseReplay(job, branchExists, idempotencyKey);
  const verb = job.direction === 'push' ? 'push' : 'pull';

  const retry = async () => {
    if (!replay.ok) return;
    setBusy(true);
    setError(null);
    try {
      const params = { deploymentId };
      const started =
        job.direction === 'push'
          ? await api.call(startWarehouseSemanticViewSync, { params, body: replay.body as StartPushInput })
          : await api.call(startWarehouseSemanticViewPull, { params, body: replay.body as StartPullInput });
      trackJob(deploymentId, { syncJobId: started.syncJobId, direction: job.direction, status: 'QUEUED' });
      navigate(warehouseJobPath(deploymentId, job.direction, started.syncJobId));
    } catch (e) {
      setError(toShownError(e, `Retrying the ${verb}`));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        className={compact ? 'btn-small' : undefined}
        onClick={(e) => {
          e.stopPropagation();
          void retry();
        }}
        busy={busy}
        disabled={!replay.ok}
        title={replay.ok ? `Send the same ${verb} again as a new job` : replay.reason}
        aria-label={compact ? `Retry ${verb} ${shortId(job.syncJobId)}` : undefined}
        aria-describedby={replay.ok ? undefined : reasonId}
      >
        {compact ? 'Retry' : `Retry ${verb}`}
      </Button>
      {!replay.ok && (
        <span id={reasonId} className={compact ? 'sr-only' : 'muted sy-retry-reason'}>
          {replay.reason}
        </span>
      )}
      {error && (compact ? <span className="sy-retry-error" role="alert">{error.detail}</span> : <ProblemBanner error={error} onDismiss={() => setError(null)} />)}
    </>
  );
}
