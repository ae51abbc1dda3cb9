import type { Profile as ProfileView } from '../../../src-shared/api/profiles';
import { ProfileErrorCodes } from '../../../src-shared/api/profiles';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError, forbidden } from '../../http/problem';
import { credentialKey, ProfileError, ProfileStore, type Profile } from '../../platform/profiles';

/**
 * Profiles hold credentials to other services: only an admin of this service manages or uses them,
 * and only with a workspace session (the desktop user, a browser sign-in) or an API key. Deployment,
 * embed and OAuth tokens are confined to less and are refused, even when they belong to an admin.
 */
export function assertProfileAccess(principal: Principal): void {
  if (principal.via !== 'workspace' && principal.via !== 'apiKey') {
    throw forbidden('Remote profiles need a workspace session or an API key; this credential cannot use them.', ProfileErrorCodes.PROFILE_CREDENTIAL_REFUSED);
  }
  if (principal.role !== 'admin') throw forbidden('Remote profiles are for admins: they hold credentials to other services.');
}

/** The one ProfileStore of this service (the CLI opens its own on the same data dir). */
export function profileStore(ctx: ServiceContext): ProfileStore {
  let store = ctx.services.profiles as ProfileStore | undefined;
  if (!store) {
    store = new ProfileStore(ctx.db, ctx.secrets, ctx.clock);
    ctx.services.profiles = store;
  }
  return store;
}

const STATUS_OF: Record<ProfileError['code'], number> = {
  PROFILE_NAME_INVALID: 400,
  PROFILE_NAME_RESERVED: 400,
  PROFILE_URL_INVALID: 400,
  PROFILE_URL_INSECURE: 400,
  PROFILE_CREDENTIAL_INVALID: 400,
  PROFILE_CREDENTIAL_REQUIRED: 400,
  PROFILE_DESCRIPTION_INVALID: 400,
  PROFILE_CREDENTIAL_MISSING: 409,
  PROFILE_NOT_FOUND: 404,
};

/** A ProfileError as the API's problem (field errors point into the body). */
export function toApiError(error: unknown): unknown {
  if (!(error instanceof ProfileError)) return error;
  const status = STATUS_OF[error.code];
  const extras = status === 400 && error.field ? { errors: [{ pointer: `/body/${error.field}`, detail: error.message }] } : {};
  return new ApiError(status, error.code, error.message, extras);
}

/** Runs `fn`, turning ProfileErrors into problems. */
export async function mapProfileErrors<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toApiError(error);
  }
}

export async function toView(ctx: ServiceContext, profile: Profile): Promise<ProfileView> {
  const hasCredential = (await ctx.secrets.get(credentialKey(profile.name))) !== null;
  return { ...profile, hasCredential };
}
