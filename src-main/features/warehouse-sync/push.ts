import {
  WarehouseSyncErrorCodes as Codes,
  type PushedView,
  type PushResult,
  type SkippedFeatureName,
  type StartPushInput,
} from '../../../src-shared/api/warehouse-sync';
import { analyzeWarehousePush, compileModel, type CompiledModel } from '../../../src-shared/model';
import { generateSemanticViewDdl, SemanticViewDdlError, type SemanticViewDdl } from '../../../src-shared/model/generate/semantic-view-ddl';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { JobFailure, yieldToEventLoop, type Job, type JobContext } from '../../platform/jobs';
import { readModelFilesAt } from '../data-model';
import { appendDeploymentLog, getDeployBranch, isDdlEnabled } from '../deployments';
import { openWarehouseConnector, warehouseDataSource, warehouseFailure } from './warehouse';

export const PUSH_KIND = 'warehouse-semantic-view-push';

/** What a push job carries: the request as sent, and what was resolved when it was accepted. */
export interface PushJobInputs {
  request: StartPushInput;
  branchName: string;
  /** The branch head when the push was accepted: the model the push reads, whenever it runs. */
  commit: string;
}

/** What the job stores as its result; the API adds the job's ids and times. */
export type PushJobResult = Omit<PushResult, 'syncJobId' | 'completedAt' | 'durationMs' | 'viewCount'>;

export interface PlannedView {
  viewName: string;
  dataSourceName: string;
  database: string;
  quotedIdentifiersIgnoreCase: boolean;
  generated: SemanticViewDdl;
}

/** The data source a view's cubes use; null when they use several. */
function dataSourceOfView(model: CompiledModel, viewName: string): string | null {
  const names = new Set<string>();
  for (const path of model.views[viewName]?.joinPaths ?? []) {
    for (const cube of path) {
      const source = model.cubes[cube]?.dataSource;
      if (source) names.add(source);
    }
  }
  return names.size === 1 ? [...names][0]! : names.size === 0 ? 'default' : null;
}

interface Refusal {
  pointer: string;
  detail: string;
  view: string;
  code: string;
}

/**
 * Compiles nothing, writes nothing: checks that every requested view exists, is pushable and
 * generates, and returns the DDL of each. Throws 422 with one `errors[]` entry per reason.
 */
export function planPush(ctx: ServiceContext, deploymentId: number, model: CompiledModel, request: StartPushInput): PlannedView[] {
  const refusals: Refusal[] = [];
  const missing: Refusal[] = [];
  const planned: PlannedView[] = [];
  request.viewNames.forEach((viewName, index) => {
    const pointer = `/body/viewNames/${index}`;
    if (!model.views[viewName]) {
      const known = Object.keys(model.views);
      missing.push({
        pointer,
        view: viewName,
        code: Codes.MODEL_VIEW_NOT_FOUND,
        detail: `The model has no view '${viewName}'${known.length ? ` (views: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''})` : ''}.`,
      });
      return;
    }
    const analysis = analyzeWarehousePush(model, viewName);
    if (!analysis.pushable) {
      for (const issue of analysis.issues) {
        refusals.push({ pointer, view: viewName, code: issue.reason ?? issue.code, detail: `${issue.message} (${issue.file}:${issue.line}:${issue.column})` });
      }
      return;
    }
    const sourceName = dataSourceOfView(model, viewName);
    if (sourceName === null) {
      refusals.push({ pointer, view: viewName, code: 'MODEL_PUSH_MIXED_DATA_SOURCES', detail: `View '${viewName}' joins cubes of several data sources; a semantic view lives in one warehouse.` });
      return;
    }
    const dataSource = warehouseDataSource(ctx, deploymentId, sourceName);
    try {
      const generated = generateSemanticViewDdl(model, viewName, {
        name: `${request.prefix}${viewName}`,
        database: dataSource.database,
        schema: request.schema,
        helperSchema: request.helperViewSchema ?? 'PUBLIC',
        quotedIdentifiersIgnoreCase: dataSource.quotedIdentifiersIgnoreCase,
        analysis,
      });
      planned.push({ viewName, dataSourceName: dataSource.name, database: dataSource.database, quotedIdentifiersIgnoreCase: dataSource.quotedIdentifiersIgnoreCase, generated });
    } catch (error) {
      if (!(error instanceof SemanticViewDdlError)) throw error;
      for (const reason of error.reasons.length ? error.reasons : [{ code: error.code, message: error.message }]) {
        refusals.push({ pointer, view: viewName, code: reason.code, detail: reason.message });
      }
    }
  });
  if (missing.length > 0) {
    throw new ApiError(422, Codes.MODEL_VIEW_NOT_FOUND, missing.map((m) => m.detail).join(' '), {
      errors: missing.map(({ pointer, detail }) => ({ pointer, detail })),
    });
  }
  if (refusals.length > 0) {
    const views = [...new Set(refusals.map((r) => r.view))];
    throw new ApiError(
      422,
      Codes.MODEL_NOT_PUSHABLE,
      `${views.length === 1 ? `View '${views[0]}' cannot` : `Views ${views.map((v) => `'${v}'`).join(', ')} cannot`} be pushed as semantic views: ${refusals
        .map((r) => r.detail)
        .join('; ')}`,
      { errors: refusals.map(({ pointer, detail }) => ({ pointer, detail })), reasons: refusals.map(({ view, code, detail }) => ({ view, code, detail })) },
    );
  }
  return planned;
}

// A commit's files never change, so its compiled model can be reused: the job usually runs in the
// process that validated the request and compiled the same commit a moment before.
const compiledModels = new WeakMap<ServiceContext, Map<string, CompiledModel>>();
const COMPILED_MODELS_KEPT = 4;

export async function compileAt(ctx: ServiceContext, deploymentId: number, commit: string): Promise<CompiledModel> {
  const cache = compiledModels.get(ctx) ?? new Map<string, CompiledModel>();
  compiledModels.set(ctx, cache);
  const key = `${deploymentId}:${commit}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const model = compileModel(await readModelFilesAt(ctx, deploymentId, commit)).model;
  cache.set(key, model);
  if (cache.size > COMPILED_MODELS_KEPT) cache.delete(cache.keys().next().value!);
  return model;
}

/** Views done so far, by model view name, and whether each was created or replaced. */
interface PushCheckpoint {
  done: Record<string, PushedView['action']>;
}

const CHECKPOINT_INTERVAL_MS = 250;

function pushedView(view: PlannedView, action: PushedView['action']): PushedView {
  const { generated } = view;
  return {
    viewName: view.viewName,
    semanticViewName: generated.name,
    qualifiedName: generated.spec.name,
    dataSourceName: view.dataSourceName,
    action,
    ddl: generated.ddl,
    helperViews: generated.helperViews.map((h) => ({ entity: h.cube, name: h.name, ddl: h.ddl })),
    skipped: generated.skippedDetails,
    warnings: generated.warnings,
  };
}

const logSourceOf = (ctx: ServiceContext, deploymentId: number, branch: string) => (getDeployBranch(ctx, deploymentId) === branch ? 'production' : 'dev');

/** Runs a push: the model at the accepted commit → DDL → the warehouse, one view after another. */
export async function runPush(ctx: ServiceContext, job: Job<PushJobInputs>, jobCtx: JobContext): Promise<PushJobResult> {
  const { request, branchName, commit } = job.inputs;
  const deploymentId = job.deploymentId!;
  const log = (level: 'info' | 'error', message: string) =>
    appendDeploymentLog(ctx, deploymentId, { source: logSourceOf(ctx, deploymentId, branchName), container: 'MAIN', level, message });
  try {
    jobCtx.progress('reading-model', 5);
    const model = await compileAt(ctx, deploymentId, commit);
    jobCtx.signal.throwIfAborted();

    jobCtx.progress('generating-ddl', 10);
    let planned: PlannedView[];
    try {
      planned = planPush(ctx, deploymentId, model, request);
    } catch (error) {
      if (error instanceof ApiError) throw new JobFailure(error.code, error.detail, { status: error.status, details: { ...error.extras } });
      throw error;
    }

    // Push rule 1: the DDL goes through the SQL Runner, which runs DDL only when it is enabled.
    if (!isDdlEnabled(ctx, deploymentId)) {
      throw new JobFailure(
        Codes.SQL_RUNNER_DDL_DISABLED,
        `DDL operations are disabled in the configuration of deployment ${deploymentId}, so the SQL Runner refuses the CREATE SEMANTIC VIEW statements of this push. ` +
          'Enable DDL operations (setting sqlRunnerDdlEnabled) and start the push again.',
        { status: 403, details: { views: planned.map((p) => p.viewName) } },
      );
    }

    // A resumed attempt skips the views an earlier attempt already created (the same commit gives the same DDL).
    const checkpoint = (job.checkpoint as PushCheckpoint | null) ?? { done: {} };
    const actions = new Map(Object.entries(checkpoint.done));
    const pushed: PushedView[] = planned.filter((p) => actions.has(p.viewName)).map((p) => pushedView(p, actions.get(p.viewName)!));
    const done = new Set(pushed.map((v) => v.viewName));
    const total = planned.length;
    let savedAt = 0;
    const saveCheckpoint = (force: boolean) => {
      if (!force && Date.now() - savedAt < CHECKPOINT_INTERVAL_MS) return;
      savedAt = Date.now();
      jobCtx.checkpoint({ done: Object.fromEntries(pushed.map((v) => [v.viewName, v.action])) } satisfies PushCheckpoint);
    };
    const byDataSource = new Map<string, PlannedView[]>();
    for (const view of planned) byDataSource.set(view.dataSourceName, [...(byDataSource.get(view.dataSourceName) ?? []), view]);

    for (const [dataSourceName, views] of byDataSource) {
      jobCtx.progress('connecting', 15);
      const dataSource = warehouseDataSource(ctx, deploymentId, dataSourceName);
      const connector = await openWarehouseConnector(ctx, deploymentId, dataSource).catch((error: unknown) => {
        throw warehouseFailure(error, { dataSourceName, pushed: pushed.map((v) => v.semanticViewName) });
      });
      try {
        const existing = new Set(
          (
            await connector.listSemanticViews(dataSource.database, views[0]!.generated.schema).catch((error: unknown) => {
              throw warehouseFailure(error, { dataSourceName, schema: request.schema, pushed: pushed.map((v) => v.semanticViewName) });
            })
          ).map((v) => v.name),
        );
        for (const view of views) {
          if (done.has(view.viewName)) continue;
          await yieldToEventLoop();
          jobCtx.signal.throwIfAborted();
          const { generated } = view;
          for (const statement of generated.statements) {
            try {
              await connector.execute(statement);
            } catch (error) {
              throw warehouseFailure(error, {
                view: view.viewName,
                semanticViewName: generated.name,
                statement,
                pushed: pushed.map((v) => v.semanticViewName),
              });
            }
          }
          pushed.push(pushedView(view, existing.has(generated.name) ? 'replaced' : 'created'));
          done.add(view.viewName);
          saveCheckpoint(false);
          jobCtx.log(`${existing.has(generated.name) ? 'replaced' : 'created'} semantic view ${generated.spec.name}`, { view: view.viewName });
          jobCtx.progress('creating-views', 20 + Math.floor((75 * done.size) / total));
        }
      } finally {
        saveCheckpoint(true);
        await connector.close().catch(() => undefined);
      }
    }

    const ordered = planned.map((p) => pushed.find((v) => v.viewName === p.viewName)!);
    const skipped = [...new Set(ordered.flatMap((v) => v.skipped.map((s) => s.feature)))] as SkippedFeatureName[];
    log('info', `Pushed ${ordered.length} semantic view${ordered.length === 1 ? '' : 's'} to ${planned[0]?.database ?? ''}.${request.schema} from ${branchName}@${commit.slice(0, 7)}.`);
    return {
      branchName,
      commit,
      database: planned[0]?.database ?? '',
      schema: request.schema,
      views: ordered,
      skipped,
    };
  } catch (error) {
    if (!jobCtx.signal.aborted) log('error', `Warehouse push failed: ${(error as Error).message}`);
    throw error;
  }
}
