import type { Static } from 'typebox';
import type { recordWorkbookRemoteOrigin, WorkbookRemoteOrigin } from '../../../src-shared/api/remote-transfers';
import { TransferErrorCodes as Codes } from '../../../src-shared/api/remote-transfers';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { ApiError } from '../../http/problem';
import { userSummary } from '../identity';
import { assertCanManageWorkbook, requireWorkbook, workbookContentHash } from '../workbooks';

/**
 * The receiving side of a cross-instance promotion: the sending Drydock records here where the
 * workbook came from, so the provenance shows on both sides. Only a promotion that just wrote the
 * workbook can record it (the content hash must be the one it wrote).
 */

interface OriginRow {
  id: number;
  deployment_id: number;
  workbook_id: number;
  transfer_id: string;
  source_service: string;
  source_deployment_id: number;
  source_workbook_id: number;
  source_slug: string;
  source_name: string;
  source_hash: string;
  content_hash: string;
  recorded_by: number | null;
  recorded_at: string;
}

function toOrigin(ctx: ServiceContext, row: OriginRow, currentHash: string): WorkbookRemoteOrigin {
  return {
    id: row.id,
    workbookId: row.workbook_id,
    transferId: row.transfer_id,
    sourceService: row.source_service,
    sourceDeploymentId: row.source_deployment_id,
    sourceWorkbookId: row.source_workbook_id,
    sourceSlug: row.source_slug,
    sourceName: row.source_name,
    sourceHash: row.source_hash,
    contentHash: row.content_hash,
    modifiedSince: currentHash !== row.content_hash,
    recordedBy: userSummary(ctx, row.recorded_by),
    recordedAt: row.recorded_at,
  };
}

export function recordOrigin(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  body: Static<NonNullable<(typeof recordWorkbookRemoteOrigin)['body']>>,
): WorkbookRemoteOrigin {
  return ctx.db.transaction(() => {
    const workbook = requireWorkbook(ctx, principal, deploymentId, workbookId);
    assertCanManageWorkbook(principal, workbook);
    const current = workbookContentHash(workbook);
    const existing = ctx.db.prepare('SELECT * FROM workbook_remote_origins WHERE workbook_id = ? AND transfer_id = ?').get(workbook.id, body.transferId) as
      | OriginRow
      | undefined;
    // Recording the same transfer again (a retried request) answers the first record.
    if (existing) return toOrigin(ctx, existing, current);
    if (current !== body.contentHash) {
      throw new ApiError(409, Codes.REMOTE_TARGET_CHANGED, `Workbook ${workbook.id} no longer has the content that promotion wrote; its origin is not recorded.`, {
        currentHash: current,
      });
    }
    const id = Number(
      ctx.db
        .prepare(
          `INSERT INTO workbook_remote_origins (deployment_id, workbook_id, transfer_id, source_service, source_deployment_id,
             source_workbook_id, source_slug, source_name, source_hash, content_hash, recorded_by, recorded_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          deploymentId,
          workbook.id,
          body.transferId,
          body.sourceService,
          body.sourceDeploymentId,
          body.sourceWorkbookId,
          body.sourceSlug,
          body.sourceName,
          body.sourceHash,
          body.contentHash,
          principal.userId,
          ctx.clock.now().toISOString(),
        ).lastInsertRowid,
    );
    return toOrigin(ctx, ctx.db.prepare('SELECT * FROM workbook_remote_origins WHERE id = ?').get(id) as OriginRow, current);
  })();
}

export function listOrigins(ctx: ServiceContext, principal: Principal, deploymentId: number, workbookId: number, page: PageRequest): PageResult<WorkbookRemoteOrigin> {
  const workbook = requireWorkbook(ctx, principal, deploymentId, workbookId);
  const current = workbookContentHash(workbook);
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db
    .prepare('SELECT * FROM workbook_remote_origins WHERE workbook_id = ? AND id < ? ORDER BY id DESC LIMIT ?')
    .all(workbook.id, after ?? Number.MAX_SAFE_INTEGER, limit) as OriginRow[];
  return toPage(rows, page, (r) => r.id, (r) => toOrigin(ctx, r, current));
}
