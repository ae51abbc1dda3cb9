import {
  BUILD_STATUSES,
  DEPLOY_STATUSES,
  type BuildState,
  type BuildStatus,
  type DeployStatus,
} from '../../../src-shared/api/deployments';
import type { ServiceContext } from '../../context';
import { getDeployBranch } from './deployments';
import { appendDeploymentLog } from './logs';

/** What an area that builds or deploys a branch reports. */
export interface BuildStateUpdate {
  buildStatus: BuildStatus;
  deployStatus: DeployStatus;
  commit?: string | null;
  buildJobId?: string | null;
  /** Short human-readable detail, e.g. the failure reason. No secrets. */
  detail?: string | null;
}

interface BuildRow {
  branch: string;
  build_status: BuildStatus;
  deploy_status: DeployStatus;
  commit_sha: string | null;
  build_job_id: string | null;
  detail: string | null;
  updated_at: string;
}

/**
 * Records the latest build and deploy state of a branch (`GET D/build-status`, `GET D/pods`) and
 * logs it. Areas that build and deploy model branches call this as their work progresses.
 */
export function recordBuildState(ctx: ServiceContext, deploymentId: number, branch: string, state: BuildStateUpdate): BuildState {
  if (!BUILD_STATUSES.includes(state.buildStatus)) throw new Error(`Unknown build status ${state.buildStatus}.`);
  if (!DEPLOY_STATUSES.includes(state.deployStatus)) throw new Error(`Unknown deploy status ${state.deployStatus}.`);
  const deployBranch = getDeployBranch(ctx, deploymentId);
  const now = ctx.clock.now().toISOString();
  ctx.db.transaction(() => {
    ctx.db
      .prepare(
        `INSERT INTO deployment_build_states (deployment_id, branch, build_status, deploy_status, commit_sha, build_job_id, detail, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (deployment_id, branch) DO UPDATE SET build_status = excluded.build_status, deploy_status = excluded.deploy_status,
           commit_sha = excluded.commit_sha, build_job_id = excluded.build_job_id, detail = excluded.detail, updated_at = excluded.updated_at`,
      )
      .run(deploymentId, branch, state.buildStatus, state.deployStatus, state.commit ?? null, state.buildJobId ?? null, state.detail ?? null, now);
    const failed = state.buildStatus === 'failed' || state.deployStatus === 'failed';
    appendDeploymentLog(ctx, deploymentId, {
      source: branch === deployBranch ? 'production' : 'dev',
      container: 'MAIN',
      level: failed ? 'error' : 'info',
      message:
        `Branch ${branch}${state.commit ? ` at ${state.commit.slice(0, 12)}` : ''}: build ${state.buildStatus}, deploy ${state.deployStatus}` +
        (state.detail ? ` (${state.detail})` : ''),
    });
  })();
  return getBuildState(ctx, deploymentId, branch);
}

/**
 * The build and deploy state of a branch. Until a build is recorded, the deploy branch is what the
 * deployment serves (deployed, no build running) and any other branch is not deployed.
 */
export function getBuildState(ctx: ServiceContext, deploymentId: number, branch?: string): BuildState {
  const deployBranch = getDeployBranch(ctx, deploymentId);
  const target = branch ?? deployBranch;
  const row = ctx.db
    .prepare(
      'SELECT branch, build_status, deploy_status, commit_sha, build_job_id, detail, updated_at FROM deployment_build_states WHERE deployment_id = ? AND branch = ?',
    )
    .get(deploymentId, target) as BuildRow | undefined;
  if (!row) {
    return {
      branch: target,
      isDeployBranch: target === deployBranch,
      buildStatus: 'idle',
      deployStatus: target === deployBranch ? 'deployed' : 'not_deployed',
      commit: null,
      buildJobId: null,
      detail: null,
      updatedAt: null,
    };
  }
  return {
    branch: row.branch,
    isDeployBranch: row.branch === deployBranch,
    buildStatus: row.build_status,
    deployStatus: row.deploy_status,
    commit: row.commit_sha,
    buildJobId: row.build_job_id,
    detail: row.detail,
    updatedAt: row.updated_at,
  };
}
