import { useId, useState } from 'react';
import { startLakehouseMetricViewSync, type RunSummary } from '../../../../../src-shared/api/lakehouse';
import { navigate } from '../../../app/router';
import { api } from '../../../app/session';
import { toShownError, type ShownError } from '../../../lib/errors';
import { Button, ProblemBanner } from '../../../lib/ui';
import { newIdempotencyKey, shortId } from '../data';
import { lakehousePath } from '../links';
import { lakehouseReplay, offersRetry } from '../retry';
import { trackRun } from './runs';

/**
 * "Retry" on a failed, partial or cancelled publication run: starts a run of the same settings
 * version (on the latest deployed build, as every run) and opens it. Disabled, saying why, when the
 * settings changed since: the service only runs the current version.
 */
export function RetryRunButton({
  deploymentId,
  dataSource,
  run,
  currentVersion,
  compact = false,
}: {
  deploymentId: number;
  dataSource: string;
  run: Pick<RunSummary, 'runId' | 'status' | 'configurationVersion'>;
  currentVersion: number | null;
  compact?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [idempotencyKey] = useState(newIdempotencyKey);
  const reasonId = useId();
  if (!offersRetry(run.status)) return null;
  const replay = lakehouseReplay(run, currentVersion, idempotencyKey);

  const retry = async () => {
    if (!replay.ok) return;
    setBusy(true);
    setError(null);
    try {
      const started = await api.call(startLakehouseMetricViewSync, { params: { deploymentId, dataSourceName: dataSource }, body: replay.body });
      trackRun(deploymentId, dataSource, started.runId, started.status);
      navigate(lakehousePath(deploymentId, dataSource, 'runs', started.runId));
    } catch (e) {
      setError(toShownError(e, 'Retrying the run'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        className="btn-small"
        onClick={(e) => {
          e.stopPropagation();
          void retry();
        }}
        busy={busy}
        disabled={!replay.ok}
        title={replay.ok ? `Run settings version ${run.configurationVersion} again (on the latest deployed build) as a new run` : replay.reason}
        aria-label={compact ? `Retry run ${shortId(run.runId)}` : undefined}
        aria-describedby={replay.ok ? undefined : reasonId}
      >
        {compact ? 'Retry' : 'Retry run'}
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
