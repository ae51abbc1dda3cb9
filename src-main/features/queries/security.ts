import type { QuerySecurity } from '../../../src-shared/model/query';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { groupNamesOf } from '../access';
import { attributeValuesByName } from '../user-attributes';

/**
 * Who is asking, as the model's access policies see it: the user's groups (and an environment
 * token's `securityContext.groups`), the user's role, the token's security context and the user's
 * attribute values.
 */
export function querySecurityOf(ctx: ServiceContext, principal: Principal): QuerySecurity {
  const claimed = principal.claims.securityContext;
  const securityContext = claimed !== null && typeof claimed === 'object' && !Array.isArray(claimed) ? (claimed as Record<string, unknown>) : {};
  const contextGroups = Array.isArray(securityContext.groups) ? securityContext.groups.filter((g): g is string => typeof g === 'string') : [];
  const contextRoles = Array.isArray(securityContext.roles) ? securityContext.roles.filter((g): g is string => typeof g === 'string') : [];
  const userId = principal.userId;
  return {
    groups: [...new Set([...(userId !== null ? groupNamesOf(ctx, userId) : []), ...contextGroups])],
    roles: [...new Set([principal.role, ...contextRoles])],
    securityContext,
    userAttributes: userId !== null ? attributeValuesByName(ctx, userId) : {},
  };
}
