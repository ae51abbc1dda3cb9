import type { ServiceContext } from '../../context';
import { hasAccess, type AccessLevel, type Principal } from '../../http/auth';

/**
 * Access helpers of the workspace areas (workbooks, folders, reports, workspace, notifications, embed).
 * Deployment-level access comes from the role and policy actions; a deployment token only opens its
 * own deployment. "Manage access" to an item (workbook, report, folder) is its owner or an admin.
 */
export function canAccessDeployment(principal: Principal, deploymentId: number, level: AccessLevel): boolean {
  if (principal.deploymentId !== null && principal.deploymentId !== deploymentId) return false;
  return hasAccess(principal, level);
}

export const canReadDeployment = (principal: Principal, deploymentId: number): boolean =>
  canAccessDeployment(principal, deploymentId, 'deploymentRead');

export const canEditDeployment = (principal: Principal, deploymentId: number): boolean =>
  canAccessDeployment(principal, deploymentId, 'deploymentEdit');

export const isAdmin = (principal: Principal): boolean => principal.via !== 'embed' && hasAccess(principal, 'admin');

/** Owner or admin: may delete the item, move it, and decide who else (embed tenants) may read it. */
export function canManageItem(principal: Principal, ownerUserId: number | null): boolean {
  if (principal.via === 'embed') return false;
  if (isAdmin(principal)) return true;
  return ownerUserId !== null && principal.userId === ownerUserId && hasAccess(principal, 'deploymentEdit');
}

/** "Manage access to a workbook" (spec: Authentication): the workbook's owner or an admin. */
export const canManageWorkbook = (principal: Principal, workbook: { ownerUserId: number | null }): boolean =>
  canManageItem(principal, workbook.ownerUserId);

/** A private (not shared) workbook is visible only to its owner and admins. */
export function canSeeWorkbook(principal: Principal, workbook: { ownerUserId: number | null; shared: boolean }): boolean {
  if (workbook.shared) return true;
  if (isAdmin(principal)) return true;
  return workbook.ownerUserId !== null && principal.userId === workbook.ownerUserId;
}

/**
 * Whether a deployment exists. The deployments area owns that table; until it exports a lookup,
 * this single read is the workspace areas' only touch of it (route guards do the same).
 */
export function deploymentExists(ctx: ServiceContext, deploymentId: number): boolean {
  return ctx.db.prepare('SELECT 1 FROM deployments WHERE id = ?').get(deploymentId) !== undefined;
}
