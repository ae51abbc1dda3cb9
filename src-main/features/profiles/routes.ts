import * as contract from '../../../src-shared/api/profiles';
import { ProfileErrorCodes as Codes } from '../../../src-shared/api/profiles';
import { paginateArray } from '../../http/pagination';
import { conflict } from '../../http/problem';
import type { Api } from '../../http/route';
import { assertProfileAccess, mapProfileErrors, profileStore, toView } from './access';
import { connectProfile } from './check';
import { registerTransferRoutes } from './transfer-routes';

export function registerProfileRoutes(api: Api): void {
  const { ctx } = api;
  // Admin only; assertProfileAccess also refuses deployment, embed and OAuth tokens of admins.
  const admin = { access: ['admin' as const] };
  const store = () => profileStore(ctx);

  api.route(contract.listProfiles, admin, async ({ query, principal }) => {
    assertProfileAccess(principal);
    const views = await Promise.all(store().list().map((p) => toView(ctx, p)));
    return paginateArray(views, query, (p) => p.name);
  });

  api.route(contract.createProfile, admin, async ({ body, principal, reply }) => {
    assertProfileAccess(principal);
    if (store().get(body.name)) throw conflict(Codes.PROFILE_EXISTS, `A profile named "${body.name}" exists already; edit it instead.`);
    const { profile } = await mapProfileErrors(() => store().upsert(body));
    reply.header('Location', `/api/v1/profiles/${profile.name}`);
    return toView(ctx, profile);
  });

  api.route(contract.getProfile, admin, async ({ params, principal }) => {
    assertProfileAccess(principal);
    return toView(ctx, await mapProfileErrors(() => store().require(params.profileName)));
  });

  api.route(contract.updateProfile, admin, async ({ params, body, principal }) => {
    assertProfileAccess(principal);
    const { profile } = await mapProfileErrors(async () => {
      const current = store().require(params.profileName);
      return store().upsert({
        name: current.name,
        baseUrl: body.baseUrl ?? current.baseUrl,
        credentialKind: body.credentialKind ?? current.credentialKind,
        credential: body.credential,
        description: body.description,
      });
    });
    return toView(ctx, profile);
  });

  api.route(contract.deleteProfile, admin, async ({ params, principal }) => {
    assertProfileAccess(principal);
    const removed = await store().remove(params.profileName);
    if (!removed) await mapProfileErrors(() => store().require(params.profileName));
    return null;
  });

  api.route(contract.testProfile, admin, async ({ params, principal }) => {
    assertProfileAccess(principal);
    return connectProfile(ctx, params.profileName);
  });

  registerTransferRoutes(api);
}
