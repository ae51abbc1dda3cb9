import type { ServiceContext } from '../../context';

/**
 * How many workbooks and reports a folder holds. Folders need the counts (a folder with items
 * cannot be deleted) and the areas that own those items depend on folders, so the counting lives
 * here, below all three.
 */
export function countItemsInFolder(ctx: ServiceContext, folderId: number): { workbooks: number; reports: number } {
  const row = ctx.db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM workbooks WHERE folder_id = ?) AS workbooks,
              (SELECT COUNT(*) FROM reports WHERE folder_id = ?) AS reports`,
    )
    .get(folderId, folderId) as { workbooks: number; reports: number };
  return row;
}
