import type { Environment, EnvironmentKind } from '../../../src-shared/api/environments';
import type { ServiceContext } from '../../context';
import { ApiError, notFound } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { getDeployBranch } from '../deployments';

interface EnvironmentRow {
  id: number;
  deployment_id: number;
  name: string;
  kind: EnvironmentKind;
  branch_name: string;
  owner_user_id: number | null;
  created_at: string;
}

const COLUMNS = 'id, deployment_id, name, kind, branch_name, owner_user_id, created_at';

function toEnvironment(ctx: ServiceContext, row: EnvironmentRow, deployBranch?: string): Environment {
  return {
    id: row.id,
    deploymentId: row.deployment_id,
    name: row.name,
    kind: row.kind,
    // Production always serves the deploy branch, whatever it was when the environment was made.
    branchName: row.kind === 'production' ? (deployBranch ?? getDeployBranch(ctx, row.deployment_id)) : row.branch_name,
    ownerUserId: row.owner_user_id,
    createdAt: row.created_at,
  };
}

/** Creates the production environment of a new deployment (inside the creating transaction). */
export function createProductionEnvironment(ctx: ServiceContext, deploymentId: number, branchName: string): Environment {
  const now = ctx.clock.now().toISOString();
  const id = Number(
    ctx.db
      .prepare("INSERT INTO environments (deployment_id, name, kind, branch_name, owner_user_id, created_at) VALUES (?, 'production', 'production', ?, NULL, ?)")
      .run(deploymentId, branchName, now).lastInsertRowid,
  );
  return getEnvironment(ctx, deploymentId, id);
}

/**
 * The development environment of a developer (dev mode), created on first use and moved to
 * `branchName` when the developer switches branches.
 */
export function ensureDevelopmentEnvironment(ctx: ServiceContext, deploymentId: number, ownerUserId: number, branchName: string): Environment {
  return ctx.db.transaction(() => {
    const existing = ctx.db
      .prepare(`SELECT ${COLUMNS} FROM environments WHERE deployment_id = ? AND kind = 'development' AND owner_user_id = ?`)
      .get(deploymentId, ownerUserId) as EnvironmentRow | undefined;
    if (existing) {
      if (existing.branch_name !== branchName) {
        ctx.db.prepare('UPDATE environments SET branch_name = ? WHERE id = ?').run(branchName, existing.id);
      }
      return getEnvironment(ctx, deploymentId, existing.id);
    }
    const id = Number(
      ctx.db
        .prepare("INSERT INTO environments (deployment_id, name, kind, branch_name, owner_user_id, created_at) VALUES (?, ?, 'development', ?, ?, ?)")
        .run(deploymentId, `dev-${ownerUserId}`, branchName, ownerUserId, ctx.clock.now().toISOString()).lastInsertRowid,
    );
    return getEnvironment(ctx, deploymentId, id);
  })();
}

/** The always-on staging environment of a branch, created if missing. */
export function ensureStagingEnvironment(ctx: ServiceContext, deploymentId: number, branchName: string): Environment {
  return ctx.db.transaction(() => {
    const name = `staging-${branchName}`;
    const existing = ctx.db.prepare(`SELECT ${COLUMNS} FROM environments WHERE deployment_id = ? AND name = ?`).get(deploymentId, name) as
      | EnvironmentRow
      | undefined;
    if (existing) return toEnvironment(ctx, existing);
    const id = Number(
      ctx.db
        .prepare("INSERT INTO environments (deployment_id, name, kind, branch_name, owner_user_id, created_at) VALUES (?, ?, 'staging', ?, NULL, ?)")
        .run(deploymentId, name, branchName, ctx.clock.now().toISOString()).lastInsertRowid,
    );
    return getEnvironment(ctx, deploymentId, id);
  })();
}

/** Removes the staging environment of a branch (and revokes its tokens); nothing when it has none. */
export function removeStagingEnvironment(ctx: ServiceContext, deploymentId: number, branchName: string): void {
  const row = ctx.db.prepare("SELECT id FROM environments WHERE deployment_id = ? AND name = ? AND kind = 'staging'").get(deploymentId, `staging-${branchName}`) as
    | { id: number }
    | undefined;
  if (row) removeEnvironment(ctx, deploymentId, row.id);
}

/** Removes a staging or development environment and revokes its tokens. Production cannot be removed. */
export function removeEnvironment(ctx: ServiceContext, deploymentId: number, environmentId: number): void {
  ctx.db.transaction(() => {
    const env = getEnvironment(ctx, deploymentId, environmentId);
    if (env.kind === 'production') throw new ApiError(409, 'PRODUCTION_ENVIRONMENT_REQUIRED', 'The production environment cannot be removed.');
    revokeTokensWhere(ctx, 'environment_id = ?', environmentId);
    ctx.db.prepare('DELETE FROM environments WHERE id = ?').run(environmentId);
  })();
}

/** One environment of a deployment; 404 `ENVIRONMENT_NOT_FOUND` otherwise. */
export function getEnvironment(ctx: ServiceContext, deploymentId: number, environmentId: number): Environment {
  const row = ctx.db.prepare(`SELECT ${COLUMNS} FROM environments WHERE id = ? AND deployment_id = ?`).get(environmentId, deploymentId) as
    | EnvironmentRow
    | undefined;
  if (!row) throw notFound(`Environment ${environmentId} of deployment ${deploymentId}`, 'ENVIRONMENT_NOT_FOUND');
  return toEnvironment(ctx, row);
}

/** The production environment of a deployment. */
export function getProductionEnvironment(ctx: ServiceContext, deploymentId: number): Environment {
  const row = ctx.db.prepare(`SELECT ${COLUMNS} FROM environments WHERE deployment_id = ? AND kind = 'production'`).get(deploymentId) as
    | EnvironmentRow
    | undefined;
  if (!row) throw notFound(`The production environment of deployment ${deploymentId}`, 'ENVIRONMENT_NOT_FOUND');
  return toEnvironment(ctx, row);
}

/** Every environment of a deployment, production first, then by id. */
export function allEnvironments(ctx: ServiceContext, deploymentId: number): Environment[] {
  const deployBranch = getDeployBranch(ctx, deploymentId);
  const rows = ctx.db.prepare(`SELECT ${COLUMNS} FROM environments WHERE deployment_id = ? ORDER BY id`).all(deploymentId) as EnvironmentRow[];
  return rows.map((row) => toEnvironment(ctx, row, deployBranch));
}

export function listEnvironments(ctx: ServiceContext, deploymentId: number, page: PageRequest): PageResult<Environment> {
  const { limit, after } = pageWindow<number>(page);
  if (after !== null && !Number.isInteger(after)) throw new ApiError(400, 'INVALID_CURSOR', 'The `after` cursor is not one this service issued.');
  const deployBranch = getDeployBranch(ctx, deploymentId);
  const rows = ctx.db
    .prepare(`SELECT ${COLUMNS} FROM environments WHERE deployment_id = ? AND id > ? ORDER BY id LIMIT ?`)
    .all(deploymentId, after ?? 0, limit) as EnvironmentRow[];
  return toPage(rows, page, (row) => row.id, (row) => toEnvironment(ctx, row, deployBranch));
}

function revokeTokensWhere(ctx: ServiceContext, where: 'environment_id = ?' | 'environment_id IN (SELECT id FROM environments WHERE deployment_id = ?)', id: number): void {
  const rows = ctx.db.prepare(`SELECT sid FROM environment_tokens WHERE ${where}`).all(id) as { sid: string }[];
  for (const { sid } of rows) ctx.tokens.revoke(sid);
}

/** Revokes every environment token of a deployment (used when the deployment is deleted). */
export function revokeEnvironmentTokens(ctx: ServiceContext, deploymentId: number): void {
  revokeTokensWhere(ctx, 'environment_id IN (SELECT id FROM environments WHERE deployment_id = ?)', deploymentId);
}
