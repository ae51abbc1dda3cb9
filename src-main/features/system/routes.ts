import * as api from '../../../src-shared/api/system';
import packageJson from '../../../package.json';
import type { ServiceContext } from '../../context';
import type { Api } from '../../http/route';
import { ApiError } from '../../http/problem';
import { sha256 } from '../../platform/tokens/tokens';
import { WORKSPACE_SESSION_TTL_S } from './login-codes';

export { createLoginCode, WORKSPACE_SESSION_TTL_S } from './login-codes';

const { version } = packageJson;

/**
 * Why a login code did not open a session — used, expired, or never this service's — and how to get
 * a new link for this very service (issue 24: "already used" alone left a person with no way on).
 */
function loginCodeRefusal(ctx: ServiceContext, codeHash: string, now: string): ApiError {
  const known = ctx.db.prepare('SELECT used_at, expires_at FROM login_codes WHERE code_hash = ?').get(codeHash) as { used_at: string | null; expires_at: string } | undefined;
  const reason = !known ? 'unknown' : known.used_at !== null ? 'used' : known.expires_at <= now ? 'expired' : 'unknown';
  const what = { used: 'was already used: a login link opens one session only', expired: 'has expired: a login link lasts ten minutes', unknown: 'is not one this service issued' }[reason];
  const command = typeof ctx.services.newLoginLinkCommand === 'string' ? ctx.services.newLoginLinkCommand : undefined;
  const hint = typeof ctx.services.newLoginLinkHint === 'string' ? ctx.services.newLoginLinkHint : undefined;
  const next = command ? ` For a new link, run: ${command}` : hint ? ` For a new link: ${hint}.` : ' Ask whoever started the service for a new one.';
  return new ApiError(401, 'LOGIN_CODE_INVALID', `This login link ${what}.${next}`, {
    reason,
    ...(command ? { newLinkCommand: command } : {}),
    ...(hint ? { newLinkHint: hint } : {}),
  });
}

export function registerSystemRoutes({ route, app, ctx }: Api): void {
  route(api.getSpec, {}, async () => {
    // The document describes every operation: areas not loaded yet load first (start time, issue 10).
    await (ctx.services.loadAllAreas as (() => Promise<void>) | undefined)?.();
    return app.openApiDocument();
  });
  route(api.getHealth, {}, () => ({ status: 'ok' as const, version }));
  route(api.exchangeLoginCode, {}, async ({ body }) => {
    const now = ctx.clock.now().toISOString();
    const row = ctx.db
      .prepare('UPDATE login_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING user_id')
      .get(now, sha256(body.code), now) as { user_id: number } | undefined;
    if (!row) throw loginCodeRefusal(ctx, sha256(body.code), now);
    const issued = await ctx.tokens.issue({ userId: row.user_id, kind: 'workspace', ttlSeconds: WORKSPACE_SESSION_TTL_S });
    return { token: issued.token, expiresAt: issued.expiresAt.toISOString() };
  });
}
