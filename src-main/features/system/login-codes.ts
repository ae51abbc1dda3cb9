// One-time login codes and workspace session lifetime: used by the system routes and by the
// processes that start the service (`drydock serve`, the desktop service process) before any area
// is loaded, so this module stays free of the contract and the HTTP framework.
import type { ServiceContext } from '../../context';
import { randomToken, sha256 } from '../../platform/tokens/tokens';

const LOGIN_CODE_TTL_MS = 10 * 60 * 1000;
export const WORKSPACE_SESSION_TTL_S = 12 * 60 * 60;

/** A one-time code that opens a workspace session for `userId` (the browser login link). */
export function createLoginCode(ctx: ServiceContext, userId: number): string {
  const code = randomToken(24);
  const now = ctx.clock.now();
  ctx.db
    .prepare('INSERT INTO login_codes (code_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
    .run(sha256(code), userId, now.toISOString(), new Date(now.getTime() + LOGIN_CODE_TTL_MS).toISOString());
  return code;
}
