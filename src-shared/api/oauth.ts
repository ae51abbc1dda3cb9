import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';

const Url = (description: string) =>
  Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://', description: `${description}; https, or http on a loopback host` });
const Scope = Type.String({ minLength: 1, maxLength: 255, pattern: '^[!#-\\[\\]-~]+$', description: 'An OAuth scope (no spaces)' });
const Scopes = Type.Array(Scope, { maxItems: 100, uniqueItems: true });
const Name = Type.String({ minLength: 1, maxLength: 255 });
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

// ---- OAuth integrations -----------------------------------------------------------------------

export const OAuthIntegration = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  provider: Type.String({ description: 'Who runs the authorization server, e.g. github, google, salesforce, custom' }),
  clientId: Type.String(),
  authorizationUrl: Type.String(),
  tokenUrl: Type.String(),
  redirectUri: Type.String(),
  scopes: Type.Array(Type.String()),
  hasClientSecret: Type.Boolean({ description: 'The client secret is stored (in the keychain); it is never returned' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type OAuthIntegration = Static<typeof OAuthIntegration>;

const ClientSecret = Type.String({ minLength: 1, maxLength: 4096, description: 'Write-only: stored in the keychain, never returned' });
const Provider = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' });

export const listOAuthIntegrations = defineRoute({
  method: 'GET',
  path: '/api/v1/oauth-integrations/',
  operationId: 'listOAuthIntegrations',
  tag: 'OAuth Integrations',
  summary: 'List OAuth integrations (any workspace user, to connect one); secrets are never returned',
  query: Type.Object(PageQuery),
  response: Page(OAuthIntegration),
});

export const createOAuthIntegration = defineRoute({
  method: 'POST',
  path: '/api/v1/oauth-integrations/',
  operationId: 'createOAuthIntegration',
  tag: 'OAuth Integrations',
  summary: 'Create an OAuth integration (admin)',
  status: 201,
  body: Type.Object(
    {
      name: Name,
      provider: Provider,
      clientId: Type.String({ minLength: 1, maxLength: 1024 }),
      clientSecret: ClientSecret,
      authorizationUrl: Url('Authorization endpoint of the provider'),
      tokenUrl: Url('Token endpoint of the provider'),
      redirectUri: Url('Where the provider sends the user back'),
      scopes: Type.Optional(Scopes),
    },
    { additionalProperties: false },
  ),
  response: OAuthIntegration,
});

export const getOAuthIntegration = defineRoute({
  method: 'GET',
  path: '/api/v1/oauth-integrations/{id}',
  operationId: 'getOAuthIntegration',
  tag: 'OAuth Integrations',
  summary: 'Get an OAuth integration, without its secret',
  params: IdParams,
  response: OAuthIntegration,
});

export const updateOAuthIntegration = defineRoute({
  method: 'PUT',
  path: '/api/v1/oauth-integrations/{id}',
  operationId: 'updateOAuthIntegration',
  tag: 'OAuth Integrations',
  summary: 'Change an OAuth integration (admin); fields left out keep their value; a new `clientSecret` replaces the stored one',
  params: IdParams,
  body: Type.Object(
    {
      name: Type.Optional(Name),
      provider: Type.Optional(Provider),
      clientId: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
      clientSecret: Type.Optional(ClientSecret),
      authorizationUrl: Type.Optional(Url('Authorization endpoint of the provider')),
      tokenUrl: Type.Optional(Url('Token endpoint of the provider')),
      redirectUri: Type.Optional(Url('Where the provider sends the user back')),
      scopes: Type.Optional(Scopes),
    },
    { additionalProperties: false },
  ),
  response: OAuthIntegration,
});

export const deleteOAuthIntegration = defineRoute({
  method: 'DELETE',
  path: '/api/v1/oauth-integrations/{id}',
  operationId: 'deleteOAuthIntegration',
  tag: 'OAuth Integrations',
  summary: 'Delete an OAuth integration (admin), with its secret and every user’s tokens for it',
  params: IdParams,
  status: 204,
  response: Type.Null(),
});

// ---- OIDC token configs -----------------------------------------------------------------------

export const OIDC_SUBJECT_CLAIMS = ['email', 'userId'] as const;
export type OidcSubjectClaim = (typeof OIDC_SUBJECT_CLAIMS)[number];
const SubjectClaim = Type.Enum(OIDC_SUBJECT_CLAIMS as unknown as OidcSubjectClaim[], { description: 'What the token’s `sub` carries' });
const TtlSeconds = Type.Integer({ minimum: 60, maximum: 3600, description: 'Lifetime of a minted token, 60 to 3600 seconds' });
const AttributeClaims = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: 50,
  uniqueItems: true,
  description: 'Names of user attributes added as claims; each must be a defined user attribute',
});

export const OidcTokenConfig = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  audience: Type.String({ description: 'The `aud` of minted tokens (the relying party, e.g. a warehouse’s external OAuth integration)' }),
  subjectClaim: SubjectClaim,
  attributeClaims: Type.Array(Type.String()),
  ttlSeconds: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type OidcTokenConfig = Static<typeof OidcTokenConfig>;

const Audience = Type.String({ minLength: 1, maxLength: 1024 });

export const listOidcTokenConfigs = defineRoute({
  method: 'GET',
  path: '/api/v1/oidc-token-configs/',
  operationId: 'listOidcTokenConfigs',
  tag: 'OIDC Token Configs',
  summary: 'List OIDC token configs (admin)',
  query: Type.Object(PageQuery),
  response: Page(OidcTokenConfig),
});

export const createOidcTokenConfig = defineRoute({
  method: 'POST',
  path: '/api/v1/oidc-token-configs/',
  operationId: 'createOidcTokenConfig',
  tag: 'OIDC Token Configs',
  summary: 'Create an OIDC token config (admin)',
  status: 201,
  body: Type.Object(
    {
      name: Name,
      description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
      audience: Audience,
      subjectClaim: Type.Optional(SubjectClaim),
      attributeClaims: Type.Optional(AttributeClaims),
      ttlSeconds: Type.Optional(TtlSeconds),
    },
    { additionalProperties: false },
  ),
  response: OidcTokenConfig,
});

export const getOidcTokenConfig = defineRoute({
  method: 'GET',
  path: '/api/v1/oidc-token-configs/{id}',
  operationId: 'getOidcTokenConfig',
  tag: 'OIDC Token Configs',
  summary: 'Get an OIDC token config (admin)',
  params: IdParams,
  response: OidcTokenConfig,
});

export const updateOidcTokenConfig = defineRoute({
  method: 'PUT',
  path: '/api/v1/oidc-token-configs/{id}',
  operationId: 'updateOidcTokenConfig',
  tag: 'OIDC Token Configs',
  summary: 'Change an OIDC token config (admin); fields left out keep their value',
  params: IdParams,
  body: Type.Object(
    {
      name: Type.Optional(Name),
      description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
      audience: Type.Optional(Audience),
      subjectClaim: Type.Optional(SubjectClaim),
      attributeClaims: Type.Optional(AttributeClaims),
      ttlSeconds: Type.Optional(TtlSeconds),
    },
    { additionalProperties: false },
  ),
  response: OidcTokenConfig,
});

export const deleteOidcTokenConfig = defineRoute({
  method: 'DELETE',
  path: '/api/v1/oidc-token-configs/{id}',
  operationId: 'deleteOidcTokenConfig',
  tag: 'OIDC Token Configs',
  summary: 'Delete an OIDC token config (admin)',
  params: IdParams,
  status: 204,
  response: Type.Null(),
});

// ---- user OAuth tokens ------------------------------------------------------------------------

export const UserOAuthToken = Type.Object({
  integrationId: Type.Integer(),
  integrationName: Type.String(),
  provider: Type.String(),
  scopes: Type.Array(Type.String()),
  hasRefreshToken: Type.Boolean(),
  connectedAt: Timestamp,
  expiresAt: Nullable(Timestamp),
});
export type UserOAuthToken = Static<typeof UserOAuthToken>;

const IntegrationParams = Type.Object({ integrationId: Type.Integer({ minimum: 1 }) });

export const listUserOAuthTokens = defineRoute({
  method: 'GET',
  path: '/api/v1/user-oauth-tokens/',
  operationId: 'listUserOAuthTokens',
  tag: 'User OAuth Tokens',
  summary: 'The calling user’s OAuth connections; token values are never returned',
  query: Type.Object(PageQuery),
  response: Page(UserOAuthToken),
});

export const deleteUserOAuthToken = defineRoute({
  method: 'DELETE',
  path: '/api/v1/user-oauth-tokens/{integrationId}',
  operationId: 'deleteUserOAuthToken',
  tag: 'User OAuth Tokens',
  summary: 'Disconnect the calling user from an integration (its tokens are deleted)',
  params: IntegrationParams,
  status: 204,
  response: Type.Null(),
});

export const initiateUserOAuth = defineRoute({
  method: 'POST',
  path: '/api/v1/user-oauth-tokens/{integrationId}/initiate',
  operationId: 'initiateUserOAuthToken',
  tag: 'User OAuth Tokens',
  summary: 'Start connecting the calling user to an integration: an authorization URL with state and PKCE (S256)',
  description: 'Open `authorizationUrl` in a browser. The `state` is single-use and expires after ten minutes.',
  params: IntegrationParams,
  response: Type.Object({
    authorizationUrl: Type.String(),
    state: Type.String(),
    expiresAt: Timestamp,
  }),
});

export const oauthRoutes = {
  listOAuthIntegrations,
  createOAuthIntegration,
  getOAuthIntegration,
  updateOAuthIntegration,
  deleteOAuthIntegration,
  listOidcTokenConfigs,
  createOidcTokenConfig,
  getOidcTokenConfig,
  updateOidcTokenConfig,
  deleteOidcTokenConfig,
  listUserOAuthTokens,
  deleteUserOAuthToken,
  initiateUserOAuth,
};
