// Who a request acts as (the resolved credential) and the spec's access levels: types that the
// authenticator (auth.ts) and its cache (principal-cache.ts) share, in a module neither owns.
import type { TokenKind } from '../platform/tokens/tokens';

export type Role = 'admin' | 'developer' | 'viewer';

/** The spec's access levels, reusable as route guards. */
export type AccessLevel = 'deploymentRead' | 'deploymentEdit' | 'schemaRead' | 'schemaUpdate' | 'sqlRunnerRead' | 'admin';

export interface Principal {
  userId: number | null;
  email: string | null;
  name: string | null;
  role: Role;
  /** Policy actions granted (`SchemaUpdate`) or withdrawn (`-SqlRunnerRead`) on top of the role. */
  actions: string[];
  via: 'apiKey' | TokenKind;
  sid: string | null;
  /** OAuth scopes, when the credential is an OAuth token. */
  scopes: string[] | null;
  /** A deployment token only opens its own deployment. */
  deploymentId: number | null;
  embedTenant: string | null;
  claims: Record<string, unknown>;
}
