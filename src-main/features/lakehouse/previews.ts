import {
  checkNamePattern,
  LakehouseErrorCodes as Codes,
  PREVIEW_RETENTION_MS,
  type LakehouseConfiguration,
  type PreviewResult,
  type PreviewView,
  type SelectionMode,
  type StartPreviewInput,
} from '../../../src-shared/api/lakehouse';
import type { DevTargetPlacement } from '../../../src-shared/api/dev-targets';
import type { ServiceContext } from '../../context';
import { ApiError } from '../../http/problem';
import type { LakehouseConnector } from '../../connectors/lakehouse';
import { getJobRunner, isTerminal, JobFailure, type Job, type JobContext } from '../../platform/jobs';
import { getBuild, waitForBuild } from '../builds';
import { getDataSource, getDeployBranch, type DataSource } from '../deployments';
import { assertPublicationActive } from './activation';
import { placedSettings, publicationSource } from './branch-source';
import { describeLakehouseError, openLakehouseConnector } from './connector';
import { deployedViews, planFromBuild } from './deployed';
import { inspectTarget, issuesOf, type TargetSettings } from './publish';
import type { ScopeInput } from './scope';
import { checkScopeAgainstModel, findSettings, requireLakehouseDataSource } from './settings';
import { listOwnedTargets, normalizeName, qualifiedTarget } from './targets';

export const PREVIEW_JOB_KIND = 'lakehouse.preview';

/** What a preview was asked for, resolved against the saved settings when it started. */
interface PreviewInputs {
  deploymentId: number;
  dataSourceName: string;
  scope: ScopeInput;
  /** Where the targets are: for a dev branch already the per-user schema or prefix. */
  settings: TargetSettings;
  /** The branch read (absent in previews started before dev publications: the deploy branch). */
  branchName?: string;
  devTarget?: DevTargetPlacement | null;
}

interface PreviewRow {
  id: string;
  deployment_id: number;
  data_source: string;
  build_id: string | null;
  commit_sha: string | null;
  created_at: string;
}

const base = (deploymentId: number, previewId: string) => `/api/v1/deployments/${deploymentId}/lakehouse-metric-view-previews/${previewId}`;

function findPreview(ctx: ServiceContext, deploymentId: number, previewId: string): { row: PreviewRow; job: Job<PreviewInputs, PreviewResult> } {
  const row = ctx.db.prepare('SELECT * FROM lakehouse_previews WHERE id = ? AND deployment_id = ?').get(previewId, deploymentId) as PreviewRow | undefined;
  const job = row ? getJobRunner(ctx).get<PreviewInputs, PreviewResult>(row.id, { kinds: [PREVIEW_JOB_KIND] }) : null;
  if (!row || !job) {
    throw new ApiError(404, Codes.PREVIEW_NOT_FOUND, `Deployment ${deploymentId} has no preview ${previewId} (previews are kept at most 7 days).`);
  }
  return { row, job };
}

function statusOf(ctx: ServiceContext, row: PreviewRow, job: Job<PreviewInputs, PreviewResult>) {
  return {
    previewId: row.id,
    dataSourceName: row.data_source,
    status: job.status,
    progress: job.progress,
    buildJobId: row.build_id,
    commit: row.commit_sha,
    branchName: job.inputs.branchName ?? getDeployBranch(ctx, row.deployment_id),
    devTarget: job.inputs.devTarget ?? null,
    error: job.error ? { code: job.error.code, message: job.error.message } : null,
    statusUrl: base(row.deployment_id, row.id),
    resultUrl: `${base(row.deployment_id, row.id)}/result`,
    createdAt: row.created_at,
    finishedAt: job.finishedAt,
    expiresAt: job.expiresAt,
  };
}

export function getPreview(ctx: ServiceContext, deploymentId: number, previewId: string) {
  const { row, job } = findPreview(ctx, deploymentId, previewId);
  return statusOf(ctx, row, job);
}

/** The completed result; 409 while the preview runs or when it ended without one. */
export function getPreviewResult(ctx: ServiceContext, deploymentId: number, previewId: string): PreviewResult {
  const { job } = findPreview(ctx, deploymentId, previewId);
  if (!isTerminal(job.status)) {
    throw new ApiError(409, Codes.PREVIEW_NOT_FINISHED, `Preview ${previewId} is still ${job.status}; poll its status until it completes.`, {
      previewStatus: job.status,
    });
  }
  if (job.status !== 'COMPLETED' || job.result === null) {
    throw new ApiError(
      409,
      Codes.PREVIEW_NO_RESULT,
      `Preview ${previewId} ended ${job.status} without a result${job.error ? `: ${job.error.message}` : ''}.`,
      { previewStatus: job.status, ...(job.error ? { error: { code: job.error.code, message: job.error.message } } : {}) },
    );
  }
  // Results stored before dev publications lack the branch: they read the deploy branch.
  const stored: Omit<PreviewResult, 'branchName' | 'devTarget'> & Partial<PreviewResult> = job.result;
  return { branchName: getDeployBranch(ctx, deploymentId), devTarget: null, ...stored };
}

export function cancelPreview(ctx: ServiceContext, deploymentId: number, previewId: string) {
  const { row } = findPreview(ctx, deploymentId, previewId);
  getJobRunner(ctx).requestCancel(row.id);
  return getPreview(ctx, deploymentId, previewId);
}

/** The scope and target a preview uses: the request's, else the saved settings'. */
function previewInputs(ds: DataSource, deploymentId: number, body: StartPreviewInput, saved: LakehouseConfiguration | null): PreviewInputs {
  const selectionMode: SelectionMode = body.selectionMode ?? saved?.selectionMode ?? 'all';
  // The saved scope details apply unless the request asks for another mode.
  const savedScope = body.selectionMode === undefined || body.selectionMode === saved?.selectionMode ? saved : null;
  const namePattern = body.namePattern ?? savedScope?.namePattern ?? null;
  const selectedViews = body.selectedViews ?? savedScope?.selectedViews ?? [];
  if (selectionMode === 'pattern') {
    const check = checkNamePattern(namePattern ?? '');
    if (!check.ok) {
      throw new ApiError(422, Codes.NAME_PATTERN_INVALID, `The name pattern is not valid: ${check.message}`, {
        errors: [{ pointer: '/body/namePattern', detail: check.message }],
      });
    }
  }
  if (selectionMode === 'selected' && selectedViews.length === 0) {
    throw new ApiError(422, Codes.INVALID_CONFIGURATION, 'selectionMode `selected` needs selectedViews (in the request or the saved settings).');
  }
  const targetCatalog = body.targetCatalog ?? saved?.targetCatalog;
  const targetSchema = body.targetSchema ?? saved?.targetSchema;
  if (!targetCatalog || !targetSchema) {
    throw new ApiError(
      422,
      Codes.TARGET_REQUIRED,
      `Data source "${ds.name}" has no saved target; save publication settings or send targetCatalog and targetSchema with the preview.`,
    );
  }
  return {
    deploymentId,
    dataSourceName: ds.name,
    scope: { selectionMode, namePattern, selectedViews },
    settings: {
      targetCatalog,
      targetSchema,
      targetNamePrefix: body.targetNamePrefix !== undefined ? body.targetNamePrefix : (saved?.targetNamePrefix ?? null),
      targetNameOverrides: saved?.targetNameOverrides ?? {},
      rootSourceOverrides: saved?.rootSourceOverrides ?? {},
    },
  };
}

export async function startPreview(ctx: ServiceContext, deploymentId: number, body: StartPreviewInput, userId: number | null) {
  assertPublicationActive(ctx, deploymentId);
  const ds = requireLakehouseDataSource(ctx, deploymentId, body.dataSourceName);
  const saved = findSettings(ctx, deploymentId, ds.name)?.configuration ?? null;
  const asked = previewInputs(ds, deploymentId, body, saved);
  const { build, branchName, devTarget } = await publicationSource(ctx, deploymentId, body.branchName, asked.settings, userId);
  const inputs: PreviewInputs = { ...asked, settings: placedSettings(asked.settings, devTarget), branchName, devTarget };
  const deployed = build?.status === 'succeeded' ? await deployedViews(ctx, build.id) : null;
  if (deployed) checkScopeAgainstModel(deployed, { ...inputs.scope, ...inputs.settings } as LakehouseConfiguration, ds.name);
  const runner = getJobRunner(ctx);
  const row = ctx.db.transaction((): PreviewRow => {
    const job = runner.enqueue<PreviewInputs>({ kind: PREVIEW_JOB_KIND, deploymentId, inputs, createdBy: userId });
    ctx.db
      .prepare('INSERT INTO lakehouse_previews (id, deployment_id, data_source, build_id, commit_sha, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(job.id, deploymentId, ds.name, build?.id ?? null, build?.status === 'succeeded' ? build.commit : null, job.createdAt);
    return ctx.db.prepare('SELECT * FROM lakehouse_previews WHERE id = ?').get(job.id) as PreviewRow;
  })();
  const status = statusOf(ctx, row, runner.get<PreviewInputs, PreviewResult>(row.id)!);
  return { previewId: row.id, status: status.status, statusUrl: status.statusUrl, resultUrl: status.resultUrl };
}

async function executePreview(ctx: ServiceContext, job: Job<PreviewInputs, PreviewResult>, jobCtx: JobContext): Promise<PreviewResult> {
  const row = ctx.db.prepare('SELECT * FROM lakehouse_previews WHERE id = ?').get(job.id) as PreviewRow | undefined;
  if (!row) throw new JobFailure('LAKEHOUSE_PREVIEW_RECORD_MISSING', `Preview ${job.id} has no record.`);
  const { deploymentId, scope: scopeInput, settings } = job.inputs;
  const devTarget = job.inputs.devTarget ?? null;
  const branchName = job.inputs.branchName ?? getDeployBranch(ctx, deploymentId);

  jobCtx.progress('waiting for the deployed build', 2);
  let build = row.build_id ? getBuild(ctx, row.build_id) : null;
  if (build && build.status !== 'succeeded' && build.status !== 'failed') build = await waitForBuild(ctx, build.id, jobCtx.signal);
  if (!build || build.status !== 'succeeded') {
    throw new JobFailure(
      Codes.NO_SUCCESSFUL_BUILD,
      build ? `Build ${build.id} of branch "${branchName}" failed: ${build.error ?? 'compile errors'}.` : `Branch "${branchName}" has no successful build to preview.`,
    );
  }
  if (!row.commit_sha) ctx.db.prepare('UPDATE lakehouse_previews SET commit_sha = ? WHERE id = ?').run(build.commit, job.id);
  let ds: DataSource;
  try {
    ds = getDataSource(ctx, deploymentId, row.data_source);
  } catch {
    throw new JobFailure(Codes.DATA_SOURCE_NOT_FOUND, `Data source "${row.data_source}" no longer exists.`);
  }

  // Generated on a compute thread from the build's snapshot.
  const planning = await planFromBuild(ctx, build.id, { dataSource: ds.name, catalog: ds.catalog, scope: scopeInput, settings }, jobCtx.signal);
  if (!planning) throw new JobFailure(Codes.NO_SUCCESSFUL_BUILD, `Build ${build.id} has no snapshot to preview; deploy again.`);
  const { scope, plans } = planning;
  if (scope.tooLarge) throw new JobFailure(Codes.SCOPE_TOO_LARGE, `The scope resolves to ${scope.matched} views; at most 128 are published per data source.`);

  let connector: LakehouseConnector;
  try {
    connector = openLakehouseConnector(ctx, deploymentId, ds);
    await connector.checkWarehouseAccess().catch(async (error: unknown) => {
      await connector.close();
      throw error;
    });
  } catch (error) {
    const { code, message } = describeLakehouseError(error);
    throw new JobFailure(code, `The lakehouse cannot be reached to compare targets: ${message}`);
  }
  const views: PreviewView[] = [];
  try {
    // A dev preview's per-user schema may not exist yet: the run creates it, so every target is new.
    const schemaAbsent = devTarget?.mode === 'schema-suffix' && plans.length > 0 && !(await schemaExists(connector, settings.targetCatalog, settings.targetSchema));
    for (const [index, plan] of plans.entries()) {
      jobCtx.signal.throwIfAborted();
      jobCtx.progress(`previewing ${plan.viewName}`, 5 + Math.floor((90 * index) / Math.max(plans.length, 1)));
      const { generated, target } = plan;
      const { blockedReasons, warnings } = issuesOf(generated);
      const entry: PreviewView = {
        viewName: plan.viewName,
        target: qualifiedTarget(target),
        outcome: 'blocked',
        action: null,
        yaml: generated.yaml,
        blockedReasons,
        warnings,
        withheldMembers: generated.withheldMembers,
      };
      if (generated.status !== 'blocked' && generated.yaml !== null) {
        try {
          const inspection = schemaAbsent ? ({ kind: 'absent' } as const) : await inspectTarget(ctx, connector, deploymentId, target, generated.yaml);
          if (inspection.kind === 'refused') {
            entry.blockedReasons = [inspection.reason];
          } else {
            entry.action = inspection.kind === 'absent' ? 'create' : inspection.unchanged ? 'unchanged' : 'update';
            entry.outcome = generated.status === 'partial' ? 'partial' : entry.action;
          }
        } catch (error) {
          entry.blockedReasons = [describeLakehouseError(error)];
        }
      }
      views.push(entry);
    }
  } finally {
    await connector.close();
  }
  const planned = new Set(plans.map((p) => normalizeName(qualifiedTarget(p.target))));
  for (const target of listOwnedTargets(ctx, deploymentId, ds.name, devTarget?.ownerUserId ?? null)) {
    if (planned.has(normalizeName(qualifiedTarget(target)))) continue;
    views.push({
      viewName: target.viewName,
      target: qualifiedTarget(target),
      outcome: 'retained_obsolete',
      action: null,
      yaml: null,
      blockedReasons: [],
      warnings: [],
      withheldMembers: [],
    });
  }
  const outcomeCounts: Record<string, number> = {};
  for (const view of views) outcomeCounts[view.outcome] = (outcomeCounts[view.outcome] ?? 0) + 1;
  return {
    previewId: job.id,
    dataSourceName: ds.name,
    buildJobId: build.id,
    commit: build.commit,
    targetCatalog: settings.targetCatalog,
    targetSchema: settings.targetSchema,
    branchName,
    devTarget,
    selectionMode: scopeInput.selectionMode,
    views,
    outcomeCounts,
    completedAt: ctx.clock.now().toISOString(),
  };
}

/**
 * Whether a schema exists: SHOW SCHEMAS where the connector lists them (a listing that fails
 * answers yes, so each target is inspected and reports its own problem), else a schema probe.
 */
async function schemaExists(connector: LakehouseConnector, catalog: string, schema: string): Promise<boolean> {
  if (connector.listSchemas) {
    const names = await connector.listSchemas(catalog).catch(() => null);
    return names === null || names.some((name) => normalizeName(name) === normalizeName(schema));
  }
  try {
    await connector.checkSchemaAccess(catalog, schema);
    return true;
  } catch {
    return false;
  }
}

export function registerPreviewJob(ctx: ServiceContext): void {
  // Request and result go with the job: at most 7 days after the preview was asked for.
  getJobRunner(ctx).register<PreviewInputs, PreviewResult>(PREVIEW_JOB_KIND, (job, jobCtx) => executePreview(ctx, job, jobCtx), {
    concurrency: 2,
    retentionMs: PREVIEW_RETENTION_MS,
    retentionFrom: 'created',
  });
}
