import { DEPLOYMENT_TOKEN_DEFAULT_SECONDS } from '../../../src-shared/api/deployments';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { forbidden } from '../../http/problem';
import { actorLabel } from './deployments';
import { appendDeploymentLog } from './logs';

/**
 * A bearer JWT of kind `deployment` carrying the caller's own access, restricted to one deployment
 * (claim `deploymentId`). Lives 24 hours unless `expiresIn` (60..86400 s, checked by the contract) says less.
 */
export async function mintDeploymentToken(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  expiresIn: number | undefined,
): Promise<{ token: string; expiresAt: string }> {
  if (principal.userId === null) throw forbidden('Deployment tokens are minted for a user; this credential names none.');
  if (principal.via === 'deployment') {
    // Otherwise a deployment token could renew itself forever.
    throw forbidden('A deployment token cannot mint deployment tokens; use an API key or a workspace session.', 'TOKEN_CANNOT_MINT');
  }
  const ttlSeconds = expiresIn ?? DEPLOYMENT_TOKEN_DEFAULT_SECONDS;
  const issued = await ctx.tokens.issue({
    userId: principal.userId,
    kind: 'deployment',
    ttlSeconds,
    claims: { deploymentId },
    meta: { deploymentId },
  });
  const expiresAt = issued.expiresAt.toISOString();
  try {
    ctx.db.transaction(() => {
      ctx.db
        .prepare('INSERT INTO deployment_tokens (sid, deployment_id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
        .run(issued.sid, deploymentId, principal.userId, issued.issuedAt.toISOString(), expiresAt);
      appendDeploymentLog(ctx, deploymentId, {
        source: 'production',
        container: 'api-proxy',
        message: `Deployment token issued to ${actorLabel(principal)}, valid ${ttlSeconds} s until ${expiresAt}.`,
      });
    })();
  } catch (error) {
    // Unrecorded tokens could not be revoked with their deployment: do not hand one out.
    ctx.tokens.revoke(issued.sid);
    throw error;
  }
  return { token: issued.token, expiresAt };
}
