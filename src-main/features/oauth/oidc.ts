import type { OidcSubjectClaim, OidcTokenConfig } from '../../../src-shared/api/oauth';
import type { ServiceContext } from '../../context';
import { ApiError, conflict, notFound } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { allUserAttributes } from '../user-attributes';

/** Claims a minted token sets itself (RFC 7519 §4.1); a user attribute never takes their place. */
export const REGISTERED_CLAIMS: ReadonlySet<string> = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

interface OidcRow {
  id: number;
  name: string;
  description: string | null;
  audience: string;
  subject_claim: OidcSubjectClaim;
  attribute_claims: string;
  ttl_seconds: number;
  created_at: string;
  updated_at: string;
}

export const OIDC_TOKEN_CONFIG_NOT_FOUND = 'OIDC_TOKEN_CONFIG_NOT_FOUND';
export const DEFAULT_OIDC_TTL_SECONDS = 3600;

const toConfig = (row: OidcRow): OidcTokenConfig => ({
  id: row.id,
  name: row.name,
  description: row.description,
  audience: row.audience,
  subjectClaim: row.subject_claim,
  attributeClaims: JSON.parse(row.attribute_claims) as string[],
  ttlSeconds: row.ttl_seconds,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

function configRow(ctx: ServiceContext, id: number): OidcRow {
  const row = ctx.db.prepare('SELECT * FROM oidc_token_configs WHERE id = ?').get(id) as OidcRow | undefined;
  if (!row) throw notFound(`OIDC token config ${id}`, OIDC_TOKEN_CONFIG_NOT_FOUND);
  return row;
}

/** Claims are drawn from user attributes, so each name must be a defined attribute. */
function assertAttributes(ctx: ServiceContext, names: string[] | undefined): void {
  if (!names) return;
  const defined = new Set(allUserAttributes(ctx).map((a) => a.name.toLowerCase()));
  names.forEach((name, index) => {
    if (REGISTERED_CLAIMS.has(name)) {
      throw new ApiError(400, 'OIDC_CLAIM_RESERVED', `"${name}" is a claim the token sets itself; name another user attribute.`, {
        errors: [{ pointer: `/body/attributeClaims/${index}`, detail: 'is a registered JWT claim' }],
      });
    }
    if (!defined.has(name.toLowerCase())) {
      throw new ApiError(400, 'USER_ATTRIBUTE_NOT_FOUND', `"${name}" is not a defined user attribute.`, {
        errors: [{ pointer: `/body/attributeClaims/${index}`, detail: 'no such user attribute' }],
      });
    }
  });
}

const isUnique = (error: unknown) => error instanceof Error && error.message.includes('UNIQUE');
const nameTaken = (name: string) => conflict('OIDC_TOKEN_CONFIG_NAME_TAKEN', `An OIDC token config named "${name}" already exists.`);

export function listOidcConfigs(ctx: ServiceContext, page: PageRequest): PageResult<OidcTokenConfig> {
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db.prepare('SELECT * FROM oidc_token_configs WHERE id > ? ORDER BY id LIMIT ?').all(after ?? 0, limit) as OidcRow[];
  return toPage(rows, page, (r) => r.id, toConfig);
}

export const getOidcConfig = (ctx: ServiceContext, id: number): OidcTokenConfig => toConfig(configRow(ctx, id));

export interface OidcInput {
  name?: string;
  description?: string | null;
  audience?: string;
  subjectClaim?: OidcSubjectClaim;
  attributeClaims?: string[];
  ttlSeconds?: number;
}

export function createOidcConfig(ctx: ServiceContext, input: OidcInput & { name: string; audience: string }): OidcTokenConfig {
  assertAttributes(ctx, input.attributeClaims);
  const now = ctx.clock.now().toISOString();
  try {
    const id = Number(
      ctx.db
        .prepare(
          `INSERT INTO oidc_token_configs (name, description, audience, subject_claim, attribute_claims, ttl_seconds, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          input.name,
          input.description ?? null,
          input.audience,
          input.subjectClaim ?? 'email',
          JSON.stringify(input.attributeClaims ?? []),
          input.ttlSeconds ?? DEFAULT_OIDC_TTL_SECONDS,
          now,
          now,
        ).lastInsertRowid,
    );
    return getOidcConfig(ctx, id);
  } catch (error) {
    if (isUnique(error)) throw nameTaken(input.name);
    throw error;
  }
}

export function updateOidcConfig(ctx: ServiceContext, id: number, input: OidcInput): OidcTokenConfig {
  return ctx.db.transaction(() => {
    const row = configRow(ctx, id);
    assertAttributes(ctx, input.attributeClaims);
    try {
      ctx.db
        .prepare(
          `UPDATE oidc_token_configs SET name = ?, description = ?, audience = ?, subject_claim = ?, attribute_claims = ?, ttl_seconds = ?,
             updated_at = ? WHERE id = ?`,
        )
        .run(
          input.name ?? row.name,
          input.description !== undefined ? input.description : row.description,
          input.audience ?? row.audience,
          input.subjectClaim ?? row.subject_claim,
          input.attributeClaims ? JSON.stringify(input.attributeClaims) : row.attribute_claims,
          input.ttlSeconds ?? row.ttl_seconds,
          ctx.clock.now().toISOString(),
          id,
        );
    } catch (error) {
      if (isUnique(error)) throw nameTaken(input.name ?? row.name);
      throw error;
    }
    return getOidcConfig(ctx, id);
  })();
}

export function deleteOidcConfig(ctx: ServiceContext, id: number): void {
  if (ctx.db.prepare('DELETE FROM oidc_token_configs WHERE id = ?').run(id).changes === 0) {
    throw notFound(`OIDC token config ${id}`, OIDC_TOKEN_CONFIG_NOT_FOUND);
  }
}
