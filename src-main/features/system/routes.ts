import * as api from '../../../src-shared/api/system';
import packageJson from '../../../package.json';
import type { Api } from '../../http/route';
import { ApiError } from '../../http/problem';
import { sha256 } from '../../platform/tokens/tokens';
import { WORKSPACE_SESSION_TTL_S } from './login-codes';

export { createLoginCode, WORKSPACE_SESSION_TTL_S } from './login-codes';

const { version } = packageJson;

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
    if (!row) throw new ApiError(401, 'LOGIN_CODE_INVALID', 'This login link was already used or has expired. Ask for a new one.');
    const issued = await ctx.tokens.issue({ userId: row.user_id, kind: 'workspace', ttlSeconds: WORKSPACE_SESSION_TTL_S });
    return { token: issued.token, expiresAt: issued.expiresAt.toISOString() };
  });
}
