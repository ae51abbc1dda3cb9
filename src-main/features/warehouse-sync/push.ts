import {
  WarehouseSyncErrorCodes as Codes,
  type PushDevTarget,
  type PushedView,
  type PushResult,
  type SkippedFeatureName,
  type StartPushInput,
} from '../../../src-shared/api/warehouse-sync';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import { JobCancelledError, JobFailure, JobOutcome, yieldToEventLoop, type Job, type JobContext } from '../../platform/jobs';
import { runCompute } from '../../workers/run';
import { modelRepositoryDir } from '../data-model';
import { appendDeploymentLog, getDeployBranch, isDdlEnabled, listDataSources } from '../deployments';
import { storedIdentifier, writeIdentifier } from '../../../src-shared/model/generate/semantic-view-ddl';
import { requestedPlacement, type PlannedView, type PushPlacement, type ResolvedWarehouse, type WarehouseResolutions } from './push-plan';
import { openWarehouseConnector, warehouseDataSource, warehouseFailure } from './warehouse';

export type { PlannedView } from './push-plan';

export const PUSH_KIND = 'warehouse-semantic-view-push';

/** What a push job carries: the request as sent, and what was resolved when it was accepted. */
export interface PushJobInputs {
  request: StartPushInput;
  branchName: string;
  /** The branch head when the push was accepted: the model the push reads, whenever it runs. */
  commit: string;
  /** Where the views go (absent in jobs queued before dev targets: where the request says). */
  placement?: PushPlacement;
  /** A push from a personal dev branch: the owner's per-user target. */
  devTarget?: PushDevTarget | null;
}

/** What the job stores as its result; the API adds the job's ids and times. */
export type PushJobResult = Omit<PushResult, 'syncJobId' | 'completedAt' | 'durationMs' | 'viewCount'>;

/** Every data source of the deployment as a push target, or the problem it has as one. */
function warehouseResolutions(ctx: ServiceContext, deploymentId: number): WarehouseResolutions {
  const resolutions: WarehouseResolutions = {};
  for (const ds of listDataSources(ctx, deploymentId)) {
    try {
      const warehouse = warehouseDataSource(ctx, deploymentId, ds.name);
      resolutions[ds.name.toLowerCase()] = {
        warehouse: { name: warehouse.name, database: warehouse.database, quotedIdentifiersIgnoreCase: warehouse.quotedIdentifiersIgnoreCase } satisfies ResolvedWarehouse,
      };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      resolutions[ds.name.toLowerCase()] = { problem: { status: error.status, code: error.code, detail: error.detail, extras: { ...error.extras } } };
    }
  }
  return resolutions;
}

/**
 * Compiles the model at `commit` and checks that every requested view exists, is pushable and
 * generates, returning the DDL of each (on a compute thread); throws 422 with one `errors[]`
 * entry per reason. Writes nothing.
 */
export async function planPush(
  ctx: ServiceContext,
  deploymentId: number,
  commit: string,
  request: StartPushInput,
  placement: PushPlacement = requestedPlacement(request),
  signal?: AbortSignal,
): Promise<PlannedView[]> {
  const gitdir = await modelRepositoryDir(ctx, deploymentId);
  const outcome = await runCompute(ctx, 'planWarehousePush', { gitdir, commit, request, placement, dataSources: warehouseResolutions(ctx, deploymentId) }, { signal });
  if ('unknownDataSource' in outcome) {
    warehouseDataSource(ctx, deploymentId, outcome.unknownDataSource);
    throw new Error(`Data source "${outcome.unknownDataSource}" was not resolved.`);
  }
  if ('problem' in outcome) throw new ApiError(outcome.problem.status, outcome.problem.code, outcome.problem.detail, outcome.problem.extras);
  return outcome.planned;
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
    warnings: [...generated.warnings, ...droppedPolicyWarnings(generated.skippedDetails, generated.name)],
  };
}

/**
 * Access policies a push leaves out (rule 6) are a warning, not a footnote (issue 24): the semantic
 * view has no policy of its own, so whoever may select from it sees every row and member the model
 * would have hidden from them.
 */
export function droppedPolicyWarnings(skipped: readonly { feature: string; items: readonly string[] }[], semanticViewName: string): string[] {
  const policies = skipped.find((s) => s.feature === 'access_policies');
  if (!policies || policies.items.length === 0) return [];
  return [
    `Access policies of ${policies.items.join(', ')} are not pushed (a semantic view cannot hold them): every role that may select from ${semanticViewName} sees all of its rows and members; grant it only to roles that may see them all`,
  ];
}

const logSourceOf = (ctx: ServiceContext, deploymentId: number, branch: string) => (getDeployBranch(ctx, deploymentId) === branch ? 'production' : 'dev');

/**
 * Runs a push: the model at the accepted commit → DDL → the warehouse, one view after another.
 * A cancel takes effect between views (never inside one, so no semantic view is half-created):
 * the job ends CANCELLED with the views written so far as its result.
 */
export async function runPush(ctx: ServiceContext, job: Job<PushJobInputs>, jobCtx: JobContext): Promise<PushJobResult | JobOutcome<PushJobResult>> {
  const { request, branchName, commit } = job.inputs;
  const placement = job.inputs.placement ?? requestedPlacement(request);
  const devTarget = job.inputs.devTarget ?? null;
  const deploymentId = job.deploymentId!;
  const log = (level: 'info' | 'error', message: string) =>
    appendDeploymentLog(ctx, deploymentId, { source: logSourceOf(ctx, deploymentId, branchName), container: 'MAIN', level, message });
  try {
    jobCtx.progress('generating-ddl', 10);
    let planned: PlannedView[];
    try {
      planned = await planPush(ctx, deploymentId, commit, request, placement, jobCtx.signal);
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
    const ensuredSchemas: string[] = [];
    const resultOf = (views: PushedView[]): PushJobResult => {
      const skipped = [...new Set(views.flatMap((v) => v.skipped.map((s) => s.feature)))] as SkippedFeatureName[];
      return { branchName, commit, database: planned[0]?.database ?? '', schema: placement.schema, devTarget, ensuredSchemas, views, skipped };
    };
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
        // A dev push into a per-user schema creates it first (the warehouse needs it to exist;
        // the role needs CREATE SCHEMA on the database, and then owns the schema).
        if (devTarget?.mode === 'schema-suffix') {
          const schemas = new Set([placement.schema, ...(views.some((v) => v.generated.helperViews.length > 0) ? [placement.helperSchema] : [])]);
          for (const schema of schemas) {
            const qualified = [dataSource.database, schema].map((p) => writeIdentifier(storedIdentifier(p))).join('.');
            await connector.execute(`CREATE SCHEMA IF NOT EXISTS ${qualified}`).catch((error: unknown) => {
              throw warehouseFailure(error, { dataSourceName, schema, pushed: pushed.map((v) => v.semanticViewName) });
            });
            if (!ensuredSchemas.includes(qualified)) ensuredSchemas.push(qualified);
          }
        }
        const existing = new Set(
          (
            await connector.listSemanticViews(dataSource.database, views[0]!.generated.schema).catch((error: unknown) => {
              throw warehouseFailure(error, { dataSourceName, schema: placement.schema, pushed: pushed.map((v) => v.semanticViewName) });
            })
          ).map((v) => v.name),
        );
        for (const view of views) {
          if (done.has(view.viewName)) continue;
          await yieldToEventLoop();
          if (jobCtx.signal.aborted || jobCtx.isCancelRequested()) {
            if (!(jobCtx.signal.reason instanceof JobCancelledError)) throw jobCtx.signal.reason;
            const written = planned.flatMap((p) => pushed.find((v) => v.viewName === p.viewName) ?? []);
            log('info', `Warehouse push cancelled after ${written.length} of ${total} semantic views; those stay as written.`);
            return JobOutcome.cancelled(resultOf(written));
          }
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
    log('info', `Pushed ${ordered.length} semantic view${ordered.length === 1 ? '' : 's'} to ${planned[0]?.database ?? ''}.${placement.schema}${devTarget ? ` (dev target of ${devTarget.userTag})` : ''} from ${branchName}@${commit.slice(0, 7)}.`);
    return resultOf(ordered);
  } catch (error) {
    if (!jobCtx.signal.aborted) log('error', `Warehouse push failed: ${(error as Error).message}`);
    throw error;
  }
}
