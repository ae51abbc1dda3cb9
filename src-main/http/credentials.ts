import { ErrorCodes } from '../../src-shared/api/errors';
import type { Principal } from './auth';
import { ApiError } from './problem';

/**
 * Which kinds of credential may call an operation — declared by every route, default `['user']`,
 * so a new route is closed to scoped credentials until it says otherwise.
 *
 * - `user`: full user credentials, an API key or a workspace session (the role and policies decide).
 * - `deploymentToken`: `POST /api/v1/deployments/{id}/token`. Only the operations of that one
 *   deployment (path `…/deployments/{deploymentId}/…` with its id), never tenant-wide ones, never one
 *   that mints a credential.
 * - `embed`: a signed embed session — only what the spec lets embed sessions use, only for the
 *   deployment (and, in the handler, the embed tenant) the session was issued for.
 * - `oauth:<scope>`: an OAuth bearer token carrying that scope (see {@link OAUTH_SCOPE_DESCRIPTIONS}).
 * - `environmentToken`: an environment's data API token (`POST …/environments/{id}/tokens`); only the
 *   data API (`…/cubejs-api/v1`) of its deployment accepts it.
 */
export type AcceptedCredential = 'user' | 'deploymentToken' | 'embed' | 'environmentToken' | `oauth:${OAuthScope}`;

export const OAUTH_SCOPES = ['deployment.read', 'deployment.write'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** The scope → operations mapping, stated in the OpenAPI document (the spec names only `deployment.write`). */
export const OAUTH_SCOPE_DESCRIPTIONS: Record<OAuthScope, string> = {
  'deployment.read':
    'read operations (GET) of one deployment (`/api/v1/deployments/{deploymentId}/…`, `/build/api/v1/deployments/{deploymentId}/…`), ' +
    'plus listing deployments and reading your own user; not the warehouse semantic view sync operations',
  'deployment.write':
    'everything `deployment.read` opens, plus the writes of one deployment (model files, branches, syncs, publications, workbooks, ' +
    'reports, tasks…) and every warehouse semantic view sync operation (start, progress, result, cancel)',
};

/** Sentence for the OpenAPI document: what no scoped credential ever reaches. */
export const SCOPED_CREDENTIAL_LIMITS =
  'No OAuth scope and no deployment token reaches tenant administration (users, API keys, tenant settings, OAuth integrations, ' +
  'OIDC configs, embed tenants, app theme), creating or deleting deployments, or any operation that mints a credential ' +
  '(API keys, deployment, environment, embed or usage tokens).';

/** The default: full user credentials only. */
export const USER_CREDENTIALS: readonly AcceptedCredential[] = ['user'];
/** Operations of one deployment, read-only: users, deployment tokens and either OAuth scope. */
export const DEPLOYMENT_READ_CREDENTIALS: readonly AcceptedCredential[] = ['user', 'deploymentToken', 'oauth:deployment.read', 'oauth:deployment.write'];
/** Operations that change one deployment: users, deployment tokens and the `deployment.write` OAuth scope. */
export const DEPLOYMENT_WRITE_CREDENTIALS: readonly AcceptedCredential[] = ['user', 'deploymentToken', 'oauth:deployment.write'];

export type CredentialKind = 'user' | 'deploymentToken' | 'embed' | 'environmentToken' | 'oauth';

export function credentialKindOf(principal: Principal): CredentialKind {
  switch (principal.via) {
    case 'apiKey':
    case 'workspace':
      return 'user';
    case 'deployment':
      return 'deploymentToken';
    case 'embed':
      return 'embed';
    case 'environment':
      return 'environmentToken';
    default:
      // `oauth`, and any kind the authenticator lets through later: confined like OAuth (scopes only).
      return 'oauth';
  }
}

/** A route's refusal of a credential kind, when the spec names a more specific code (e.g. promotions). */
export interface CredentialRefusal {
  code: string;
  detail: string;
}
export type CredentialRefusals = Partial<Record<CredentialKind, CredentialRefusal>>;

/**
 * Throws 403 unless the route accepts this principal's kind of credential, and — for credentials
 * bound to one deployment — unless the operation is on that deployment. `deploymentId` is the
 * operation's `{deploymentId}` path parameter, when it has one.
 */
export function assertCredentialAccepted(
  principal: Principal,
  accepted: readonly AcceptedCredential[],
  deploymentId: number | undefined,
  refusals: CredentialRefusals = {},
): void {
  const kind = credentialKindOf(principal);
  const refuse = (code: string, detail: string): never => {
    const refusal = refusals[kind];
    throw new ApiError(403, refusal?.code ?? code, refusal?.detail ?? detail);
  };
  if (kind === 'user') {
    if (!accepted.includes('user')) refuse('CREDENTIAL_REFUSED', 'This operation does not accept an API key or a workspace session.');
    return;
  }
  if (kind === 'embed') {
    if (!accepted.includes('embed')) refuse(ErrorCodes.EMBED_SESSION_REFUSED, 'Embed sessions cannot use this operation.');
  } else if (kind === 'deploymentToken') {
    if (!accepted.includes('deploymentToken')) {
      refuse('DEPLOYMENT_TOKEN_REFUSED', 'A deployment token only reaches its own deployment’s operations; use an API key or a workspace session.');
    }
  } else if (kind === 'environmentToken') {
    if (!accepted.includes('environmentToken')) refuse('ENVIRONMENT_TOKEN_REFUSED', 'An environment token is for the data API (…/cubejs-api/v1) of its deployment.');
  } else {
    const scopes = principal.scopes ?? [];
    const needed = accepted.filter((c) => c.startsWith('oauth:')).map((c) => c.slice('oauth:'.length));
    if (!needed.some((scope) => scopes.includes(scope))) {
      refuse(
        'INSUFFICIENT_SCOPE',
        needed.length > 0
          ? `This OAuth token lacks the scope this operation needs (${needed.map((s) => `\`${s}\``).join(' or ')}).`
          : 'No OAuth scope opens this operation; use an API key or a workspace session.',
      );
    }
  }
  // Credentials bound to one deployment never reach another one. Embed sessions always name theirs;
  // a deployment token without its claim is malformed and reaches no deployment.
  const bound = kind === 'deploymentToken' || kind === 'embed' || kind === 'environmentToken' || principal.deploymentId !== null;
  if (deploymentId !== undefined && bound && principal.deploymentId !== deploymentId) {
    throw new ApiError(
      403,
      'DEPLOYMENT_OUT_OF_SCOPE',
      principal.deploymentId === null
        ? 'This credential is not bound to a deployment.'
        : `This credential only grants access to deployment ${principal.deploymentId}.`,
    );
  }
}

/** One line for the OpenAPI description of an operation: who may call it. */
export function describeCredentials(accepted: readonly AcceptedCredential[], ofOneDeployment: boolean): string {
  const parts: string[] = [];
  if (accepted.includes('user')) parts.push('API key or workspace session');
  if (accepted.includes('deploymentToken')) parts.push(ofOneDeployment ? 'deployment token of this deployment' : 'deployment token');
  if (accepted.includes('embed')) parts.push(ofOneDeployment ? 'embed session of this deployment' : 'embed session');
  if (accepted.includes('environmentToken')) parts.push('environment token of this deployment');
  const scopes = accepted.filter((c) => c.startsWith('oauth:')).map((c) => `\`${c.slice('oauth:'.length)}\``);
  if (scopes.length > 0) parts.push(`OAuth token with scope ${scopes.join(' or ')}`);
  return `Credentials: ${parts.join('; ')}.`;
}
