import type { ServiceContext } from '../../../context';
import { divergence, remoteTrackingHeads, type GitRepository } from '../../../platform/repo';

/** What a branch listing says about a branch's upstream. */
export interface UpstreamFields {
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
}

export const NOT_TRACKING: UpstreamFields = { upstream: null, ahead: null, behind: null };

/** Local branch → the remote branch it tracks. */
export function trackedBranches(ctx: ServiceContext, deploymentId: number): Map<string, string> {
  const rows = ctx.db
    .prepare('SELECT name, upstream_branch FROM model_branches WHERE deployment_id = ? AND upstream_branch IS NOT NULL')
    .all(deploymentId) as { name: string; upstream_branch: string }[];
  return new Map(rows.map((r) => [r.name, r.upstream_branch]));
}

export function upstreamOf(ctx: ServiceContext, deploymentId: number, branch: string): string | null {
  const row = ctx.db.prepare('SELECT upstream_branch FROM model_branches WHERE deployment_id = ? AND name = ?').get(deploymentId, branch) as
    | { upstream_branch: string | null }
    | undefined;
  return row?.upstream_branch ?? null;
}

/** Sets (or clears) the upstream of a branch that has a metadata row. */
export function setUpstream(ctx: ServiceContext, deploymentId: number, branch: string, upstream: string | null): void {
  ctx.db
    .prepare('UPDATE model_branches SET upstream_branch = ?, updated_at = ? WHERE deployment_id = ? AND name = ?')
    .run(upstream, ctx.clock.now().toISOString(), deploymentId, branch);
  if (upstream !== null) ctx.db.prepare('DELETE FROM model_ignored_upstream_branches WHERE deployment_id = ? AND name = ?').run(deploymentId, upstream);
}

/** Remote branches a fetch must not turn into branches of the deployment (their local copy was deleted). */
export function ignoredUpstreams(ctx: ServiceContext, deploymentId: number): Set<string> {
  const rows = ctx.db.prepare('SELECT name FROM model_ignored_upstream_branches WHERE deployment_id = ?').all(deploymentId) as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

export function ignoreUpstream(ctx: ServiceContext, deploymentId: number, name: string): void {
  ctx.db.prepare('INSERT OR IGNORE INTO model_ignored_upstream_branches (deployment_id, name) VALUES (?, ?)').run(deploymentId, name);
}

/** Forgets every upstream of the deployment (disconnect, or before connecting elsewhere). */
export function clearTracking(ctx: ServiceContext, deploymentId: number): void {
  ctx.db.transaction(() => {
    ctx.db.prepare('UPDATE model_branches SET upstream_branch = NULL WHERE deployment_id = ? AND upstream_branch IS NOT NULL').run(deploymentId);
    ctx.db.prepare('DELETE FROM model_ignored_upstream_branches WHERE deployment_id = ?').run(deploymentId);
  })();
}

/**
 * Upstream, ahead and behind of every tracking branch, against the remote-tracking refs of the
 * last fetch (no network). Branches missing from the result track nothing.
 */
export async function upstreamFieldsOf(ctx: ServiceContext, deploymentId: number, repo: GitRepository, heads: Map<string, string>): Promise<Map<string, UpstreamFields>> {
  const tracked = trackedBranches(ctx, deploymentId);
  const out = new Map<string, UpstreamFields>();
  if (tracked.size === 0) return out;
  const remote = await remoteTrackingHeads(repo.gitdir);
  for (const [branch, upstream] of tracked) {
    const head = heads.get(branch);
    const upstreamHead = remote.get(upstream);
    if (!head || !upstreamHead) {
      out.set(branch, { upstream, ahead: null, behind: null });
      continue;
    }
    const counts = await divergence(repo.gitdir, head, upstreamHead);
    out.set(branch, { upstream, ahead: counts?.ahead ?? null, behind: counts?.behind ?? null });
  }
  return out;
}
