import type { PromotionChanges } from '../../../src-shared/api/promotions';
import type { FileChangeSummary, RemoteTransfer, TransferStatus } from '../../../src-shared/api/remote-transfers';
import { TransferErrorCodes as Codes } from '../../../src-shared/api/remote-transfers';
import type { ServiceContext } from '../../context';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { ApiError } from '../../http/problem';
import { getJobRunner, isTerminal, type Job } from '../../platform/jobs';
import { userSummary } from '../identity';

/** History of cross-instance transfers (table of migration 11); the work is a job with the same id. */

export interface TransferRow {
  seq: number;
  id: string;
  kind: RemoteTransfer['kind'];
  status: TransferStatus;
  profile_name: string;
  remote_base_url: string;
  remote_spec_version: string | null;
  operation: 'CREATE' | 'UPDATE' | null;
  source_deployment_id: number;
  source_workbook_id: number | null;
  source_slug: string | null;
  source_name: string | null;
  source_branch: string | null;
  source_version: string | null;
  target_deployment_id: number;
  target_workbook_id: number | null;
  target_slug: string | null;
  target_name: string | null;
  target_branch: string | null;
  target_version_before: string | null;
  target_version_after: string | null;
  changes: string | null;
  remote_provenance: RemoteTransfer['remoteProvenance'];
  rolled_back: number | null;
  error_code: string | null;
  error_message: string | null;
  idempotency_key: string | null;
  created_by: number | null;
  created_at: string;
  finished_at: string | null;
}

export type NewTransfer = Pick<
  TransferRow,
  'id' | 'kind' | 'profile_name' | 'remote_base_url' | 'remote_spec_version' | 'source_deployment_id' | 'target_deployment_id' | 'idempotency_key' | 'created_by'
> &
  Partial<TransferRow>;

export function insertTransfer(ctx: ServiceContext, row: NewTransfer): TransferRow {
  const full: Omit<TransferRow, 'seq'> = {
    status: 'QUEUED',
    operation: null,
    source_workbook_id: null,
    source_slug: null,
    source_name: null,
    source_branch: null,
    source_version: null,
    target_workbook_id: null,
    target_slug: null,
    target_name: null,
    target_branch: null,
    target_version_before: null,
    target_version_after: null,
    changes: null,
    remote_provenance: null,
    rolled_back: null,
    error_code: null,
    error_message: null,
    created_at: ctx.clock.now().toISOString(),
    finished_at: null,
    ...row,
  };
  const columns = Object.keys(full);
  ctx.db.transaction(() => {
    ctx.db
      .prepare(`INSERT INTO remote_transfers (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`)
      .run(...columns.map((c) => full[c as keyof typeof full]));
  })();
  return requireTransferRow(ctx, row.id);
}

const UPDATABLE = new Set<keyof TransferRow>([
  'status',
  'operation',
  'source_version',
  'target_workbook_id',
  'target_slug',
  'target_name',
  'target_branch',
  'target_version_before',
  'target_version_after',
  'changes',
  'remote_provenance',
  'rolled_back',
  'error_code',
  'error_message',
  'finished_at',
]);

export function updateTransfer(ctx: ServiceContext, id: string, patch: Partial<TransferRow>): void {
  const entries = Object.entries(patch).filter(([key]) => UPDATABLE.has(key as keyof TransferRow));
  if (entries.length === 0) return;
  ctx.db.transaction(() => {
    ctx.db.prepare(`UPDATE remote_transfers SET ${entries.map(([key]) => `${key} = ?`).join(', ')} WHERE id = ?`).run(...entries.map(([, v]) => v), id);
  })();
}

/** Ends a transfer's row (the handler's last word; also used when a job ended without it). */
export function finishTransfer(ctx: ServiceContext, id: string, status: 'COMPLETED' | 'FAILED' | 'CANCELLED', patch: Partial<TransferRow> = {}): void {
  updateTransfer(ctx, id, { ...patch, status, finished_at: ctx.clock.now().toISOString() });
}

export function findTransferRow(ctx: ServiceContext, id: string): TransferRow | undefined {
  return ctx.db.prepare('SELECT * FROM remote_transfers WHERE id = ?').get(id) as TransferRow | undefined;
}

export function requireTransferRow(ctx: ServiceContext, id: string): TransferRow {
  const row = findTransferRow(ctx, id);
  if (!row) throw new ApiError(404, Codes.TRANSFER_NOT_FOUND, `Transfer "${id}" was not found.`);
  return row;
}

/**
 * The row as the API shows it. While the job runs, its status and progress are the job's; a job
 * that ended without its handler's last word (its process died; these jobs do not resume, since
 * they write to another service) ends the row as FAILED with the job's reason.
 */
export function transferView(ctx: ServiceContext, row: TransferRow): RemoteTransfer {
  const job = getJobRunner(ctx).get(row.id) as Job | null;
  let status = row.status;
  let progress = { stage: status === 'COMPLETED' ? 'done' : status.toLowerCase(), percentComplete: status === 'COMPLETED' ? 100 : 0 };
  let error = row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null;
  if (job && !isTerminal(row.status as never)) {
    progress = { stage: job.progress.stage, percentComplete: Math.round(job.progress.percentComplete) };
    if (isTerminal(job.status)) {
      status = job.status === 'COMPLETED' ? 'FAILED' : job.status === 'CANCELLED' ? 'CANCELLED' : 'FAILED';
      error = job.error ? { code: job.error.code, message: job.error.message } : error;
      finishTransfer(ctx, row.id, status as 'FAILED' | 'CANCELLED', { error_code: error?.code ?? null, error_message: error?.message ?? null });
    } else if (job.status === 'RUNNING' || job.status === 'CANCELLING') {
      status = job.status;
    }
  } else if (!job && !['COMPLETED', 'FAILED', 'CANCELLED'].includes(row.status)) {
    status = 'FAILED';
    error = { code: 'TRANSFER_INTERRUPTED', message: 'The transfer stopped without finishing (its job is gone); check the remote and start it again.' };
  }
  const parsed = row.changes ? (JSON.parse(row.changes) as PromotionChanges | FileChangeSummary[]) : null;
  return {
    id: row.id,
    kind: row.kind,
    status,
    profileName: row.profile_name,
    remoteBaseUrl: row.remote_base_url,
    remoteSpecVersion: row.remote_spec_version,
    operation: row.operation,
    source: {
      deploymentId: row.source_deployment_id,
      workbookId: row.source_workbook_id,
      slug: row.source_slug,
      name: row.source_name,
      branchName: row.source_branch,
      version: row.source_version,
    },
    target: {
      deploymentId: row.target_deployment_id,
      workbookId: row.target_workbook_id,
      slug: row.target_slug,
      name: row.target_name,
      branchName: row.target_branch,
      versionBefore: row.target_version_before,
      versionAfter: row.target_version_after,
    },
    workbookChanges: parsed && !Array.isArray(parsed) ? parsed : null,
    fileChanges: Array.isArray(parsed) ? parsed : [],
    remoteProvenance: row.remote_provenance,
    rolledBack: row.rolled_back === null ? null : row.rolled_back === 1,
    progress,
    error,
    idempotencyKey: row.idempotency_key,
    createdBy: userSummary(ctx, row.created_by),
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    statusUrl: `/api/v1/remote-transfers/${row.id}`,
  };
}

export interface TransferFilter {
  kind?: RemoteTransfer['kind'];
  deploymentId?: number;
  profileName?: string;
  workbookId?: number;
}

/** Newest first, keyset on `seq`. */
export function listTransfers(ctx: ServiceContext, filter: TransferFilter, page: PageRequest): PageResult<RemoteTransfer> {
  const { limit, after } = pageWindow<number>(page);
  const where: string[] = ['seq < ?'];
  const args: unknown[] = [after ?? Number.MAX_SAFE_INTEGER];
  const conditions: [string, unknown][] = [
    ['kind = ?', filter.kind],
    ['source_deployment_id = ?', filter.deploymentId],
    ['profile_name = ?', filter.profileName],
    ['source_workbook_id = ?', filter.workbookId],
  ];
  for (const [condition, value] of conditions) {
    if (value === undefined) continue;
    where.push(condition);
    args.push(value);
  }
  const rows = ctx.db
    .prepare(`SELECT * FROM remote_transfers WHERE ${where.join(' AND ')} ORDER BY seq DESC LIMIT ?`)
    .all(...args, limit) as TransferRow[];
  return toPage(rows, page, (r) => r.seq, (r) => transferView(ctx, r));
}

/** The remote workbook a workbook was last promoted to on that profile's deployment, if any. */
export function lastPromotedTarget(ctx: ServiceContext, workbookId: number, profileName: string, remoteBaseUrl: string, targetDeploymentId: number): number | null {
  const row = ctx.db
    .prepare(
      `SELECT target_workbook_id FROM remote_transfers WHERE kind = 'workbook-promotion' AND status = 'COMPLETED'
         AND source_workbook_id = ? AND profile_name = ? AND remote_base_url = ? AND target_deployment_id = ?
       ORDER BY seq DESC LIMIT 1`,
    )
    .get(workbookId, profileName, remoteBaseUrl, targetDeploymentId) as { target_workbook_id: number | null } | undefined;
  return row?.target_workbook_id ?? null;
}
