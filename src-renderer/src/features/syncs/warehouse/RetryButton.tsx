import { startWarehouseSemanticViewPull, startWarehouseSemanticViewSync, type StartPullInput, type StartPushInput, type SyncJob } from '../../../../../src-shared/api/warehouse-sync';
import { navigate } from '../../../app/router';
import { api } from '../../../app/session';
import { shortId } from '../data';
import { warehouseJobPath } from '../links';
import { offersRetry, warehouseReplay } from '../retry';
import { RetryControl } from '../../../lib/RetryControl';
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
  if (!offersRetry(job.status)) return null;
  const verb = job.direction === 'push' ? 'push' : 'pull';
  return (
    <RetryControl
      replayWith={(key) => warehouseReplay(job, branchExists, key)}
      start={async (body) => {
        const params = { deploymentId };
        const started =
          job.direction === 'push'
            ? await api.call(startWarehouseSemanticViewSync, { params, body: body as StartPushInput })
            : await api.call(startWarehouseSemanticViewPull, { params, body: body as StartPullInput });
        trackJob(deploymentId, { syncJobId: started.syncJobId, direction: job.direction, status: 'QUEUED' });
        navigate(warehouseJobPath(deploymentId, job.direction, started.syncJobId));
      }}
      compact={compact}
      label={`Retry ${verb}`}
      ariaLabel={`Retry ${verb} ${shortId(job.syncJobId)}`}
      title={`Send the same ${verb} again as a new job`}
      doing={`Retrying the ${verb}`}
      buttonClassName={compact ? 'btn-small' : undefined}
    />
  );
}
