import { rmSync, statSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  CONTENT_TYPES,
  DashboardExportErrorCodes as Codes,
  EXPORT_LIFETIME_MS,
  type DashboardExport,
  type ExportFormat,
  type StartDashboardExportInput,
} from '../../../src-shared/api/dashboard-exports';
import type { DashboardConfig } from '../../../src-shared/api/workbooks';
import type { ServiceContext } from '../../context';
import { hasAccess, userActions, type Principal, type Role } from '../../http/auth';
import { ApiError, forbidden } from '../../http/problem';
import { getJobRunner, type Job, type JobContext } from '../../platform/jobs';
import { getUserRow } from '../identity';
import { canSeeWorkbook } from '../workspace-items';
import { parseDashboard } from '../workbooks';
import { assertCanManageWorkbook, requireWorkbook } from '../workbooks';
import { runCompute } from '../../workers/run';
import { runWidgetQuery } from '../queries';
import { widgetQueryOf, type WidgetQueryOutcome } from './render';

export const EXPORT_KIND = 'dashboard-export';
/** Rows stay this long after their export expired, so late requests get 410 rather than 404. */
const TOMBSTONE_MS = 24 * 60 * 60 * 1000;
const DEFAULT_WIDTH = 1280;

export interface ExportJobInputs {
  workbookId: number;
  format: ExportFormat;
  width: number;
  /** Who the dashboard is rendered as (the caller unless an admin chose `renderAs`). */
  renderAsUserId: number | null;
  /** The published dashboard at submission: the export shows what was published when it was asked for. */
  dashboard: DashboardConfig;
  name: string;
}

export interface ExportJobResult {
  size: number;
  sha256: string;
}

interface ExportRow {
  job_id: string;
  deployment_id: number;
  workbook_id: number;
  format: ExportFormat;
  requested_by: number | null;
  render_as_user_id: number | null;
  file_name: string;
  file_path: string | null;
  size: number | null;
  created_at: string;
  expires_at: string;
}

/** Files of a deployment's exports: `<dataDir>/exports/<deploymentId>/<jobId>.<format>`. */
export const exportsDir = (ctx: ServiceContext, deploymentId: number) => join(ctx.dataDir, 'exports', String(deploymentId));
const isAdmin = (principal: Principal) => principal.via !== 'embed' && hasAccess(principal, 'admin');

/**
 * A stored user as a principal, resolved as authentication resolves them (their role, the policies
 * attached to them or their groups, their own actions), to ask what that user may see.
 */
function principalOfUser(ctx: ServiceContext, userId: number): Principal {
  const user = getUserRow(ctx, userId);
  if (user.active !== 1) throw new ApiError(422, 'USER_DEACTIVATED', `User ${userId} is deactivated; a dashboard cannot be rendered as them.`);
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.role as Role,
    actions: userActions(ctx.db, user),
    via: 'apiKey',
    sid: null,
    scopes: null,
    deploymentId: null,
    embedTenant: null,
    claims: {},
  };
}

/** Deletes files of expired exports and forgets exports long expired. */
export function purgeExpiredExports(ctx: ServiceContext): void {
  const now = ctx.clock.now();
  const expired = ctx.db.prepare('SELECT job_id, file_path FROM dashboard_exports WHERE expires_at <= ? AND file_path IS NOT NULL').all(now.toISOString()) as {
    job_id: string;
    file_path: string;
  }[];
  for (const row of expired) rmSync(row.file_path, { force: true });
  ctx.db.transaction(() => {
    const clear = ctx.db.prepare('UPDATE dashboard_exports SET file_path = NULL WHERE job_id = ?');
    for (const row of expired) clear.run(row.job_id);
    ctx.db.prepare('DELETE FROM dashboard_exports WHERE expires_at <= ?').run(new Date(now.getTime() - TOMBSTONE_MS).toISOString());
  })();
}

function toExport(ctx: ServiceContext, row: ExportRow): DashboardExport {
  const job = getJobRunner(ctx).get<ExportJobInputs, ExportJobResult>(row.job_id);
  const base = `/api/v1/deployments/${row.deployment_id}/dashboard-exports/${row.job_id}`;
  const status = job?.status ?? 'FAILED';
  return {
    jobId: row.job_id,
    workflowId: job?.workflowId ?? row.job_id,
    status,
    progress: job?.progress ?? { stage: 'lost', percentComplete: 0 },
    ...(status === 'FAILED' ? { error: job?.error ? { code: job.error.code, message: job.error.message } : { code: 'JOB_LOST', message: 'The export job no longer exists.' } } : {}),
    deploymentId: row.deployment_id,
    workbookId: row.workbook_id,
    format: row.format,
    contentType: CONTENT_TYPES[row.format],
    fileName: row.file_name,
    size: row.size,
    requestedBy: row.requested_by,
    renderAsUserId: row.render_as_user_id,
    createdAt: row.created_at,
    finishedAt: job?.finishedAt ?? null,
    expiresAt: row.expires_at,
    statusUrl: base,
    downloadUrl: status === 'COMPLETED' ? `${base}/download` : null,
  };
}

/** Checks access and the published dashboard, then queues the render (202). */
export function startExport(ctx: ServiceContext, deploymentId: number, principal: Principal, input: StartDashboardExportInput): DashboardExport {
  purgeExpiredExports(ctx);
  const workbook = requireWorkbook(ctx, principal, deploymentId, input.workbookId);
  let renderAsUserId = principal.userId;
  if (input.renderAs !== undefined) {
    if (!isAdmin(principal)) throw forbidden('Only a tenant admin can render a dashboard as another user (`renderAs`).', Codes.RENDER_AS_NOT_ALLOWED);
    // The user rendered as must be able to open the workbook themselves: the deployment (deployment
    // read, after their policies) and the workbook (theirs or shared), as a direct request by them would.
    const target = principalOfUser(ctx, input.renderAs.userId);
    if (!hasAccess(target, 'deploymentRead')) {
      throw forbidden(`User ${input.renderAs.userId} has no deployment read access, so the dashboard cannot be rendered as them.`, Codes.RENDER_AS_NO_ACCESS);
    }
    if (!canSeeWorkbook(target, { ownerUserId: workbook.owner_user_id, shared: workbook.shared === 1 })) {
      throw forbidden(`User ${input.renderAs.userId} cannot see workbook ${workbook.id}, so it cannot be rendered as them.`, Codes.RENDER_AS_NO_ACCESS);
    }
    renderAsUserId = target.userId;
  } else {
    // Rendering as the caller: spec, "default runs as the caller and needs manage access to the workbook".
    assertCanManageWorkbook(principal, workbook);
  }
  const dashboard = parseDashboard(workbook.dashboard_published);
  if (!dashboard) {
    throw new ApiError(409, Codes.DASHBOARD_NOT_PUBLISHED, `Workbook ${workbook.id} has no published dashboard to export; publish it first.`);
  }
  return ctx.db.transaction(() => {
    const job = getJobRunner(ctx).enqueue<ExportJobInputs>({
      kind: EXPORT_KIND,
      deploymentId,
      inputs: { workbookId: workbook.id, format: input.format, width: input.width ?? DEFAULT_WIDTH, renderAsUserId, dashboard, name: workbook.name },
      createdBy: principal.userId,
    });
    const created = new Date(job.createdAt);
    const row = ctx.db
      .prepare(
        `INSERT INTO dashboard_exports (job_id, deployment_id, workbook_id, format, requested_by, render_as_user_id, file_name, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(
        job.id,
        deploymentId,
        workbook.id,
        input.format,
        principal.userId,
        renderAsUserId,
        `${workbook.slug}.${input.format}`,
        job.createdAt,
        new Date(created.getTime() + EXPORT_LIFETIME_MS).toISOString(),
      ) as ExportRow;
    return toExport(ctx, row);
  })();
}

/** The export if the caller requested it (or is an admin); 410 once expired; 404 otherwise. */
function requireExport(ctx: ServiceContext, deploymentId: number, jobId: string, principal: Principal): ExportRow {
  purgeExpiredExports(ctx);
  const row = ctx.db.prepare('SELECT * FROM dashboard_exports WHERE job_id = ? AND deployment_id = ?').get(jobId, deploymentId) as ExportRow | undefined;
  if (!row || (!isAdmin(principal) && row.requested_by !== principal.userId)) {
    throw new ApiError(404, Codes.EXPORT_NOT_FOUND, `Deployment ${deploymentId} has no dashboard export ${jobId}.`);
  }
  if (ctx.clock.now().toISOString() >= row.expires_at) {
    throw new ApiError(410, Codes.EXPORT_EXPIRED, `Dashboard export ${jobId} expired at ${row.expires_at} (exports live 5 minutes); start a new one.`);
  }
  return row;
}

export const getExport = (ctx: ServiceContext, deploymentId: number, jobId: string, principal: Principal): DashboardExport =>
  toExport(ctx, requireExport(ctx, deploymentId, jobId, principal));

/** Asks a queued or running export to stop (an ended one is returned as it is). */
export function cancelExport(ctx: ServiceContext, deploymentId: number, jobId: string, principal: Principal): DashboardExport {
  const row = requireExport(ctx, deploymentId, jobId, principal);
  getJobRunner(ctx).requestCancel(row.job_id);
  return toExport(ctx, row);
}

/** The file to stream, once rendered. */
export function exportFile(ctx: ServiceContext, deploymentId: number, jobId: string, principal: Principal): { path: string; size: number; contentType: string; fileName: string } {
  const row = requireExport(ctx, deploymentId, jobId, principal);
  const view = toExport(ctx, row);
  if (view.status !== 'COMPLETED' || row.file_path === null) {
    throw new ApiError(409, Codes.EXPORT_NOT_READY, `Dashboard export ${jobId} is ${view.status}${view.error ? ` (${view.error.message})` : ''}; download it once it is COMPLETED.`, {
      jobStatus: view.status,
    });
  }
  return { path: row.file_path, size: statSync(row.file_path).size, contentType: CONTENT_TYPES[row.format], fileName: row.file_name };
}

/**
 * Each top-level CHART widget's query, run on the deploy branch as the user the dashboard is
 * rendered as (their access policies apply), one at a time; a failure is kept as its reason.
 */
async function widgetData(
  ctx: ServiceContext,
  deploymentId: number,
  userId: number | null,
  dashboard: DashboardConfig,
  signal: AbortSignal,
  progress: JobContext['progress'],
): Promise<Record<string, WidgetQueryOutcome>> {
  const out: Record<string, WidgetQueryOutcome> = {};
  const principal = userId === null ? null : principalOfUser(ctx, userId);
  const queries = (dashboard.widgets ?? []).flatMap((widget) => {
    const query = widgetQueryOf(widget);
    return query ? [{ id: widget.id, query }] : [];
  });
  for (const [index, { id, query }] of queries.entries()) {
    signal.throwIfAborted();
    progress(`querying widget ${index + 1} of ${queries.length}`, 10 + Math.floor((30 * index) / queries.length));
    out[id] = principal ? await runWidgetQuery(ctx, deploymentId, principal, query, signal) : { ok: false, message: 'the export has no user to run its queries as.' };
  }
  return out;
}

/** The job: run the widgets' queries, render, write the file (temp then rename), record it. */
export async function runExport(ctx: ServiceContext, job: Job<ExportJobInputs>, jobCtx: JobContext): Promise<ExportJobResult> {
  const i = job.inputs;
  jobCtx.progress('querying', 10);
  const data = await widgetData(ctx, job.deploymentId!, i.renderAsUserId, i.dashboard, jobCtx.signal, (stage, percent) => jobCtx.progress(stage, percent));
  jobCtx.progress('rendering', 40);
  // Rendered on a compute thread (a cancel stops it there); written here only if not cancelled.
  const rendered = await runCompute(
    ctx,
    'renderExportFile',
    { dashboard: i.dashboard, format: i.format, name: i.name, width: i.width, createdAt: job.createdAt, data },
    { signal: jobCtx.signal },
  );
  jobCtx.signal.throwIfAborted();
  jobCtx.progress('writing', 80);
  const path = join(exportsDir(ctx, job.deploymentId!), `${job.id}.${i.format}`);
  const file: ExportJobResult = { size: rendered.bytes.byteLength, sha256: rendered.sha256 };
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await writeFile(`${path}.tmp`, rendered.bytes, { mode: 0o600 });
    jobCtx.signal.throwIfAborted();
    await rename(`${path}.tmp`, path);
    ctx.db.transaction(() => ctx.db.prepare('UPDATE dashboard_exports SET file_path = ?, size = ? WHERE job_id = ?').run(path, file.size, job.id))();
  } catch (error) {
    // Cancelled (or failed) while writing: the export has no file unless it completes.
    rmSync(`${path}.tmp`, { force: true });
    rmSync(path, { force: true });
    throw error;
  }
  jobCtx.log(`rendered ${i.format.toUpperCase()} of ${file.size} bytes`);
  return file;
}

/** Called by the job sweep when an export's job expires: its file goes too. */
export function removeExportFile(ctx: ServiceContext, job: Job): void {
  const row = ctx.db.prepare('SELECT file_path FROM dashboard_exports WHERE job_id = ?').get(job.id) as { file_path: string | null } | undefined;
  if (row?.file_path) rmSync(row.file_path, { force: true });
  ctx.db.transaction(() => ctx.db.prepare('UPDATE dashboard_exports SET file_path = NULL WHERE job_id = ?').run(job.id))();
}
