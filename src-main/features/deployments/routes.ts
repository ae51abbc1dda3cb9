import * as contract from '../../../src-shared/api/deployments';
import { CLOUD_PROVIDERS } from '../../../src-shared/api/deployments';
import type { Api } from '../../http/route';
import { paginateArray } from '../../http/pagination';
import { REGIONS } from './catalog';
import {
  actorLabel,
  advanceCreationStep,
  createDeployment,
  deleteDeployment,
  getDeployment,
  listDeployments,
  resetCreationStep,
  updateDeployment,
} from './deployments';
import { envVarsVersion, listEnvVars, setEnvVars } from './env-vars';
import { listDeploymentLogs } from './logs';
import { getDeploymentSettings, getVersionCatalog } from './settings';
import { mintDeploymentToken } from './token';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';
import { assertVersion, ifMatchOf, readVersioned, sendVersion, writeIfUnchanged } from '../../http/preconditions';

const ALL_REGIONS = CLOUD_PROVIDERS.flatMap((cloudProvider) =>
  REGIONS[cloudProvider].map((region, i) => ({
    id: `${cloudProvider}/${region.code}`,
    cloudProvider,
    code: region.code,
    name: region.name,
    isDefault: i === 0,
  })),
);

export function registerDeploymentsRoutes(api: Api): void {
  const { ctx } = api;
  const { route } = api;
  const read = { access: ['deploymentRead' as const], credentials: DEPLOYMENT_READ_CREDENTIALS };
  const edit = { access: ['deploymentEdit' as const], credentials: DEPLOYMENT_WRITE_CREDENTIALS };
  /** Tenant-wide changes (creating, deleting deployments) and minting credentials: full user credentials only. */
  const userEdit = { access: ['deploymentEdit' as const] };
  const page = (q: { first?: number; after?: string }) => ({ first: q.first, after: q.after });

  route(contract.listDeployments, read, ({ query, principal }) => listDeployments(ctx, page(query), principal.deploymentId));
  route(contract.getDeployment, read, ({ params, reply }) => readVersioned(reply, getDeployment(ctx, params.deploymentId)));
  route(contract.createDeployment, userEdit, ({ body, principal }) => createDeployment(ctx, body, principal));
  route(contract.updateDeployment, edit, ({ params, body, principal, request, reply }) =>
    writeIfUnchanged(ctx.db, request, reply, `Deployment ${params.deploymentId}`, () => getDeployment(ctx, params.deploymentId), () =>
      updateDeployment(ctx, params.deploymentId, body, principal),
    ),
  );
  route(contract.deleteDeployment, userEdit, async ({ params }) => {
    await deleteDeployment(ctx, params.deploymentId);
    return null;
  });
  route(contract.getDeploymentSettings, read, ({ params }) => getDeploymentSettings(ctx, params.deploymentId));
  route(contract.listDeploymentVersions, read, ({ params }) => getVersionCatalog(ctx, params.deploymentId));
  // GET D/build-status is served by the builds area (it knows which branches exist).
  route(contract.listDeploymentLogs, read, ({ params, query }) =>
    listDeploymentLogs(ctx, params.deploymentId, { source: query.source, container: query.container }, page(query)),
  );
  route(contract.advanceCreationStep, edit, ({ params, body, principal }) => advanceCreationStep(ctx, params.deploymentId, body?.from, principal));
  route(contract.resetCreationStep, edit, ({ params, principal }) => resetCreationStep(ctx, params.deploymentId, principal));
  const mint = {
    ...userEdit,
    // Otherwise a deployment token could renew itself forever.
    credentialRefusals: {
      deploymentToken: { code: 'TOKEN_CANNOT_MINT', detail: 'A deployment token cannot mint deployment tokens; use an API key or a workspace session.' },
    },
  };
  route(contract.createDeploymentToken, mint, ({ params, body, principal }) =>
    mintDeploymentToken(ctx, params.deploymentId, principal, body?.expiresIn),
  );
  // The env vars of a deployment are one versioned resource (every page answers the version of the whole set).
  route(contract.listEnvVars, read, ({ params, query, reply }) => {
    sendVersion(reply, envVarsVersion(ctx, params.deploymentId));
    return listEnvVars(ctx, params.deploymentId, page(query));
  });
  route(contract.setEnvVars, edit, async ({ params, body, principal, request, reply }) => {
    // Checked before anything is written (secrets go to the keychain first, asynchronously).
    const current = envVarsVersion(ctx, params.deploymentId);
    assertVersion(`The env vars of deployment ${params.deploymentId}`, ifMatchOf(request), {
      version: current,
      read: () => listEnvVars(ctx, params.deploymentId, { first: 1000 }),
    });
    const items = await setEnvVars(ctx, params.deploymentId, body, actorLabel(principal));
    sendVersion(reply, envVarsVersion(ctx, params.deploymentId));
    return { items };
  });
  route(contract.listRegions, {}, ({ query }) =>
    paginateArray(
      ALL_REGIONS.filter((r) => !query.cloudProvider || r.cloudProvider === query.cloudProvider),
      page(query),
      (r) => r.id,
    ),
  );
}
