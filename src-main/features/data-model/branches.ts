import type { Branch, BranchKind } from '../../../src-shared/api/data-model';
import { DataModelErrorCodes as Codes } from '../../../src-shared/api/data-model';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { branchNameProblem, type GitRepository } from '../../platform/repo';
import { emitBranchServingChanged, guarded, logRepositoryEvent, openRepository } from './repository';
import { ensureStagingEnvironment, removeStagingEnvironment } from '../environments';
import { pushAfterChange } from './upstream/auto-push';
import { resolveUpstream } from './upstream/endpoint';
import { NOT_TRACKING, setUpstream, upstreamFieldsOf, type UpstreamFields } from './upstream/tracking';

export interface BranchRow {
  deployment_id: number;
  name: string;
  kind: BranchKind;
  parent_branch: string | null;
  is_dev_mode: number;
  owner_user_id: number | null;
  staging_environment_enabled: number;
  created_at: string;
  updated_at: string;
}

/** A branch as the API sees it: its git head plus its metadata (defaults for branches made with plain git). */
export interface BranchState {
  name: string;
  head: string;
  kind: BranchKind;
  parent: string | null;
  isDevMode: boolean;
  ownerUserId: number | null;
  stagingEnabled: boolean;
  createdAt: string | null;
  row: BranchRow | null;
}

const PERSONAL_NAME = /^dev-\d+([-/]|$)/;

export function branchRow(ctx: ServiceContext, deploymentId: number, name: string): BranchRow | undefined {
  return ctx.db.prepare('SELECT * FROM model_branches WHERE deployment_id = ? AND name = ?').get(deploymentId, name) as BranchRow | undefined;
}

function stateOf(name: string, head: string, row: BranchRow | undefined, deployBranch: string): BranchState {
  if (row) {
    return {
      name,
      head,
      kind: row.kind,
      parent: row.parent_branch,
      isDevMode: row.is_dev_mode === 1,
      ownerUserId: row.owner_user_id,
      stagingEnabled: row.staging_environment_enabled === 1,
      createdAt: row.created_at,
      row,
    };
  }
  // Made outside Drydock (plain git): a shared branch that merges into the deploy branch.
  const isDeploy = name === deployBranch;
  return {
    name,
    head,
    kind: isDeploy ? 'deploy' : 'shared',
    parent: isDeploy ? null : deployBranch,
    isDevMode: false,
    ownerUserId: null,
    stagingEnabled: false,
    createdAt: null,
    row: null,
  };
}

export function assertBranchName(name: string, pointer: string): void {
  const problem = branchNameProblem(name);
  if (problem) {
    const detail = `"${name}" is not a valid branch name: it ${problem}.`;
    throw new ApiError(400, Codes.INVALID_BRANCH_NAME, detail, { errors: [{ pointer, detail }] });
  }
}

/** The branch (404 `BRANCH_NOT_FOUND` when git has no such branch). */
export async function loadBranch(ctx: ServiceContext, repo: GitRepository, deploymentId: number, deployBranch: string, name: string): Promise<BranchState> {
  const head = await repo.head(name);
  if (!head) throw new ApiError(404, Codes.BRANCH_NOT_FOUND, `Branch "${name}" does not exist in deployment ${deploymentId}.`);
  return stateOf(name, head, branchRow(ctx, deploymentId, name), deployBranch);
}

/** The caller's active dev-mode branch, if the caller is in dev mode. */
export function activeDevBranch(ctx: ServiceContext, deploymentId: number, principal: Principal): BranchRow | undefined {
  if (principal.userId === null) return undefined;
  return ctx.db
    .prepare('SELECT * FROM model_branches WHERE deployment_id = ? AND owner_user_id = ? AND is_dev_mode = 1')
    .get(deploymentId, principal.userId) as BranchRow | undefined;
}

/** `branchName` when given, else the caller's dev-mode branch when in dev mode, else the deploy branch. */
export function defaultBranch(ctx: ServiceContext, deploymentId: number, principal: Principal, deployBranch: string, requested?: string): string {
  if (requested !== undefined) return requested;
  return activeDevBranch(ctx, deploymentId, principal)?.name ?? deployBranch;
}

/** The caller's branch for branch operations: `branchName`, else the dev-mode branch (409 `NOT_IN_DEV_MODE` without one). */
export function operationBranch(ctx: ServiceContext, deploymentId: number, principal: Principal, requested?: string): string {
  if (requested !== undefined) return requested;
  const dev = activeDevBranch(ctx, deploymentId, principal);
  if (!dev) {
    throw new ApiError(409, Codes.NOT_IN_DEV_MODE, 'You are not in dev mode: enter dev mode (POST dev-mode) or name the branch with `branchName`.');
  }
  return dev.name;
}

/** A personal branch belongs to its owner (an admin may act on it too). */
export function assertMayActOn(branch: BranchState, principal: Principal, allowAdmin: boolean): void {
  if (branch.kind !== 'personal' || branch.ownerUserId === principal.userId) return;
  if (allowAdmin && principal.role === 'admin') return;
  throw new ApiError(403, Codes.DEV_BRANCH_OF_ANOTHER_USER, `Branch "${branch.name}" is the personal dev branch of another user.`);
}

/** File edits are allowed only on the caller's own branch while the caller is in dev mode on it. */
export function assertWritable(branch: BranchState, principal: Principal): void {
  if (branch.kind === 'personal' && branch.ownerUserId !== principal.userId) assertMayActOn(branch, principal, false);
  if (!branch.isDevMode) {
    throw new ApiError(
      409,
      Codes.BRANCH_NOT_IN_DEV_MODE,
      `Branch "${branch.name}" is not in dev mode; files can only be edited on your dev-mode branch (POST dev-mode), then committed and merged.`,
    );
  }
}

export function uncommittedCounts(ctx: ServiceContext, deploymentId: number): Map<string, number> {
  const rows = ctx.db
    .prepare('SELECT branch, COUNT(*) AS n FROM model_working_files WHERE deployment_id = ? GROUP BY branch')
    .all(deploymentId) as { branch: string; n: number }[];
  return new Map(rows.map((r) => [r.branch, r.n]));
}

export function toBranch(state: BranchState, deployBranch: string, uncommitted: number, upstream: UpstreamFields = NOT_TRACKING): Branch {
  return {
    branchName: state.name,
    parentBranch: state.parent,
    kind: state.kind,
    isDeployBranch: state.name === deployBranch,
    isDevMode: state.isDevMode,
    ownerUserId: state.ownerUserId,
    isStagingEnvironmentEnabled: state.stagingEnabled,
    headCommit: state.head,
    hasUncommittedChanges: uncommitted > 0,
    createdAt: state.createdAt,
    upstream: upstream.upstream,
    ahead: upstream.ahead,
    behind: upstream.behind,
  };
}

export async function describeBranch(ctx: ServiceContext, deploymentId: number, name: string): Promise<Branch> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const state = await loadBranch(ctx, repo, deploymentId, deployBranch, name);
  const upstream = (await upstreamFieldsOf(ctx, deploymentId, repo, new Map([[name, state.head]]))).get(name);
  return toBranch(state, deployBranch, uncommittedCounts(ctx, deploymentId).get(name) ?? 0, upstream);
}

/** Every branch git has, deploy branch first, then by name. */
export async function listBranchStates(ctx: ServiceContext, deploymentId: number): Promise<Branch[]> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const rows = new Map(
    (ctx.db.prepare('SELECT * FROM model_branches WHERE deployment_id = ?').all(deploymentId) as BranchRow[]).map((r) => [r.name, r]),
  );
  const counts = uncommittedCounts(ctx, deploymentId);
  const names = (await repo.branches()).sort((a, b) => (a === deployBranch ? -1 : b === deployBranch ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const heads = new Map<string, string>();
  for (const name of names) {
    const head = await repo.head(name);
    if (head) heads.set(name, head);
  }
  const upstreams = await upstreamFieldsOf(ctx, deploymentId, repo, heads);
  return [...heads].map(([name, head]) => toBranch(stateOf(name, head, rows.get(name), deployBranch), deployBranch, counts.get(name) ?? 0, upstreams.get(name)));
}

export function insertBranchRow(
  ctx: ServiceContext,
  deploymentId: number,
  row: { name: string; kind: BranchKind; parent: string | null; devMode: boolean; owner: number | null; staging?: boolean },
): void {
  const now = ctx.clock.now().toISOString();
  ctx.db
    .prepare(
      `INSERT INTO model_branches (deployment_id, name, kind, parent_branch, is_dev_mode, owner_user_id, staging_environment_enabled, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(deploymentId, row.name, row.kind, row.parent, row.devMode ? 1 : 0, row.owner, row.staging ? 1 : 0, now, now);
}

export async function createSharedBranch(ctx: ServiceContext, deploymentId: number, principal: Principal, name: string, parentName?: string): Promise<Branch> {
  assertBranchName(name, '/body/branchName');
  if (PERSONAL_NAME.test(name)) {
    throw new ApiError(400, Codes.INVALID_BRANCH_NAME, `Names like "${name}" (dev-<userId>…) are reserved for personal dev branches.`, {
      errors: [{ pointer: '/body/branchName', detail: 'reserved for personal dev branches' }],
    });
  }
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const parent = parentName ?? deployBranch;
  const connected = (await resolveUpstream(ctx, deploymentId).catch(() => null)) !== null;
  await repo.exclusive(async () => {
    const parentState = await loadBranch(ctx, repo, deploymentId, deployBranch, parent);
    if (parentState.kind === 'personal') {
      throw new ApiError(409, Codes.INVALID_PARENT_BRANCH, `Branch "${parent}" is a personal dev branch; fork from the deploy branch or a shared branch.`);
    }
    if ((await repo.head(name)) || branchRow(ctx, deploymentId, name)) {
      throw new ApiError(409, Codes.BRANCH_EXISTS, `Branch "${name}" already exists.`);
    }
    await guarded(() => repo.createBranch(name, parentState.head));
    try {
      ctx.db.transaction(() => {
        insertBranchRow(ctx, deploymentId, { name, kind: 'shared', parent, devMode: false, owner: principal.userId });
        // On a connected deployment a shared branch is the team's: it tracks a remote branch of its name.
        if (connected) setUpstream(ctx, deploymentId, name, name);
      })();
    } catch (error) {
      await repo.deleteBranch(name);
      throw error;
    }
    logRepositoryEvent(ctx, deploymentId, name, deployBranch, `Branch "${name}" created from "${parent}" by ${principal.email ?? 'an API client'}.`);
  });
  // Created on the remote too; a failure shows as `ahead` and goes with the next push.
  if (connected) await pushAfterChange(ctx, deploymentId, name);
  return describeBranch(ctx, deploymentId, name);
}

export interface DeletedBranch {
  branchName: string;
  deleted: true;
  reparentedBranches: string[];
  newParentBranch: string | null;
  removedOnUpstream: boolean;
}

export async function deleteBranch(ctx: ServiceContext, deploymentId: number, principal: Principal, name: string): Promise<DeletedBranch> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  return repo.exclusive(async () => {
    if (name === deployBranch) {
      throw new ApiError(409, Codes.DEPLOY_BRANCH_PROTECTED, `"${name}" is the deploy branch of deployment ${deploymentId} and cannot be deleted.`);
    }
    const state = await loadBranch(ctx, repo, deploymentId, deployBranch, name);
    assertMayActOn(state, principal, true);
    const newParent = state.parent ?? deployBranch;
    await guarded(() => repo.deleteBranch(name));
    let reparented: string[];
    try {
      reparented = ctx.db.transaction(() => {
        const now = ctx.clock.now().toISOString();
        const children = ctx.db
          .prepare('UPDATE model_branches SET parent_branch = ?, updated_at = ? WHERE deployment_id = ? AND parent_branch = ? RETURNING name')
          .all(newParent, now, deploymentId, name) as { name: string }[];
        ctx.db.prepare('DELETE FROM model_branches WHERE deployment_id = ? AND name = ?').run(deploymentId, name);
        return children.map((c) => c.name).sort();
      })();
    } catch (error) {
      // Keep git and the metadata in step: put the branch back.
      await repo.setHead(name, state.head, null);
      throw error;
    }
    logRepositoryEvent(ctx, deploymentId, name, deployBranch, `Branch "${name}" deleted by ${principal.email ?? 'an API client'}.`);
    return { branchName: name, deleted: true as const, reparentedBranches: reparented, newParentBranch: reparented.length > 0 ? newParent : null, removedOnUpstream: false };
  });
}

/** Makes sure a branch made with plain git has a metadata row before metadata is written. */
export function adoptBranch(ctx: ServiceContext, deploymentId: number, state: BranchState): void {
  if (state.row) return;
  insertBranchRow(ctx, deploymentId, { name: state.name, kind: state.kind, parent: state.parent, devMode: false, owner: null });
}

export async function setStagingEnvironment(ctx: ServiceContext, deploymentId: number, principal: Principal, name: string, enabled: boolean): Promise<Branch> {
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  await repo.exclusive(async () => {
    const state = await loadBranch(ctx, repo, deploymentId, deployBranch, name);
    assertMayActOn(state, principal, true);
    ctx.db.transaction(() => {
      adoptBranch(ctx, deploymentId, state);
      ctx.db
        .prepare('UPDATE model_branches SET staging_environment_enabled = ?, updated_at = ? WHERE deployment_id = ? AND name = ?')
        .run(enabled ? 1 : 0, ctx.clock.now().toISOString(), deploymentId, name);
      // The always-on environment exists exactly while the flag is on (its tokens go with it).
      if (enabled) ensureStagingEnvironment(ctx, deploymentId, name);
      else removeStagingEnvironment(ctx, deploymentId, name);
    })();
  });
  // Builds start (or the branch's build status resets) from here.
  emitBranchServingChanged(ctx, deploymentId, name);
  return describeBranch(ctx, deploymentId, name);
}

// ---- dev mode ------------------------------------------------------------------------------

export function personalBranchName(userId: number, parent: string, deployBranch: string): string {
  return parent === deployBranch ? `dev-${userId}` : `dev-${userId}-${parent.replace(/\//g, '-')}`.slice(0, 100).replace(/[.-]+$/, '');
}

function requireUser(principal: Principal): number {
  if (principal.userId === null) throw new ApiError(403, Codes.USER_REQUIRED, 'Dev mode belongs to a user; this credential names none.');
  return principal.userId;
}

/**
 * Enters dev mode: the caller's personal dev branch forked from `parentName` (default the deploy
 * branch) becomes their one active dev-mode branch. Idempotent: an existing personal branch is resumed.
 */
export async function startDevMode(ctx: ServiceContext, deploymentId: number, principal: Principal, parentName?: string): Promise<{ created: boolean; branch: Branch }> {
  const userId = requireUser(principal);
  if (parentName !== undefined) assertBranchName(parentName, '/querystring/branchName');
  const { repo, deployBranch } = await openRepository(ctx, deploymentId);
  const parent = parentName ?? deployBranch;
  const name = personalBranchName(userId, parent, deployBranch);
  const created = await repo.exclusive(async () => {
    const parentState = await loadBranch(ctx, repo, deploymentId, deployBranch, parent);
    if (parentState.kind === 'personal') {
      throw new ApiError(409, Codes.INVALID_PARENT_BRANCH, `Branch "${parent}" is a personal dev branch; dev mode forks from the deploy branch or a shared branch.`);
    }
    const existingHead = await repo.head(name);
    const row = branchRow(ctx, deploymentId, name);
    if (existingHead && (!row || row.kind !== 'personal' || row.owner_user_id !== userId)) {
      throw new ApiError(409, Codes.BRANCH_EXISTS, `Branch "${name}" exists and is not your personal dev branch.`);
    }
    const activate = () => {
      const now = ctx.clock.now().toISOString();
      ctx.db
        .prepare('UPDATE model_branches SET is_dev_mode = 0, updated_at = ? WHERE deployment_id = ? AND owner_user_id = ? AND is_dev_mode = 1 AND name <> ?')
        .run(now, deploymentId, userId, name);
      ctx.db.prepare('UPDATE model_branches SET is_dev_mode = 1, updated_at = ? WHERE deployment_id = ? AND name = ?').run(now, deploymentId, name);
    };
    if (existingHead) {
      ctx.db.transaction(activate)();
      return false;
    }
    await guarded(() => repo.createBranch(name, parentState.head));
    try {
      ctx.db.transaction(() => {
        // A leftover row without a git branch (deleted with plain git) is replaced.
        ctx.db.prepare('DELETE FROM model_branches WHERE deployment_id = ? AND name = ?').run(deploymentId, name);
        insertBranchRow(ctx, deploymentId, { name, kind: 'personal', parent, devMode: false, owner: userId });
        activate();
      })();
    } catch (error) {
      await repo.deleteBranch(name);
      throw error;
    }
    logRepositoryEvent(ctx, deploymentId, name, deployBranch, `Dev branch "${name}" created from "${parent}" for ${principal.email ?? `user ${userId}`}.`);
    return true;
  });
  // A dev-mode branch is built like the deploy branch, so its build status is true.
  emitBranchServingChanged(ctx, deploymentId, name);
  return { created, branch: await describeBranch(ctx, deploymentId, name) };
}

/** Leaves dev mode; the dev branch and its uncommitted edits stay for the next time. */
export async function stopDevMode(ctx: ServiceContext, deploymentId: number, principal: Principal): Promise<{ isDevMode: false; branchName: string | null }> {
  const userId = requireUser(principal);
  const { repo } = await openRepository(ctx, deploymentId);
  return repo.exclusive(async () => {
    const left = ctx.db
      .prepare('UPDATE model_branches SET is_dev_mode = 0, updated_at = ? WHERE deployment_id = ? AND owner_user_id = ? AND is_dev_mode = 1 RETURNING name')
      .get(ctx.clock.now().toISOString(), deploymentId, userId) as { name: string } | undefined;
    return { isDevMode: false as const, branchName: left?.name ?? null };
  });
}
