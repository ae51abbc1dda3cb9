import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';
import { StringEnum } from './workbooks';

// Remote profiles (Drydock-specific, not part of the platform's API): other Drydock services or
// hosted platform tenants this app talks to. The credential of a profile lives in the keychain of
// the local service and never comes back in a response. The renderer reaches a profile's service
// through the local service's proxy (see PROFILE_PROXY_PREFIX), so the page never holds it.

export const PROFILE_TAG = 'Remote Profiles';

export const PROFILE_NAME_PATTERN = '^[a-z0-9][a-z0-9_-]{0,39}$';
/** The local service in the switcher; no stored profile may take this name. */
export const LOCAL_PROFILE = 'local';

export const ProfileErrorCodes = {
  PROFILE_NOT_FOUND: 'PROFILE_NOT_FOUND',
  PROFILE_EXISTS: 'PROFILE_EXISTS',
  PROFILE_UNREACHABLE: 'PROFILE_UNREACHABLE',
  PROFILE_TIMEOUT: 'PROFILE_TIMEOUT',
  PROFILE_CREDENTIAL_REJECTED: 'PROFILE_CREDENTIAL_REJECTED',
  PROFILE_CREDENTIAL_MISSING: 'PROFILE_CREDENTIAL_MISSING',
  PROFILE_NOT_A_PLATFORM: 'PROFILE_NOT_A_PLATFORM',
  PROFILE_REDIRECTED: 'PROFILE_REDIRECTED',
  PROFILE_RESPONSE_TOO_LARGE: 'PROFILE_RESPONSE_TOO_LARGE',
  PROFILE_REMOTE_FAILED: 'PROFILE_REMOTE_FAILED',
  PROFILE_OPERATION_NOT_SERVED: 'PROFILE_OPERATION_NOT_SERVED',
  PROXY_PATH_REFUSED: 'PROXY_PATH_REFUSED',
  PROFILE_CREDENTIAL_REFUSED: 'PROFILE_CREDENTIAL_REFUSED',
} as const;

/**
 * `{local origin}/api/v1/profiles/{name}/proxy` + an `/api/v1/…` or `/build/api/v1/…` path of the
 * profile's service. The typed client takes this as its base URL for a remote profile.
 */
export const profileProxyBase = (name: string): string => `/api/v1/profiles/${encodeURIComponent(name)}/proxy`;

const CredentialKind = StringEnum(['api-key', 'bearer'] as const, {
  description: '`api-key` is sent as `Authorization: Api-Key …`, `bearer` as `Authorization: Bearer …`',
});

export const ProfileCheck = Type.Object(
  {
    checkedAt: Timestamp,
    ok: Type.Boolean({ description: 'The spec was read and the credential accepted' }),
    error: Nullable(Type.String({ description: 'Why the last connection test failed' })),
    specTitle: Nullable(Type.String()),
    specVersion: Nullable(Type.String({ description: 'The remote’s `info.version` (interface version)' })),
    apiVersion: Nullable(Type.String({ description: 'The remote’s OpenAPI version (`openapi`)' })),
    operationIds: Type.Array(Type.String(), { description: 'Operations the remote serves (operationIds of its OpenAPI document)' }),
  },
  { description: 'What the last connection test read from the remote’s `GET /api/v1/spec`' },
);
export type ProfileCheck = Static<typeof ProfileCheck>;

export const Profile = Type.Object({
  name: Type.String(),
  baseUrl: Type.String({ description: 'Scheme, host and port (and a path prefix, if any) of the remote service' }),
  credentialKind: CredentialKind,
  description: Type.String(),
  hasCredential: Type.Boolean({ description: 'The keychain holds a credential for this profile' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  lastCheck: Nullable(ProfileCheck),
});
export type Profile = Static<typeof Profile>;

export const ProfileConnection = Type.Object({
  profile: Profile,
  remoteUser: Nullable(
    Type.Object({ email: Nullable(Type.String()), name: Nullable(Type.String()), role: Nullable(Type.String()) }, { description: 'Whom the credential signs in as, when the remote tells' }),
  ),
});
export type ProfileConnection = Static<typeof ProfileConnection>;

const NameParams = Type.Object({ profileName: Type.String({ pattern: PROFILE_NAME_PATTERN }) });
const BaseUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'https://… (http only for 127.0.0.1 or localhost)' });
const Credential = Type.String({ minLength: 1, maxLength: 8192, description: 'API key or bearer token; stored in the keychain, never returned' });
const Description = Type.String({ maxLength: 500 });

const ADMIN_ONLY = 'Admin only (a workspace session or an API key; other tokens are refused).';

export const listProfiles = defineRoute({
  method: 'GET',
  path: '/api/v1/profiles',
  operationId: 'listProfiles',
  tag: PROFILE_TAG,
  summary: 'Remote profiles, by name',
  description: ADMIN_ONLY,
  query: Type.Object(PageQuery),
  response: Page(Profile),
});

export const createProfile = defineRoute({
  method: 'POST',
  path: '/api/v1/profiles',
  operationId: 'createProfile',
  tag: PROFILE_TAG,
  summary: 'Add a remote profile (the credential goes to the keychain)',
  description: `409 \`PROFILE_EXISTS\` when the name is taken. ${ADMIN_ONLY}`,
  body: Type.Object(
    {
      name: Type.String({ pattern: PROFILE_NAME_PATTERN }),
      baseUrl: BaseUrl,
      credentialKind: Type.Optional(CredentialKind),
      credential: Credential,
      description: Type.Optional(Description),
    },
    { additionalProperties: false },
  ),
  status: 201,
  response: Profile,
});

export const getProfile = defineRoute({
  method: 'GET',
  path: '/api/v1/profiles/{profileName}',
  operationId: 'getProfile',
  tag: PROFILE_TAG,
  summary: 'One remote profile',
  description: ADMIN_ONLY,
  params: NameParams,
  response: Profile,
});

export const updateProfile = defineRoute({
  method: 'PATCH',
  path: '/api/v1/profiles/{profileName}',
  operationId: 'updateProfile',
  tag: PROFILE_TAG,
  summary: 'Change a remote profile; fields left out keep their value (a new URL or credential clears the last test)',
  description: ADMIN_ONLY,
  params: NameParams,
  body: Type.Object(
    {
      baseUrl: Type.Optional(BaseUrl),
      credentialKind: Type.Optional(CredentialKind),
      credential: Type.Optional(Credential),
      description: Type.Optional(Description),
    },
    { additionalProperties: false },
  ),
  response: Profile,
});

export const deleteProfile = defineRoute({
  method: 'DELETE',
  path: '/api/v1/profiles/{profileName}',
  operationId: 'deleteProfile',
  tag: PROFILE_TAG,
  summary: 'Remove a remote profile and its keychain entry (its transfer history is kept)',
  description: ADMIN_ONLY,
  params: NameParams,
  status: 204,
  response: Type.Null(),
});

export const testProfile = defineRoute({
  method: 'POST',
  path: '/api/v1/profiles/{profileName}/test',
  operationId: 'testProfile',
  tag: PROFILE_TAG,
  summary: 'Connect: read the remote’s OpenAPI document and check the credential',
  description:
    'Reads `GET /api/v1/spec` of the remote (its `info.version` and operationIds, kept as `lastCheck`), then makes one ' +
    'authenticated read. Failures still answer 200 with `lastCheck.ok: false` and the reason, except an unknown profile (404). ' +
    ADMIN_ONLY,
  params: NameParams,
  response: ProfileConnection,
});

export const profilesRoutes = { listProfiles, createProfile, getProfile, updateProfile, deleteProfile, testProfile };
