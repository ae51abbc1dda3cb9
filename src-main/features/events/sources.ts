import { basename, dirname, join, resolve } from 'node:path';
import type { BuildEventStatus } from '../../../src-shared/api/events';
import type { Api } from '../../http/route';
import { getEventBus } from '../../platform/events';
import { getJobRunner, type Job } from '../../platform/jobs';
import { GitRepository } from '../../platform/repo';
import { BUILD_JOB_KIND, getBuild } from '../builds';

/**
 * Feeds the bus from the places things change: the job runner (progress, state; builds are jobs),
 * the git layer (branch moves of this service's repositories, remote-tracking refs after a fetch or
 * push); every successful write through the API is published by ./hooks. Uncommitted
 * file edits are published by the data-model area itself (with each file's new version).
 */
export function connectEventSources(api: Api): void {
  const { ctx } = api;
  const bus = getEventBus(ctx);

  const offJobs = getJobRunner(ctx).onChange((job: Job) => {
    bus.publish({
      type: 'job',
      deploymentId: job.deploymentId,
      job: {
        id: job.id,
        kind: job.kind,
        status: job.status,
        stage: job.progress.stage,
        percentComplete: job.progress.percentComplete,
        errorCode: job.error?.code ?? null,
        createdBy: job.createdBy,
      },
    });
    if (job.kind === BUILD_JOB_KIND) {
      // At enqueue the build's row is not written yet (same transaction): its inputs say what it builds.
      const build = getBuild(ctx, job.id);
      const inputs = job.inputs as { deploymentId?: number; branch?: string; commit?: string };
      const deploymentId = build?.deploymentId ?? inputs.deploymentId ?? job.deploymentId;
      const branch = build?.branch ?? inputs.branch;
      const commit = build?.commit ?? inputs.commit;
      if (deploymentId && branch && commit) {
        bus.publish({ type: 'build', deploymentId, buildId: job.id, branch, commit, status: (build?.status ?? 'queued') as BuildEventStatus });
      }
    }
  });

  // Repositories live at <data dir>/repos/<deploymentId>; other services in this process have their own.
  const reposDir = resolve(join(ctx.dataDir, 'repos'));
  const deploymentOf = (gitdir: string): number | null => {
    if (resolve(dirname(gitdir)) !== reposDir) return null;
    const id = Number(basename(gitdir));
    return Number.isInteger(id) && id > 0 ? id : null;
  };
  const offRefs = GitRepository.onRefChange((change) => {
    const deploymentId = deploymentOf(change.gitdir);
    if (deploymentId === null) return;
    if ('remote' in change) bus.publish({ type: 'upstream', deploymentId });
    else bus.publish({ type: 'branch', deploymentId, branch: change.branch, commit: change.commit });
  });
  ctx.onClose(() => {
    offJobs();
    offRefs();
  });
}
