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

/** Drydock's own callback, served on 127.0.0.1 (the browser lands there after the provider's consent page). */
export const OAUTH_CALLBACK_PATH = '/api/v1/user-oauth-tokens/callback';

const REDIRECT_URI_DESCRIPTION =
  'Where the provider sends the user back. Leave it out to use this service’s own callback, ' +
  `\`http://127.0.0.1:<port>${OAUTH_CALLBACK_PATH}\` (register that with the provider; a loopback redirect URI of this ` +
  'callback follows the port the service serves on when the flow starts, as RFC 8252 §7.3 allows)';

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
      redirectUri: Type.Optional(Url(REDIRECT_URI_DESCRIPTION)),
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
      redirectUri: Type.Optional(Url(REDIRECT_URI_DESCRIPTION)),
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
  refreshedAt: Nullable(Timestamp),
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
  description:
    'Open `authorizationUrl` in a browser. The `state` is single-use and expires after ten minutes; the PKCE code verifier stays ' +
    `in the keychain. After consent the provider redirects to \`redirectUri\`; this service's callback (\`GET ${OAUTH_CALLBACK_PATH}\`) ` +
    'exchanges the code at the integration’s token endpoint and stores the tokens in the keychain.',
  params: IntegrationParams,
  response: Type.Object({
    authorizationUrl: Type.String(),
    state: Type.String(),
    expiresAt: Timestamp,
    redirectUri: Type.String({ description: 'The redirect URI this authorization uses (sent again with the code exchange)' }),
  }),
});

/** Stable codes of the OAuth flow's problems (callback, code exchange, refresh). */
export const OAuthErrorCodes = {
  /** The callback came without `state`. */
  STATE_MISSING: 'OAUTH_STATE_MISSING',
  /** No authorization was started with this state. */
  STATE_INVALID: 'OAUTH_STATE_INVALID',
  /** The state was already used (a replayed callback). */
  STATE_USED: 'OAUTH_STATE_USED',
  /** The state's ten minutes are over. */
  STATE_EXPIRED: 'OAUTH_STATE_EXPIRED',
  /** The user declined at the provider (`error=access_denied`). */
  ACCESS_DENIED: 'OAUTH_ACCESS_DENIED',
  /** The provider redirected back with another `error`. */
  PROVIDER_ERROR: 'OAUTH_PROVIDER_ERROR',
  /** The callback came with neither `code` nor `error`. */
  CODE_MISSING: 'OAUTH_CODE_MISSING',
  /** The token endpoint refused the authorization code. */
  TOKEN_EXCHANGE_FAILED: 'OAUTH_TOKEN_EXCHANGE_FAILED',
  /** The token endpoint could not be reached (network, timeout, redirect). */
  TOKEN_ENDPOINT_UNREACHABLE: 'OAUTH_TOKEN_ENDPOINT_UNREACHABLE',
  /** The token endpoint answered something that is not a JSON token response. */
  TOKEN_RESPONSE_INVALID: 'OAUTH_TOKEN_RESPONSE_INVALID',
  /** The token endpoint refused the refresh token: connect again. */
  REFRESH_FAILED: 'OAUTH_REFRESH_FAILED',
  /** The access token expired and the provider gave no refresh token: connect again. */
  REFRESH_TOKEN_MISSING: 'OAUTH_REFRESH_TOKEN_MISSING',
} as const;

const DRYDOCK = 'Drydock addition (the platform’s reference does not show this operation).';

export const oauthCallback = defineRoute({
  method: 'GET',
  path: OAUTH_CALLBACK_PATH,
  operationId: 'completeUserOAuth',
  tag: 'User OAuth Tokens',
  summary: 'Where the provider sends the browser back: exchanges the code (with the PKCE verifier) and stores the tokens in the keychain',
  description:
    `${DRYDOCK} No credential: the browser arrives here from the provider, and the one-time \`state\` from \`initiate\` names ` +
    'the user and authorization (unknown: `OAUTH_STATE_INVALID`, used: `OAUTH_STATE_USED`, expired: `OAUTH_STATE_EXPIRED`). ' +
    'Answers a short HTML page saying whether the connection succeeded (never a token) to a browser (`Accept: text/html`), and ' +
    'problem+json to other clients. `error=access_denied` answers 403 `OAUTH_ACCESS_DENIED`, another provider error 502 ' +
    '`OAUTH_PROVIDER_ERROR`; a refused code 502 `OAUTH_TOKEN_EXCHANGE_FAILED`, an unreachable token endpoint 502 ' +
    '`OAUTH_TOKEN_ENDPOINT_UNREACHABLE`, an answer that is not a JSON token response 502 `OAUTH_TOKEN_RESPONSE_INVALID`. ' +
    'The state is used up by any answer, so a failed connection is started again with `initiate`; nothing is stored on failure.',
  auth: 'public',
  query: Type.Object(
    {
      state: Type.Optional(Type.String({ maxLength: 512 })),
      code: Type.Optional(Type.String({ maxLength: 4096 })),
      error: Type.Optional(Type.String({ maxLength: 256 })),
      error_description: Type.Optional(Type.String({ maxLength: 2048 })),
    },
    { additionalProperties: true },
  ),
  produces: 'text/html',
  response: Type.String({ description: 'A short HTML page for the person in the browser' }),
});

export const refreshUserOAuth = defineRoute({
  method: 'POST',
  path: '/api/v1/user-oauth-tokens/{integrationId}/refresh',
  operationId: 'refreshUserOAuthToken',
  tag: 'User OAuth Tokens',
  summary: 'Refresh the calling user’s access token for an integration now (refresh_token grant)',
  description:
    `${DRYDOCK} Drydock also refreshes an expired access token by itself before using it. The new tokens replace the old ones ` +
    'in the keychain (a rotated refresh token too). A refused refresh token answers 502 `OAUTH_REFRESH_FAILED` (connect again ' +
    'with `initiate`; the stored tokens are kept), a connection without a refresh token 409 `OAUTH_REFRESH_TOKEN_MISSING`.',
  params: IntegrationParams,
  response: UserOAuthToken,
});

// ---- OIDC tokens minted by this service ----------------------------------------------------------

/** Where the keys that verify minted OIDC tokens are published; the issuer is this service's origin plus `OIDC_ISSUER_PATH`. */
export const OIDC_ISSUER_PATH = '/api/v1/oidc';
export const OIDC_JWKS_PATH = `${OIDC_ISSUER_PATH}/jwks.json`;

export const mintOidcToken = defineRoute({
  method: 'POST',
  path: '/api/v1/oidc-token-configs/{id}/token',
  operationId: 'mintOidcToken',
  tag: 'OIDC Token Configs',
  summary: 'Mint an OIDC token for the calling user under a config (a signed RS256 JWT)',
  description:
    `${DRYDOCK} Claims: \`iss\` this service's issuer (\`http://127.0.0.1:<port>${OIDC_ISSUER_PATH}\`), \`aud\` the config's ` +
    'audience, `sub` the user’s email or id (the config’s `subjectClaim`), `iat`, `nbf`, `exp` (`ttlSeconds` later), `jti`, and one ' +
    'claim per `attributeClaims` user attribute the user has a value for. Verify it against the published key set ' +
    `(\`GET ${OIDC_JWKS_PATH}\`, discovery at \`${OIDC_ISSUER_PATH}/.well-known/openid-configuration\`).`,
  params: IdParams,
  status: 201,
  response: Type.Object({
    token: Type.String({ description: 'The signed JWT; treat it as a secret' }),
    tokenType: Type.Literal('Bearer'),
    expiresAt: Timestamp,
    issuer: Type.String(),
    audience: Type.String(),
    jwksUri: Type.String(),
  }),
});

const Jwk = Type.Object(
  { kty: Type.String(), kid: Type.String(), alg: Type.String(), use: Type.String(), n: Type.String(), e: Type.String() },
  { description: 'A public RSA signing key (RFC 7517)' },
);

export const getOidcJwks = defineRoute({
  method: 'GET',
  path: OIDC_JWKS_PATH,
  operationId: 'getOidcJwks',
  tag: 'OIDC Token Configs',
  summary: 'The public keys that verify OIDC tokens minted here (JSON Web Key Set)',
  description: `${DRYDOCK} No credential: public keys only, for relying parties that verify minted tokens.`,
  auth: 'public',
  response: Type.Object({ keys: Type.Array(Jwk) }),
});

export const getOidcDiscovery = defineRoute({
  method: 'GET',
  path: `${OIDC_ISSUER_PATH}/.well-known/openid-configuration`,
  operationId: 'getOidcDiscovery',
  tag: 'OIDC Token Configs',
  summary: 'OpenID Provider metadata of the issuer of minted OIDC tokens (issuer and where its keys are)',
  description: `${DRYDOCK} No credential, like the key set it points to.`,
  auth: 'public',
  response: Type.Object({
    issuer: Type.String(),
    jwks_uri: Type.String(),
    response_types_supported: Type.Array(Type.String()),
    subject_types_supported: Type.Array(Type.String()),
    id_token_signing_alg_values_supported: Type.Array(Type.String()),
    claims_supported: Type.Array(Type.String()),
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
  oauthCallback,
  refreshUserOAuth,
  mintOidcToken,
  getOidcJwks,
  getOidcDiscovery,
};
