import * as contract from '../../../src-shared/api/environments';
import type { Api } from '../../http/route';
import { listEnvironments } from './environments';
import { listEnvironmentTokens, mintEnvironmentToken } from './tokens';

export function registerEnvironmentsRoutes(api: Api): void {
  const { ctx } = api;
  const { route } = api;
  const page = (q: { first?: number; after?: string }) => ({ first: q.first, after: q.after });

  // The spec: environments are available to embed sessions; the token routes are not.
  route(contract.listEnvironments, { access: ['deploymentRead'], allowEmbed: true }, ({ params, query }) =>
    listEnvironments(ctx, params.deploymentId, page(query)),
  );

  // Minting needs only read access: without edit access the rules sign no scopes and no context.
  route(contract.createEnvironmentToken, { access: ['deploymentRead'] }, async ({ params, body, principal }) => {
    const signed = await mintEnvironmentToken(ctx, principal, params.deploymentId, params.environmentId, body ?? {}, 'data');
    return { data: signed };
  });

  route(contract.listEnvironmentTokens, { access: ['deploymentRead'] }, ({ params, query, principal }) =>
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
