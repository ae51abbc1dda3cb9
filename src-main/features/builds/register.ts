import { getDeploymentBuildStatus } from '../../../src-shared/api/deployments';
import { DEPLOYMENT_READ_CREDENTIALS } from '../../http/credentials';
import type { Api } from '../../http/route';
import { getBuildState } from '../deployments';
import { getBranchHead, getDeployBranch } from '../data-model';
import { setUpBuilds } from './builds';

/**
 * Sets up the build job and the commit hook, and serves `GET D/build-status`: the build and deploy
 * state of a branch that exists (404 `BRANCH_NOT_FOUND` for any other name, never a made-up state).
 */
export function registerBuilds(api: Api): void {
  const { ctx } = api;
  setUpBuilds(ctx);
  api.route(getDeploymentBuildStatus, { access: ['deploymentRead'], credentials: DEPLOYMENT_READ_CREDENTIALS }, async ({ params, query }) => {
    const branch = query.branch ?? (await getDeployBranch(ctx, params.deploymentId));
    await getBranchHead(ctx, params.deploymentId, branch);
    return getBuildState(ctx, params.deploymentId, branch);
  });
}
