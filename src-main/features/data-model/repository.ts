import fs from 'node:fs';
import { join } from 'node:path';
import { DataModelErrorCodes as Codes } from '../../../src-shared/api/data-model';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import type { PathRuleProblem } from '../../../src-shared/paths/portable-path';
import { GitRepository, readSampleModelFiles, RepoError, type Signature } from '../../platform/repo';
import { appendDeploymentLog, getDeployBranch } from '../deployments';
import { areaEvent } from '../area-events';
import { ensureRepositoryChecked, forgetRepositoryCheck } from './repo-health';

export const SYSTEM_AUTHOR: Signature = { name: 'Drydock', email: 'drydock@localhost' };

export function repositoryDir(ctx: ServiceContext, deploymentId: number): string {
  return join(ctx.dataDir, 'repos', String(deploymentId));
}

/** The deployment's deploy branch (404 when the deployment does not exist). */
export const deployBranchOf = (ctx: ServiceContext, deploymentId: number): string => getDeployBranch(ctx, deploymentId);

const hasDeployBranchRow = (ctx: ServiceContext, deploymentId: number, branch: string): boolean =>
  ctx.db.prepare("SELECT 1 FROM model_branches WHERE deployment_id = ? AND name = ? AND kind = 'deploy'").get(deploymentId, branch) !== undefined;

/**
 * The deployment's git repository, created on first use with an initial commit on the deploy
 * branch holding the sample project's model files (when the sample project ships).
 */
export async function openRepository(ctx: ServiceContext, deploymentId: number): Promise<{ repo: GitRepository; deployBranch: string }> {
  const deployBranch = deployBranchOf(ctx, deploymentId);
  const dir = repositoryDir(ctx, deploymentId);
  const repo = GitRepository.at(dir, () => ctx.clock.now());
  if (repo.exists() && hasDeployBranchRow(ctx, deploymentId, deployBranch)) {
    // The first open of a run checks a repository its last run did not close cleanly (issue 23).
    await ensureRepositoryChecked(ctx, deploymentId, repo);
    return { repo, deployBranch };
  }
  await repo.exclusive(async () => {
    const known = hasDeployBranchRow(ctx, deploymentId, deployBranch);
    if (repo.exists() && !known) {
      // A repository without metadata belongs to a deleted deployment whose id was reused: keep it aside, start fresh.
      const aside = `${dir}.orphaned-${ctx.clock.now().getTime()}`;
      fs.renameSync(dir, aside);
      ctx.log.warn('moved an orphaned model repository aside', { deploymentId, to: aside });
    }
    const files = readSampleModelFiles(undefined, (path, reason) => ctx.log.warn('a sample project file was left out of the new repository', { deploymentId, path, reason }));
    await repo.initialize({
      branch: deployBranch,
      files,
      author: SYSTEM_AUTHOR,
      message: files.length > 0 ? 'Initial model (sample project)' : 'Initial commit',
    });
    const now = ctx.clock.now().toISOString();
    ctx.db
      .prepare(
        `INSERT INTO model_branches (deployment_id, name, kind, parent_branch, is_dev_mode, owner_user_id, staging_environment_enabled, created_at, updated_at)
         VALUES (?, ?, 'deploy', NULL, 0, NULL, 0, ?, ?)
         ON CONFLICT (deployment_id, name) DO UPDATE SET kind = 'deploy', parent_branch = NULL, is_dev_mode = 0`,
      )
      .run(deploymentId, deployBranch, now, now);
  });
  await ensureRepositoryChecked(ctx, deploymentId, repo);
  return { repo, deployBranch };
}

/** Removes a deployment's repository folder (for the deployments area when it deletes a deployment). */
export async function removeDeploymentRepository(ctx: ServiceContext, deploymentId: number): Promise<void> {
  await GitRepository.at(repositoryDir(ctx, deploymentId)).remove();
  forgetRepositoryCheck(ctx, repositoryDir(ctx, deploymentId));
}

export function authorOf(principal: Principal): Signature {
  return {
    name: principal.name ?? (principal.userId !== null ? `User ${principal.userId}` : 'API client'),
    email: principal.email ?? (principal.userId !== null ? `user-${principal.userId}@drydock.local` : 'api@drydock.local'),
  };
}

/** Maps the repository's own failures to problem responses. */
export function repoFailure(error: unknown): never {
  if (error instanceof RepoError) {
    switch (error.code) {
      case 'BRANCH_NOT_FOUND':
        throw new ApiError(404, Codes.BRANCH_NOT_FOUND, error.message);
      case 'BRANCH_EXISTS':
        throw new ApiError(409, Codes.BRANCH_EXISTS, error.message);
      case 'BRANCH_NAME_CONFLICT':
        throw new ApiError(409, Codes.BRANCH_NAME_CONFLICT, error.message);
      case 'INVALID_BRANCH_NAME':
        throw new ApiError(400, Codes.INVALID_BRANCH_NAME, error.message);
      case 'PATH_CONFLICT':
        throw new ApiError(409, Codes.PATH_CONFLICT, error.message, { paths: error.paths });
      case 'PATH_REFUSED':
        throw pathsRefused(error.problems, 400);
      case 'HEAD_MOVED':
      case 'REPO_BUSY':
        throw new ApiError(409, Codes.REPOSITORY_BUSY, `${error.message} Retry the operation.`);
    }
  }
  throw error;
}

/**
 * The problem for paths the rules refuse (src-shared/paths/portable-path.ts): the code of the first
 * path's rule, and each path with its rule in `paths` and `problems`.
 */
export function pathsRefused(problems: PathRuleProblem[], status: 400 | 409 | 422, lead = ''): ApiError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more path${problems.length === 2 ? '' : 's'}: ${problems.slice(1, 6).map((p) => `"${p.path}"`).join(', ')}${problems.length > 6 ? ', …' : ''})` : '';
  return new ApiError(status, first.code, `${lead}${first.detail}${more}`, {
    paths: problems.map((p) => p.path),
    problems: problems.map((p) => ({ path: p.path, code: p.code, rule: p.rule })),
  });
}

/** Runs a repository call, turning its failures into problem responses. */
export async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    return repoFailure(error);
  }
}

// ---- commit events and the deployment log --------------------------------------------------

export type BranchCommitListener = (deploymentId: number, branch: string, commit: string) => void;

// Builds and transform syncs subscribe when their areas load (area-events.ts).
const branchCommit = areaEvent<Parameters<BranchCommitListener>>('a branch commit listener failed', (deploymentId, branch) => ({ deploymentId, branch }));

/**
 * Calls `listener` after every change of a branch head (commits, uploads, merges, pulls).
 * Listeners run synchronously and should only schedule work. Returns an unsubscribe function.
 */
export function onBranchCommit(ctx: ServiceContext, listener: BranchCommitListener): () => void {
  return branchCommit.on(ctx, listener);
}

export type BranchServingListener = (deploymentId: number, branch: string) => void;

const branchServing = areaEvent<Parameters<BranchServingListener>>('a branch serving listener failed', (deploymentId, branch) => ({ deploymentId, branch }));

/**
 * Calls `listener` when whether a branch is served changes: its always-on staging environment was
 * enabled or disabled, or a developer entered dev mode on it. Listeners only schedule work.
 */
export function onBranchServingChanged(ctx: ServiceContext, listener: BranchServingListener): () => void {
  return branchServing.on(ctx, listener);
}

export function emitBranchServingChanged(ctx: ServiceContext, deploymentId: number, branch: string): void {
  branchServing.emit(ctx, deploymentId, branch);
}

/**
 * Whether a branch is served (and so built on every commit): the deploy branch, a branch with an
 * always-on staging environment, or a branch a developer is in dev mode on.
 */
export function isServedBranch(ctx: ServiceContext, deploymentId: number, branch: string, deployBranch: string): boolean {
  if (branch === deployBranch) return true;
  const row = ctx.db
    .prepare('SELECT staging_environment_enabled AS staging, is_dev_mode AS dev FROM model_branches WHERE deployment_id = ? AND name = ?')
    .get(deploymentId, branch) as { staging: number; dev: number } | undefined;
  return row !== undefined && (row.staging === 1 || row.dev === 1);
}

export function emitBranchCommit(ctx: ServiceContext, deploymentId: number, branch: string, commit: string): void {
  branchCommit.emit(ctx, deploymentId, branch, commit);
}

/** A line in the deployment's log: production for the deploy branch, dev for the others. */
export function logRepositoryEvent(ctx: ServiceContext, deploymentId: number, branch: string, deployBranch: string, message: string): void {
  try {
    appendDeploymentLog(ctx, deploymentId, { source: branch === deployBranch ? 'production' : 'dev', container: 'MAIN', level: 'info', message });
  } catch (error) {
    // The change is already in git; a missing log line must not turn it into a failure.
    ctx.log.warn('could not append a deployment log line', { deploymentId, error: String(error) });
  }
}

export const shortId = (commit: string): string => commit.slice(0, 12);
