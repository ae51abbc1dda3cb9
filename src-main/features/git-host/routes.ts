import type { BodyOf, ParamsOf, QueryOf, ResponseOf, RouteDef } from '../../../src-shared/api/contract';
import * as contract from '../../../src-shared/api/git-host';
import type { Principal } from '../../http/auth';
import { paginateArray } from '../../http/pagination';
import type { Api, RouteOptions } from '../../http/route';
import { connectDeployment, gitHostStatus, viaHost } from './host';
import { DEPLOYMENT_WRITE_CREDENTIALS } from '../../http/credentials';

interface Args<D> {
  params: ParamsOf<D>;
  query: QueryOf<D>;
  body: BodyOf<D>;
  principal: Principal;
}

/** Repository discovery shows private repositories of the organization: deployment edit (admin or developer). */
const EDIT: RouteOptions = { access: ['deploymentEdit'] };
/** Connecting one deployment to a repository is an operation of that deployment. */
const CONNECT: RouteOptions = { ...EDIT, credentials: DEPLOYMENT_WRITE_CREDENTIALS };

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
  route(contract.connectDeploymentToGitHost, CONNECT, ({ params, body, principal }) => connectDeployment(ctx, params.deploymentId, body, principal));
}
