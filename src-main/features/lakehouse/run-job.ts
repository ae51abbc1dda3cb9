// The publication run job: waits for the deployed build, plans the views in scope on a compute
// thread, publishes them one by one (each write read back before ownership is recorded) and
// reports the targets that left the scope. Cancellation stops before the next write.
import { LakehouseErrorCodes as Codes, SUCCESSFUL_RUN_OUTCOMES, type LakehouseConfiguration } from '../../../src-shared/api/lakehouse';
import type { ServiceContext } from '../../context';
import { DRYDOCK_PROPERTIES, LakehouseError, metricViewYamlEquals, ownershipProperties, type LakehouseConnector } from '../../connectors/lakehouse';
import { getJobRunner, JobCancelledError, JobOutcome, type Job, type JobContext } from '../../platform/jobs';
import { getBuild, waitForBuild, type BuildRecord } from '../builds';
import { appendDeploymentLog, getDataSource, type DataSource } from '../deployments';
import { isPublicationActive } from './activation';
import { describeLakehouseError, openLakehouseConnector } from './connector';
import { placedSettings } from './branch-source';
import { planFromBuild } from './deployed';
import { confirmsWrite, inspectTarget, issuesOf, type ViewPlan } from './publish';
import { RUN_JOB_KIND, RunRecorder, type RunInputs, type RunResult, type RunRow, type ViewResult } from './run-records';
import { listOwnedTargets, normalizeName, qualifiedTarget, recordOwnedTarget } from './targets';

function failRun(code: string, message: string, recorder?: RunRecorder): JobOutcome<RunResult> {
  return JobOutcome.failed({ code, message }, recorder ? recorder.summary() : null);
}

/** Stops at once on shutdown (the run is handed to another worker) and reports a cancel request. */
function stopRequested(jobCtx: JobContext): boolean {
  if (jobCtx.signal.aborted && !(jobCtx.signal.reason instanceof JobCancelledError)) throw jobCtx.signal.reason;
  return jobCtx.isCancelRequested();
}

async function executeRun(ctx: ServiceContext, job: Job<RunInputs, RunResult>, jobCtx: JobContext): Promise<RunResult | JobOutcome<RunResult>> {
  const row = ctx.db.prepare('SELECT * FROM lakehouse_runs WHERE id = ?').get(job.id) as RunRow | undefined;
  if (!row) return failRun('LAKEHOUSE_RUN_RECORD_MISSING', `Run ${job.id} has no run record.`);
  const deploymentId = row.deployment_id;
  // A dev-branch run writes with its owner's per-user schema or prefix, fixed when it started.
  const devTarget = job.inputs.devTarget ?? null;
  const devOwner = devTarget?.ownerUserId ?? null;
  const configuration = placedSettings(JSON.parse(row.configuration) as LakehouseConfiguration, devTarget);
  const branchLabel = job.inputs.branchName ? `Branch "${job.inputs.branchName}"` : 'The deploy branch';
  const recorder = new RunRecorder(ctx, job.id);

  // 1. The build the run reads.
  jobCtx.progress('waiting for the deployed build', 2);
  let build: BuildRecord | null = row.build_id ? getBuild(ctx, row.build_id) : null;
  if (build && build.status !== 'succeeded' && build.status !== 'failed') build = await waitForBuild(ctx, build.id, jobCtx.signal);
  if (!build || build.status !== 'succeeded') {
    return failRun(
      Codes.NO_SUCCESSFUL_BUILD,
      build
        ? `Build ${build.id} of commit ${build.commit.slice(0, 12)} failed: ${build.error ?? 'compile errors'}.`
        : `${branchLabel} has no successful build to publish.`,
    );
  }
  if (!row.commit_sha) ctx.db.prepare('UPDATE lakehouse_runs SET commit_sha = ? WHERE id = ?').run(build.commit, job.id);

  let ds: DataSource;
  try {
    ds = getDataSource(ctx, deploymentId, row.data_source);
  } catch {
    return failRun(Codes.DATA_SOURCE_NOT_FOUND, `Data source "${row.data_source}" no longer exists.`);
  }

  // 2. Plan: the views in scope now (a disabled publication or a deactivated preview plans none),
  //    generated on a compute thread from the build's snapshot.
  jobCtx.progress('planning', 4);
  const publishing = configuration.enabled && isPublicationActive(ctx, deploymentId);
  const planning = publishing
    ? await planFromBuild(ctx, build.id, { dataSource: ds.name, catalog: ds.catalog, scope: configuration, settings: configuration }, jobCtx.signal)
    : { scope: { views: [], matched: 0, tooLarge: false }, plans: [] as ViewPlan[] };
  if (!planning) return failRun(Codes.NO_SUCCESSFUL_BUILD, `Build ${build.id} has no snapshot to publish from; deploy again.`);
  const { scope, plans } = planning;
  if (scope.tooLarge) return failRun(Codes.SCOPE_TOO_LARGE, `The scope resolves to ${scope.matched} views; at most 128 are published per data source.`);
  ctx.db.prepare('UPDATE lakehouse_runs SET view_names = ? WHERE id = ?').run(JSON.stringify(scope.views), job.id);
  const planned = new Set(plans.map((p) => normalizeName(qualifiedTarget(p.target))));

  // 3. Publish view by view; one failing view does not stop the others.
  let cancelled = false;
  if (plans.length > 0) {
    let connector: LakehouseConnector;
    try {
      connector = openLakehouseConnector(ctx, deploymentId, ds);
    } catch (error) {
      const { code, message } = describeLakehouseError(error);
      return failRun(code, `The lakehouse cannot be reached: ${message}`);
    }
    try {
      try {
        await connector.checkWarehouseAccess();
      } catch (error) {
        const { code, message } = describeLakehouseError(error);
        return failRun(code, `The lakehouse cannot be reached: ${message}`);
      }
      // A dev run into a per-user schema creates it first (as its owner: CREATE SCHEMA on the catalog).
      if (devTarget?.mode === 'schema-suffix') {
        try {
          if (connector.ensureSchema) await connector.ensureSchema(configuration.targetCatalog, configuration.targetSchema);
        } catch (error) {
          const { message } = describeLakehouseError(error);
          return failRun(Codes.DEV_SCHEMA_FAILED, `The per-user schema ${configuration.targetCatalog}.${configuration.targetSchema} could not be created: ${message}`);
        }
      }
      for (const [index, plan] of plans.entries()) {
        if (stopRequested(jobCtx)) {
          cancelled = true;
          break;
        }
        jobCtx.progress(`publishing ${plan.viewName}`, 5 + Math.floor((90 * index) / plans.length));
        const result = await publishView(ctx, connector, deploymentId, ds, job.id, plan, jobCtx, devOwner);
        if (result === 'cancelled') {
          cancelled = true;
          break;
        }
        recorder.record(result);
      }
    } finally {
      await connector.close();
    }
  }

  // 4. Targets this data source owns that left the scope: kept, and reported.
  if (!cancelled) {
    for (const target of listOwnedTargets(ctx, deploymentId, ds.name, devOwner)) {
      if (planned.has(normalizeName(qualifiedTarget(target)))) continue;
      recorder.record({ viewName: target.viewName, target: qualifiedTarget(target), outcome: 'retained_obsolete' });
    }
  }

  const summary = recorder.summary();
  logRun(ctx, deploymentId, ds.name, job.id, summary, cancelled, devTarget ? `${configuration.targetCatalog}.${configuration.targetSchema}, dev target of ${devTarget.userTag}` : null);
  if (cancelled) return JobOutcome.cancelled(summary);
  const allSucceeded = recorder.results.every((r) => SUCCESSFUL_RUN_OUTCOMES.includes(r.outcome));
  return allSucceeded ? summary : JobOutcome.partial(summary);
}

async function publishView(
  ctx: ServiceContext,
  connector: LakehouseConnector,
  deploymentId: number,
  ds: DataSource,
  runId: string,
  plan: ViewPlan,
  jobCtx: JobContext,
  devOwner: number | null,
): Promise<ViewResult | 'cancelled'> {
  const { generated, target } = plan;
  const shown = qualifiedTarget(target);
  const { blockedReasons, warnings } = issuesOf(generated);
  const base = { viewName: plan.viewName, target: shown, withheldMembers: generated.withheldMembers, warnings };
  if (generated.status === 'blocked' || generated.yaml === null) return { ...base, withheldMembers: [], outcome: 'blocked', reasons: blockedReasons };
  const yaml = generated.yaml;

  let inspection;
  try {
    inspection = await inspectTarget(ctx, connector, deploymentId, target, yaml);
  } catch (error) {
    return { ...base, outcome: 'publish_failed', reasons: [describeLakehouseError(error)] };
  }
  if (inspection.kind === 'refused') return { ...base, outcome: 'publish_failed', reasons: [inspection.reason] };
  if (inspection.kind === 'managed' && inspection.unchanged) {
    recordOwned(ctx, deploymentId, ds, plan, yaml, runId, devOwner);
    return { ...base, outcome: 'unchanged' };
  }

  // Cancellation stops before the next write; what was written stays.
  if (stopRequested(jobCtx)) return 'cancelled';
  const replaceWithAlter = inspection.kind === 'managed';
  const properties = ownershipProperties({ deployment: deploymentId, view: plan.viewName, yaml });
  try {
    // ALTER keeps an existing view's owner and grants; a new one is created.
    await connector.createOrReplaceMetricView(target.catalog, target.schema, target.name, yaml, properties, { replaceWithAlter });
  } catch (error) {
    const reason = describeLakehouseError(error);
    const definitionWritten = error instanceof LakehouseError && error.definitionWritten;
    if (definitionWritten) {
      // The definition is ours even though its properties failed: remember it so the next run does not see drift.
      try {
        const object = await connector.getObject(target.catalog, target.schema, target.name);
        if (object?.definition && metricViewYamlEquals(object.definition.yaml, yaml)) recordOwned(ctx, deploymentId, ds, plan, yaml, runId, devOwner);
      } catch {
        // Left unrecorded: the next run reports the target as drifted rather than guessing.
      }
    }
    const outcome = error instanceof LakehouseError && error.code === 'LAKEHOUSE_INVALID_DEFINITION' ? 'validation_failed' : 'publish_failed';
    return { ...base, outcome, reasons: [reason], definitionWritten };
  }

  // Ownership is recorded only once the write reads back as ours.
  let readBack;
  try {
    readBack = await connector.getObject(target.catalog, target.schema, target.name);
  } catch (error) {
    return { ...base, outcome: 'publish_failed', reasons: [describeLakehouseError(error)], definitionWritten: true };
  }
  if (!confirmsWrite(readBack, deploymentId, yaml)) {
    return {
      ...base,
      outcome: 'publish_failed',
      reasons: [{ code: Codes.WRITE_NOT_CONFIRMED, message: `${shown} did not read back as the definition just written; ownership was not recorded.` }],
      definitionWritten: true,
    };
  }
  recordOwned(ctx, deploymentId, ds, plan, yaml, runId, devOwner);
  return { ...base, outcome: replaceWithAlter ? 'updated' : 'created', definitionWritten: true };
}

function recordOwned(ctx: ServiceContext, deploymentId: number, ds: DataSource, plan: ViewPlan, yaml: string, runId: string, devOwner: number | null): void {
  const properties = ownershipProperties({ deployment: deploymentId, view: plan.viewName, yaml });
  recordOwnedTarget(ctx, deploymentId, {
    dataSource: ds.name,
    ...plan.target,
    viewName: plan.viewName,
    definitionHash: properties[DRYDOCK_PROPERTIES.definitionHash]!,
    yaml,
    runId,
    devOwner,
  });
}

function logRun(
  ctx: ServiceContext,
  deploymentId: number,
  dataSource: string,
  runId: string,
  summary: RunResult,
  cancelled: boolean,
  devTargetLabel: string | null,
): void {
  const counts = Object.entries(summary.outcomeCounts)
    .map(([outcome, n]) => `${n} ${outcome}`)
    .join(', ');
  try {
    appendDeploymentLog(ctx, deploymentId, {
      source: 'production',
      container: 'MAIN',
      level: 'info',
      message: `Lakehouse publication run ${runId} for "${dataSource}"${devTargetLabel ? ` (${devTargetLabel})` : ''} ${cancelled ? 'cancelled' : 'finished'}: ${counts || 'no views'}.`,
    });
  } catch (error) {
    ctx.log.warn('could not log a lakehouse run', { runId, error: (error as Error).message });
  }
}

export function registerRunJob(ctx: ServiceContext): void {
  getJobRunner(ctx).register<RunInputs, RunResult>(RUN_JOB_KIND, (job, jobCtx) => executeRun(ctx, job, jobCtx), { concurrency: 2 });
}
