import type { BulkItemResult, BulkResult, WorkspaceItemRef } from '../../../src-shared/api/workspace';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { deleteFolder, moveFolder, requireFolder } from '../folders';
import { deleteReport, moveReport } from '../reports';
import { deleteWorkbook, moveWorkbook } from '../workbooks';

/**
 * Applies `apply` to every item, each in its own savepoint inside one transaction: an item that
 * fails is rolled back to exactly how it was and reported, and the others still go through.
 */
function eachItem(ctx: ServiceContext, items: WorkspaceItemRef[], apply: (item: WorkspaceItemRef) => void): BulkResult {
  const results: BulkItemResult[] = ctx.db.transaction(() =>
    items.map((item): BulkItemResult => {
      try {
        ctx.db.transaction(() => apply(item))();
        return { type: item.type, id: item.id, status: 'SUCCEEDED', error: null };
      } catch (error) {
        if (error instanceof ApiError) {
          return { type: item.type, id: item.id, status: 'FAILED', error: { status: error.status, code: error.code, detail: error.detail } };
        }
        ctx.log.error('bulk workspace item failed', { item, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        return {
          type: item.type,
          id: item.id,
          status: 'FAILED',
          error: { status: 500, code: 'INTERNAL', detail: 'The service failed on this item; it has been logged and the item left unchanged.' },
        };
      }
    }),
  )();
  const failed = results.filter((r) => r.status === 'FAILED').length;
  return { results, succeeded: results.length - failed, failed };
}

export function bulkDelete(ctx: ServiceContext, principal: Principal, deploymentId: number, items: WorkspaceItemRef[]): BulkResult {
  return eachItem(ctx, items, (item) => {
    if (item.type === 'FOLDER') deleteFolder(ctx, principal, deploymentId, item.id);
    else if (item.type === 'WORKBOOK') deleteWorkbook(ctx, principal, deploymentId, item.id);
    else deleteReport(ctx, principal, deploymentId, item.id);
  });
}

/** Moves items into `targetFolderId` (null = top level); an unknown target folder fails the whole request (404). */
export function bulkMove(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  items: WorkspaceItemRef[],
  targetFolderId: number | null,
): BulkResult {
  if (targetFolderId !== null) requireFolder(ctx, deploymentId, targetFolderId);
  return eachItem(ctx, items, (item) => {
    if (item.type === 'FOLDER') moveFolder(ctx, principal, deploymentId, item.id, targetFolderId);
    else if (item.type === 'WORKBOOK') moveWorkbook(ctx, principal, deploymentId, item.id, targetFolderId);
    else moveReport(ctx, principal, deploymentId, item.id, targetFolderId);
  });
}
