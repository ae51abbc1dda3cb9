import type {
  AccessSource,
  EmbedAccessAction,
  EmbedAccessEntry,
  EmbedAccessInput,
  EmbedTenantWorkbook,
  FolderEmbedAccess,
  WorkbookEmbedAccess,
} from '../../../src-shared/api/embed-access';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { invalidField } from '../../http/problem';
import { assertCanManageFolder, folderChain, folderPath, requireFolder } from '../folders';
import { userSummary } from '../identity';
import { assertCanManageWorkbook, requireWorkbook, type WorkbookRow } from '../workbooks';
import { requireEmbedTenant } from './tenants';

interface AccessRow {
  scope: 'tenant' | 'allEmbedUsers';
  embed_tenant_name: string;
  action: EmbedAccessAction;
  updated_by_user_id: number | null;
  updated_at: string;
}

type Subject = { table: 'workbook_embed_access'; column: 'workbook_id' } | { table: 'folder_embed_access'; column: 'folder_id' };
const WORKBOOK: Subject = { table: 'workbook_embed_access', column: 'workbook_id' };
const FOLDER: Subject = { table: 'folder_embed_access', column: 'folder_id' };

function entriesOf(ctx: ServiceContext, subject: Subject, id: number): EmbedAccessEntry[] {
  const rows = ctx.db
    .prepare(`SELECT * FROM ${subject.table} WHERE ${subject.column} = ? ORDER BY scope = 'tenant', embed_tenant_name`)
    .all(id) as AccessRow[];
  return rows.map((row) => ({
    scope: row.scope,
    embedTenantName: row.scope === 'tenant' ? row.embed_tenant_name : null,
    action: row.action,
    updatedAt: row.updated_at,
    updatedBy: userSummary(ctx, row.updated_by_user_id),
  }));
}

function writeEntry(ctx: ServiceContext, principal: Principal, subject: Subject, id: number, input: EmbedAccessInput): void {
  let tenant = '';
  if (input.scope === 'tenant') {
    if (!input.embedTenantName) throw invalidField('/body/embedTenantName', 'An entry with `scope: tenant` names the embed tenant.');
    tenant = requireEmbedTenant(ctx, input.embedTenantName).name;
  } else if (input.embedTenantName) {
    throw invalidField('/body/embedTenantName', 'An entry for all embed users names no tenant; leave `embedTenantName` out.');
  }
  ctx.db
    .prepare(
      `INSERT INTO ${subject.table} (${subject.column}, scope, embed_tenant_name, action, updated_by_user_id, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (${subject.column}, scope, embed_tenant_name) DO UPDATE SET
         action = excluded.action, updated_by_user_id = excluded.updated_by_user_id, updated_at = excluded.updated_at`,
    )
    .run(id, input.scope, tenant, input.action, principal.userId, ctx.clock.now().toISOString());
}

export function getWorkbookEmbedAccess(ctx: ServiceContext, principal: Principal, deploymentId: number, workbookId: number): WorkbookEmbedAccess {
  const row = requireWorkbook(ctx, principal, deploymentId, workbookId);
  return { workbookId: row.id, entries: entriesOf(ctx, WORKBOOK, row.id) };
}

/** Sets one entry of a workbook's embed access; needs manage access to the workbook. */
export function setWorkbookEmbedAccess(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  input: EmbedAccessInput,
): WorkbookEmbedAccess {
  return ctx.db.transaction(() => {
    const row = requireWorkbook(ctx, principal, deploymentId, workbookId);
    assertCanManageWorkbook(principal, row);
    writeEntry(ctx, principal, WORKBOOK, row.id, input);
    return { workbookId: row.id, entries: entriesOf(ctx, WORKBOOK, row.id) };
  })();
}

export function getFolderEmbedAccess(ctx: ServiceContext, deploymentId: number, folderId: number): FolderEmbedAccess {
  const row = requireFolder(ctx, deploymentId, folderId);
  return { folderId: row.id, entries: entriesOf(ctx, FOLDER, row.id) };
}

export function setFolderEmbedAccess(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  folderId: number,
  input: EmbedAccessInput,
): FolderEmbedAccess {
  return ctx.db.transaction(() => {
    const row = requireFolder(ctx, deploymentId, folderId);
    assertCanManageFolder(principal, row);
    writeEntry(ctx, principal, FOLDER, row.id, input);
    return { folderId: row.id, entries: entriesOf(ctx, FOLDER, row.id) };
  })();
}

export interface EffectiveEmbedAccess {
  action: EmbedAccessAction;
  /** How access was decided; null when no entry applies (no access). */
  accessSource: AccessSource | null;
  sourceFolderId: number | null;
}

function decide(ctx: ServiceContext, subject: Subject, id: number, tenant: string): EmbedAccessAction | 'tenant' | null {
  const rows = ctx.db
    .prepare(`SELECT scope, embed_tenant_name, action FROM ${subject.table} WHERE ${subject.column} = ?`)
    .all(id) as AccessRow[];
  const forTenant = rows.find((r) => r.scope === 'tenant' && r.embed_tenant_name === tenant);
  if (forTenant) return forTenant.action === 'read' ? 'tenant' : 'none';
  const forAll = rows.find((r) => r.scope === 'allEmbedUsers');
  return forAll ? forAll.action : null;
}

/**
 * What an embed tenant may do with a workbook. The most specific entry decides: the workbook's
 * entry for the tenant, then its entry for all embed users, then the nearest folder's entries
 * (tenant first) up to the top. A `none` entry stops the search: no access.
 */
export function effectiveEmbedAccess(ctx: ServiceContext, tenantName: string, workbook: Pick<WorkbookRow, 'id' | 'folder_id'>): EffectiveEmbedAccess {
  const own = decide(ctx, WORKBOOK, workbook.id, tenantName);
  if (own === 'tenant') return { action: 'read', accessSource: 'tenant', sourceFolderId: null };
  if (own === 'read') return { action: 'read', accessSource: 'allEmbedUsers', sourceFolderId: null };
  if (own === 'none') return { action: 'none', accessSource: null, sourceFolderId: null };
  for (const folder of folderChain(ctx, workbook.folder_id)) {
    const inherited = decide(ctx, FOLDER, folder.id, tenantName);
    if (inherited === 'tenant' || inherited === 'read') return { action: 'read', accessSource: 'folder', sourceFolderId: folder.id };
    if (inherited === 'none') return { action: 'none', accessSource: null, sourceFolderId: null };
  }
  return { action: 'none', accessSource: null, sourceFolderId: null };
}

/** Workbooks of a deployment an embed tenant can read, with how; 404 for an unknown tenant. */
export function listEmbedTenantWorkbooks(
  ctx: ServiceContext,
  deploymentId: number,
  tenantName: string,
  query: PageRequest & { accessSource?: AccessSource },
): PageResult<EmbedTenantWorkbook> {
  requireEmbedTenant(ctx, tenantName);
  const { limit, after } = pageWindow<number>(query);
  // Access is decided per workbook (its entries, then its folders'), so walk the workbooks by id in
  // batches and stop once the page is full, instead of deciding for every workbook of the deployment.
  const batch = ctx.db.prepare('SELECT * FROM workbooks WHERE deployment_id = ? AND id > ? ORDER BY id LIMIT ?');
  const granted: EmbedTenantWorkbook[] = [];
  let afterId = after ?? 0;
  for (;;) {
    const rows = batch.all(deploymentId, afterId, Math.max(limit, 200)) as WorkbookRow[];
    for (const row of rows) {
      const access = effectiveEmbedAccess(ctx, tenantName, row);
      if (access.action !== 'read' || access.accessSource === null) continue;
      if (query.accessSource && access.accessSource !== query.accessSource) continue;
      granted.push({
        workbookId: row.id,
        slug: row.slug,
        name: row.name,
        publicId: row.public_id,
        folderId: row.folder_id,
        folderPath: folderPath(ctx, row.folder_id),
        action: 'read',
        accessSource: access.accessSource,
        sourceFolderId: access.sourceFolderId,
      });
      if (granted.length === limit) break;
    }
    if (granted.length === limit || rows.length < Math.max(limit, 200)) break;
    afterId = rows[rows.length - 1].id;
  }
  return toPage(granted, query, (item) => item.workbookId, (item) => item);
}
