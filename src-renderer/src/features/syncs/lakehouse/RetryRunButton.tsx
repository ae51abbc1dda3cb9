import { startLakehouseMetricViewSync, type RunSummary } from '../../../../../src-shared/api/lakehouse';
import { navigate } from '../../../app/router';
import { api } from '../../../app/session';
import { shortId } from '../data';
import { lakehousePath } from '../links';
import { lakehouseReplay, offersRetry } from '../retry';
import { RetryControl } from '../../../lib/RetryControl';
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
  run: Pick<RunSummary, 'runId' | 'status' | 'configurationVersion' | 'branchName' | 'devTarget'>;
  currentVersion: number | null;
  compact?: boolean;
}) {
  if (!offersRetry(run.status)) return null;
  return (
    <RetryControl
      replayWith={(key) => lakehouseReplay(run, currentVersion, key)}
      start={async (body) => {
        const started = await api.call(startLakehouseMetricViewSync, { params: { deploymentId, dataSourceName: dataSource }, body });
        trackRun(deploymentId, dataSource, started.runId, started.status);
        navigate(lakehousePath(deploymentId, dataSource, 'runs', started.runId));
      }}
      compact={compact}
      label="Retry run"
      ariaLabel={`Retry run ${shortId(run.runId)}`}
      title={
        run.devTarget
          ? `Run settings version ${run.configurationVersion} again from dev branch ${run.branchName} (to the per-user target of ${run.devTarget.userTag}) as a new run`
          : `Run settings version ${run.configurationVersion} again (on the latest deployed build) as a new run`
      }
      doing="Retrying the run"
      buttonClassName="btn-small"
    />
  );
}
