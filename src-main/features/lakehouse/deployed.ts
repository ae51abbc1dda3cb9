// The deployed build as publication reads it from the HTTP thread: the names and visibility of its
// views (read once per build on a compute thread, then kept: a build never changes), and
// publication plans computed on a compute thread from the build's snapshot.
import { LRUCache } from 'lru-cache';
import type { ServiceContext } from '../../context';
import { runCompute } from '../../workers/run';
import { buildSnapshotFile } from '../builds';
import type { ScopeModel } from './scope';
import type { PlanPublicationInput } from './plan-tasks';

const viewsByBuild = new WeakMap<ServiceContext, LRUCache<string, ScopeModel>>();

/** The views of a successful build's model (null when the build has no snapshot). */
export async function deployedViews(ctx: ServiceContext, buildId: string): Promise<ScopeModel | null> {
  let cache = viewsByBuild.get(ctx);
  if (!cache) viewsByBuild.set(ctx, (cache = new LRUCache<string, ScopeModel>({ max: 64 })));
  const cached = cache.get(buildId);
  if (cached) return cached;
  const file = buildSnapshotFile(ctx, buildId);
  if (!file) return null;
  const views = await runCompute(ctx, 'snapshotViews', { file });
  const model: ScopeModel = { views: Object.fromEntries(views.map((view) => [view.name, view])) };
  cache.set(buildId, model);
  return model;
}

/** Plans (scope, metric view YAML per view) of a successful build, computed on a compute thread. */
export async function planFromBuild(ctx: ServiceContext, buildId: string, input: Omit<PlanPublicationInput, 'snapshotFile'>, signal?: AbortSignal) {
  const file = buildSnapshotFile(ctx, buildId);
  if (!file) return null;
  return runCompute(ctx, 'planPublication', { ...input, snapshotFile: file }, { signal });
}

/** The tables the views in scope read, from a successful build (null without a snapshot). */
export async function sourcesFromBuild(ctx: ServiceContext, buildId: string, input: Omit<PlanPublicationInput, 'snapshotFile'>): Promise<string[] | null> {
  const file = buildSnapshotFile(ctx, buildId);
  if (!file) return null;
  return runCompute(ctx, 'publicationSources', { ...input, snapshotFile: file });
}
