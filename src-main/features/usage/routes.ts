import * as api from '../../../src-shared/api/usage';
import type { Api } from '../../http/route';

export function registerUsageRoutes({ route, ctx }: Api): void {
  route(api.createUsageAnalyticsToken, { access: ['admin'] }, async ({ principal }) => {
    // Kind `usage-analytics`: the management API's Authenticator refuses it, the analytics API accepts it.
    const issued = await ctx.tokens.issue({
      userId: principal.userId,
      kind: 'usage-analytics',
      ttlSeconds: api.USAGE_ANALYTICS_TOKEN_TTL_SECONDS,
      meta: { purpose: 'usage-analytics' },
    });
    return { token: issued.token, expiresAt: issued.expiresAt.toISOString() };
  });
}
