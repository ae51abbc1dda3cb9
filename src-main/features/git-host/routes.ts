import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteDef } from '../../../src-shared/api/contract';
import * as contract from '../../../src-shared/api/git-host';
import type { Principal } from '../../http/auth';
import { paginateArray } from '../../http/pagination';
import type { Api, RouteOptions } from '../../http/route';
import { DEPLOYMENT_READ_CREDENTIALS, DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';
import { cancelFetch, fetchUpstream, pullUpstream, pushUpstream } from '../data-model';
import { connectDeployment, disconnectDeployment, getGitHostConnection, setUpConnections, updateConnection } from './connection';
import { gitHostStatus, viaHost } from './host';
import { getFetchScheduler } from './scheduler';

interface Args<D> {
  params: ParamsOf<D>;
  query: QueryOf<D>;
  body: BodyOf<D>;
  principal: Principal;
}

/** Repository discovery shows private repositories of the organization: deployment edit (admin or developer). */
const EDIT: RouteOptions = { access: ['deploymentEdit'] };
/** Connecting one deployment to a repository, and its git operations, are operations of that deployment. */
const CONNECT: RouteOptions = { ...EDIT, credentials: DEPLOYMENT_WRITE_CREDENTIALS };
const READ: RouteOptions = { access: ['deploymentRead'], credentials: DEPLOYMENT_READ_CREDENTIALS };

export function registerGitHostRoutes(api: Api): void {
  const { ctx } = api;
  const route = <D extends RouteDef>(def: D, options: RouteOptions, handler: (args: Args<D>) => ResponseOf<D> | Promise<ResponseOf<D>>) =>
    api.route(def, options, handler as never);

  route(contract.getGitHostStatus, EDIT, () => gitHostStatus(ctx));
  route(contract.listGitHostInstallations, EDIT, async ({ query }) =>
    paginateArray(await viaHost(ctx, (host) => host.installations()), query, (i) => i.id),
  );
  route(contract.listGitHostInstallationRepositories, EDIT, async ({ params, query }) => {
    const repositories = await viaHost(ctx, (host) => host.repositories(params.installationId));
    return paginateArray(
      repositories.map(({ cloneUrl: _clone, ...repository }) => repository),
      query,
      (r) => r.fullName,
    );
  });
  route(contract.listGitHostRepositoryBranches, EDIT, async ({ params, query }) =>
    paginateArray(await viaHost(ctx, (host) => host.branches(params.owner, params.repo)), query, (b) => b.name),
  );
  setUpConnections(ctx);
  const scheduler = getFetchScheduler(ctx);
  ((ctx.services.starters ??= []) as (() => void)[]).push(() => scheduler.start());
  ctx.onClose(() => scheduler.stop());
  const rearm = () => scheduler.rearm();

  route(contract.connectDeploymentToGitHost, CONNECT, ({ params, body, principal }) => connectDeployment(ctx, params.deploymentId, body, principal, rearm));
  route(contract.getDeploymentGitConnection, READ, ({ params }) => {
    const connection = getGitHostConnection(ctx, params.deploymentId);
    return { connected: connection !== null, connection };
  });
  route(contract.updateDeploymentGitConnection, CONNECT, ({ params, body }) => updateConnection(ctx, params.deploymentId, body, rearm));
  route(contract.disconnectDeploymentFromGitHost, CONNECT, ({ params }) => disconnectDeployment(ctx, params.deploymentId));
  route(contract.fetchFromUpstream, CONNECT, ({ params }) => fetchUpstream(ctx, params.deploymentId));
  route(contract.cancelUpstreamFetch, CONNECT, ({ params }) => ({ cancelled: cancelFetch(ctx, params.deploymentId) }));
  route(contract.pullFromUpstream, CONNECT, ({ params, body, principal }) => pullUpstream(ctx, params.deploymentId, principal, body ?? {}));
  route(contract.pushToUpstream, CONNECT, ({ params, body, principal }) => pushUpstream(ctx, params.deploymentId, principal, body?.branchName));
}
