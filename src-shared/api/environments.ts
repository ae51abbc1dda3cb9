import { Type, type Static } from 'typebox';
import { defineRoute, Nullable, Page, PageQuery, Timestamp } from './contract';

/** The only `scopes` entries an environment token is ever signed with (besides the server's own qualifier). */
export const ENVIRONMENT_TOKEN_SCOPES = ['meta', 'sql-runner'] as const;
/** Appended by the server when `sql-runner` is signed and the deployment has DDL disabled. */
export const SQL_RUNNER_NO_DDL_SCOPE = 'sql-runner-permissions:no-ddl';
/** Environment tokens expire within the hour. */
export const ENVIRONMENT_TOKEN_MAX_SECONDS = 3600;
export const ENVIRONMENT_TOKEN_LIST_LIMIT = 1000;

export const ENVIRONMENT_KINDS = ['production', 'staging', 'development'] as const;
export type EnvironmentKind = (typeof ENVIRONMENT_KINDS)[number];

export const Environment = Type.Object({
  id: Type.Integer(),
  deploymentId: Type.Integer(),
  name: Type.String(),
  kind: Type.Enum(ENVIRONMENT_KINDS as unknown as EnvironmentKind[]),
  branchName: Type.String(),
  ownerUserId: Nullable(Type.Integer({ description: 'The developer a development environment belongs to' })),
  createdAt: Timestamp,
});
export type Environment = Static<typeof Environment>;

const EnvironmentParams = Type.Object({
  deploymentId: Type.Integer({ minimum: 1 }),
  environmentId: Type.Integer({ minimum: 1 }),
});

const SecurityContext = Type.Object(
  {},
  { additionalProperties: true, maxProperties: 100, description: 'Claims the data API evaluates access policies with' },
);

export const EnvironmentTokenInput = Type.Object(
  {
    security_context: Type.Optional(SecurityContext),
    expires_in: Type.Optional(
      Type.Integer({ minimum: 1, maximum: ENVIRONMENT_TOKEN_MAX_SECONDS, description: 'Lifetime in seconds; default and maximum 3600' }),
    ),
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 50 })),
    scope: Type.Optional(Type.Unknown({ description: 'Never signed: a caller-supplied `scope` claim is ignored' })),
  },
  { additionalProperties: false },
);
export type EnvironmentTokenInput = Static<typeof EnvironmentTokenInput>;

const SignedToken = {
  created_at: Timestamp,
  expires_at: Timestamp,
  scopes: Type.Array(Type.String(), { description: 'Exactly the scopes signed into the token' }),
  security_context: Type.Object({}, { additionalProperties: true, description: 'Exactly the security context signed into the token' }),
  token: Type.String(),
};

export const EnvironmentTokenCreated = Type.Object({
  data: Type.Object({
    id: Type.Integer(),
    ...SignedToken,
    dropped_scopes: Type.Array(Type.String(), { description: 'Requested scopes that were not signed' }),
    dropped_security_context_keys: Type.Array(Type.String(), { description: 'security_context keys that were not signed' }),
  }),
});

export const MetaSyncTokenCreated = Type.Object({ data: Type.Object(SignedToken) });

export const EnvironmentTokenSummary = Type.Object({
  id: Type.Integer(),
  purpose: Type.Enum(['data', 'meta-sync']),
  created_at: Timestamp,
  expires_at: Timestamp,
  scopes: Type.Array(Type.String()),
  security_context: Type.Object({}, { additionalProperties: true }),
});

const E = '/api/v1/deployments/{deploymentId}/environments';

export const listEnvironments = defineRoute({
  method: 'GET',
  path: E,
  operationId: 'listEnvironments',
  tag: 'Environments',
  summary: 'Environments of the deployment (available to embed sessions)',
  params: Type.Object({ deploymentId: Type.Integer({ minimum: 1 }) }),
  query: Type.Object(PageQuery),
  response: Page(Environment),
});

export const createEnvironmentToken = defineRoute({
  method: 'POST',
  path: `${E}/{environmentId}/tokens`,
  operationId: 'createEnvironmentToken',
  tag: 'Environments',
  summary: 'Mint a data API token for the environment',
  description:
    'Signs only the allowlisted scopes `meta` and `sql-runner` (the latter only with SQL Runner read access); caller `sql-runner-permissions:*` entries are ignored and `sql-runner-permissions:no-ddl` is appended when the deployment has DDL disabled. Without deployment edit access every security_context key is dropped and `scopes` is ignored. A `scope` claim or `dev-token` entry is never signed. The response echoes exactly what was signed. Tokens expire within the hour. Embed sessions are refused.',
  params: EnvironmentParams,
  body: EnvironmentTokenInput,
  bodyOptional: true,
  response: EnvironmentTokenCreated,
});

export const listEnvironmentTokens = defineRoute({
  method: 'GET',
  path: `${E}/{environmentId}/tokens`,
  operationId: 'listEnvironmentTokens',
  tag: 'Environments',
  summary: 'The calling user’s live tokens for the environment, newest first (latest 1000); never the token itself',
  params: EnvironmentParams,
  query: Type.Object(PageQuery),
  response: Page(EnvironmentTokenSummary),
});

export const createEnvironmentTokenForMetaSync = defineRoute({
  method: 'POST',
  path: `${E}/{environmentId}/tokens-for-meta-sync`,
  operationId: 'createEnvironmentTokenForMetaSync',
  tag: 'Environments',
  summary: 'Mint a token for meta sync: the scope `meta` is always forced',
  description: 'Same rules as environment tokens, with `meta` always signed. Embed sessions are refused.',
  params: EnvironmentParams,
  body: EnvironmentTokenInput,
  bodyOptional: true,
  response: MetaSyncTokenCreated,
});

export const environmentsRoutes = {
  listEnvironments,
  createEnvironmentToken,
  listEnvironmentTokens,
  createEnvironmentTokenForMetaSync,
};
