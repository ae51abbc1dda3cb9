import * as contract from '../../../src-shared/api/environments';
import { listDeploymentPods } from '../../../src-shared/api/deployments';
import type { Api } from '../../http/route';
import { onDeploymentCreated, onDeploymentDeleting } from '../deployments';
import { createProductionEnvironment, listEnvironments, revokeEnvironmentTokens } from './environments';
import { listPods } from './pods';
import { listEnvironmentTokens, mintEnvironmentToken } from './tokens';
import { DEPLOYMENT_READ_CREDENTIALS } from '../../http/credentials';

export function registerEnvironmentsRoutes(api: Api): void {
  const { ctx } = api;
  const { route } = api;
  const page = (q: { first?: number; after?: string }) => ({ first: q.first, after: q.after });

  // Every deployment starts with its production environment; its environment tokens go with it.
  onDeploymentCreated(ctx, (deploymentId, deployBranch) => {
    const production = createProductionEnvironment(ctx, deploymentId, deployBranch);
    return `Production environment ${production.id} created on branch ${deployBranch}.`;
  });
  onDeploymentDeleting(ctx, (deploymentId) => revokeEnvironmentTokens(ctx, deploymentId));

  // Pods are the running environments of a deployment.
  route(listDeploymentPods, { access: ['deploymentRead'], credentials: DEPLOYMENT_READ_CREDENTIALS }, ({ params, query }) => listPods(ctx, params.deploymentId, page(query)));

  // The spec: environments are available to embed sessions; the token routes are not.
  route(contract.listEnvironments, { access: ['deploymentRead'], credentials: [...DEPLOYMENT_READ_CREDENTIALS, 'embed'] }, ({ params, query }) =>
    listEnvironments(ctx, params.deploymentId, page(query)),
  );

  // Minting needs only read access: without edit access the rules sign no scopes and no context.
  // It mints a credential: full user credentials only (no deployment token, OAuth or embed session).
  route(contract.createEnvironmentToken, { access: ['deploymentRead'] }, async ({ params, body, principal }) => {
    const signed = await mintEnvironmentToken(ctx, principal, params.deploymentId, params.environmentId, body ?? {}, 'data');
    return { data: signed };
  });

  route(contract.listEnvironmentTokens, { access: ['deploymentRead'], credentials: DEPLOYMENT_READ_CREDENTIALS }, ({ params, query, principal }) =>
    listEnvironmentTokens(ctx, principal, params.deploymentId, params.environmentId, page(query)),
  );

  route(contract.createEnvironmentTokenForMetaSync, { access: ['deploymentRead'] }, async ({ params, body, principal }) => {
    const signed = await mintEnvironmentToken(ctx, principal, params.deploymentId, params.environmentId, body ?? {}, 'meta-sync');
    return {
      data: {
        created_at: signed.created_at,
        expires_at: signed.expires_at,
        scopes: signed.scopes,
        security_context: signed.security_context,
        token: signed.token,
      },
    };
  });
}
