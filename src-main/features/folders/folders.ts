import type { Folder, FoldersListResponse } from '../../../src-shared/api/folders';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { pageWindow, toPage, type PageRequest } from '../../http/pagination';
import { ApiError, conflict, forbidden, notFound } from '../../http/problem';
import { countedRows } from '../../platform/db/list-counts';
import { userSummaries, userSummary } from '../identity';
import { canManageItem, countItemsInFolder } from '../workspace-items';

export interface FolderRow {
  id: number;
  deployment_id: number;
  parent_id: number | null;
  name: string;
  owner_user_id: number | null;
  created_at: string;
  updated_at: string;
}

export const FOLDER_NOT_FOUND = 'FOLDER_NOT_FOUND';

export function findFolder(ctx: ServiceContext, deploymentId: number, folderId: number): FolderRow | undefined {
  return ctx.db.prepare('SELECT * FROM folders WHERE id = ? AND deployment_id = ?').get(folderId, deploymentId) as FolderRow | undefined;
}

/** The folder, or 404 `FOLDER_NOT_FOUND` when the deployment has no such folder. */
export function requireFolder(ctx: ServiceContext, deploymentId: number, folderId: number): FolderRow {
  const row = findFolder(ctx, deploymentId, folderId);
  if (!row) throw notFound(`Folder ${folderId} of deployment ${deploymentId}`, FOLDER_NOT_FOUND);
  return row;
}

/** The folder and its ancestors, nearest first. */
export function folderChain(ctx: ServiceContext, folderId: number | null, known?: Map<number, FolderRow | null>): FolderRow[] {
  const chain: FolderRow[] = [];
  const seen = new Set<number>();
  const get = ctx.db.prepare('SELECT * FROM folders WHERE id = ?');
  let next = folderId;
  while (next !== null && !seen.has(next)) {
    seen.add(next);
    let row = known?.get(next);
    if (row === undefined) {
      row = (get.get(next) as FolderRow | undefined) ?? null;
      known?.set(next, row);
    }
    if (!row) break;
    chain.push(row);
    next = row.parent_id;
  }
  return chain;
}

/** `/A/B` for a folder B inside A; `/` for the top level (no folder). `known` folders are not read again. */
export function folderPath(ctx: ServiceContext, folderId: number | null, known?: Map<number, FolderRow | null>): string {
  const names = folderChain(ctx, folderId, known).map((f) => f.name).reverse();
  return `/${names.join('/')}`;
}

function folderOf(principal: Principal, row: FolderRow, path: string, owner: Folder['owner']): Folder {
  return {
    id: row.id,
    deploymentId: row.deployment_id,
    name: row.name,
    parentId: row.parent_id,
    path,
    owner,
    canManage: canManageItem(principal, row.owner_user_id),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toFolder(ctx: ServiceContext, principal: Principal, row: FolderRow): Folder {
  return folderOf(principal, row, folderPath(ctx, row.id), userSummary(ctx, row.owner_user_id));
}

/** A page of folders: owners in one query, and each ancestor read once for all the paths of the page. */
function toFolders(ctx: ServiceContext, principal: Principal, rows: readonly FolderRow[]): Folder[] {
  const owners = userSummaries(ctx, rows.map((row) => row.owner_user_id));
  const known = new Map<number, FolderRow | null>(rows.map((row) => [row.id, row]));
  return rows.map((row) =>
    folderOf(principal, row, folderPath(ctx, row.id, known), row.owner_user_id === null ? null : (owners.get(row.owner_user_id) ?? null)),
  );
}

function assertNameFree(ctx: ServiceContext, deploymentId: number, parentId: number | null, name: string, exceptId: number | null): void {
  const clash = ctx.db
    .prepare('SELECT id FROM folders WHERE deployment_id = ? AND COALESCE(parent_id, 0) = ? AND name = ? COLLATE NOCASE AND id != ?')
    .get(deploymentId, parentId ?? 0, name, exceptId ?? 0);
  if (clash) {
    throw conflict('FOLDER_NAME_TAKEN', `A folder named "${name}" already exists in ${folderPath(ctx, parentId)}.`);
  }
}

export function assertCanManageFolder(principal: Principal, row: FolderRow): void {
  if (!canManageItem(principal, row.owner_user_id)) {
    throw forbidden(`Only the owner of folder ${row.id} or an admin can change or delete it.`);
  }
}

/** Folders by id (keyset over (deployment, id) or (deployment, parent, id)); `count` is kept by triggers. */
export function listFolders(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  query: PageRequest & { parentId?: number },
): FoldersListResponse {
  const { limit, after } = pageWindow<number>(query);
  const filterParent = query.parentId !== undefined;
  // `IS` matches NULL (parent 0 = the top level) and still walks the (deployment, parent, id) index.
  const where = `deployment_id = ? ${filterParent ? 'AND parent_id IS ?' : ''}`;
  const args: unknown[] = filterParent ? [deploymentId, query.parentId === 0 ? null : query.parentId] : [deploymentId];
  const rows = ctx.db
    .prepare(`SELECT * FROM folders WHERE ${where} AND id > ? ORDER BY id LIMIT ?`)
    .all(...args, after ?? 0, limit) as FolderRow[];
  const count = countedRows(ctx.db, 'folders', deploymentId, query.parentId);
  const page = toPage(rows, query, (r) => r.id, (r) => r);
  const items = toFolders(ctx, principal, page.items);
  return { items, pageInfo: page.pageInfo, data: items, count };
}

export function createFolder(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  input: { name: string; parentId?: number | null },
): FolderRow {
  return ctx.db.transaction(() => {
    const parentId = input.parentId ?? null;
    if (parentId !== null) requireFolder(ctx, deploymentId, parentId);
    assertNameFree(ctx, deploymentId, parentId, input.name, null);
    const now = ctx.clock.now().toISOString();
    const id = Number(
      ctx.db
        .prepare('INSERT INTO folders (deployment_id, parent_id, name, owner_user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(deploymentId, parentId, input.name, principal.userId, now, now).lastInsertRowid,
    );
    return requireFolder(ctx, deploymentId, id);
  })();
}

/** Moves a folder (with everything in it) under `parentId` (null = top level); refuses cycles. */
export function moveFolder(ctx: ServiceContext, principal: Principal, deploymentId: number, folderId: number, parentId: number | null): FolderRow {
  return updateFolder(ctx, principal, deploymentId, folderId, { parentId });
}

export function updateFolder(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  folderId: number,
  input: { name?: string; parentId?: number | null },
): FolderRow {
  return ctx.db.transaction(() => {
    const row = requireFolder(ctx, deploymentId, folderId);
    assertCanManageFolder(principal, row);
    const name = input.name ?? row.name;
    const parentId = input.parentId === undefined ? row.parent_id : input.parentId;
    if (parentId !== null && parentId !== row.parent_id) {
      requireFolder(ctx, deploymentId, parentId);
      if (folderChain(ctx, parentId).some((f) => f.id === folderId)) {
        throw conflict('FOLDER_CYCLE', `Folder ${folderId} cannot move into itself or one of its own subfolders.`);
      }
    }
    if (name !== row.name || parentId !== row.parent_id) assertNameFree(ctx, deploymentId, parentId, name, folderId);
    ctx.db
      .prepare('UPDATE folders SET name = ?, parent_id = ?, updated_at = ? WHERE id = ?')
      .run(name, parentId, ctx.clock.now().toISOString(), folderId);
    return requireFolder(ctx, deploymentId, folderId);
  })();
}

/** Deletes an empty folder (owner or admin); 409 `FOLDER_NOT_EMPTY` otherwise. */
export function deleteFolder(ctx: ServiceContext, principal: Principal, deploymentId: number, folderId: number): void {
  ctx.db.transaction(() => {
    const row = requireFolder(ctx, deploymentId, folderId);
    assertCanManageFolder(principal, row);
    const subfolders = (ctx.db.prepare('SELECT COUNT(*) AS n FROM folders WHERE parent_id = ?').get(folderId) as { n: number }).n;
    const { workbooks, reports } = countItemsInFolder(ctx, folderId);
    if (subfolders + workbooks + reports > 0) {
      throw new ApiError(
        409,
        'FOLDER_NOT_EMPTY',
        `Folder "${row.name}" still holds ${subfolders} folder(s), ${workbooks} workbook(s) and ${reports} report(s); move or delete them first.`,
      );
    }
    ctx.db.prepare('DELETE FROM folders WHERE id = ?').run(folderId);
  })();
}
