import { randomBytes } from 'node:crypto';
import type { PromotableContent } from '../../../src-shared/api/promotions';
import type { DashboardConfig, Workbook, WorkbookDetail } from '../../../src-shared/api/workbooks';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { conflict, forbidden, notFound } from '../../http/problem';
import { folderPath, requireFolder } from '../folders';
import { userSummary } from '../identity';
import { canManageWorkbook, canSeeWorkbook, isAdmin } from '../workspace-items';
import { parseDashboard, serializeDashboard } from './dashboard';
import { contentHash } from '../workspace-items';
import { promotionSummary } from './promotion-summary';
import { assertVersion, type Expectation } from '../../http/preconditions';

export interface WorkbookRow {
  id: number;
  deployment_id: number;
  slug: string;
  public_id: string;
  name: string;
  description: string | null;
  folder_id: number | null;
  owner_user_id: number | null;
  shared: number;
  dashboard_draft: string | null;
  dashboard_published: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

export const WORKBOOK_NOT_FOUND = 'WORKBOOK_NOT_FOUND';

const ownerOf = (row: WorkbookRow) => ({ ownerUserId: row.owner_user_id, shared: row.shared === 1 });

export function findWorkbook(ctx: ServiceContext, deploymentId: number, workbookId: number): WorkbookRow | undefined {
  return ctx.db.prepare('SELECT * FROM workbooks WHERE id = ? AND deployment_id = ?').get(workbookId, deploymentId) as WorkbookRow | undefined;
}

export function findWorkbookBySlug(ctx: ServiceContext, deploymentId: number, slug: string): WorkbookRow | undefined {
  return ctx.db.prepare('SELECT * FROM workbooks WHERE slug = ? AND deployment_id = ?').get(slug, deploymentId) as WorkbookRow | undefined;
}

/** A workbook by the public id of its dashboard (any deployment). */
export function findWorkbookByPublicId(ctx: ServiceContext, publicId: string): WorkbookRow | undefined {
  return ctx.db.prepare('SELECT * FROM workbooks WHERE public_id = ?').get(publicId) as WorkbookRow | undefined;
}

/** The workbook if the caller can see it (private ones only to owner and admins), else 404. */
export function requireWorkbook(ctx: ServiceContext, principal: Principal, deploymentId: number, workbookId: number): WorkbookRow {
  const row = findWorkbook(ctx, deploymentId, workbookId);
  if (!row || !canSeeWorkbook(principal, ownerOf(row))) {
    throw notFound(`Workbook ${workbookId} of deployment ${deploymentId}`, WORKBOOK_NOT_FOUND);
  }
  return row;
}

/** 403 unless the caller owns the workbook or is an admin. */
export function assertCanManageWorkbook(principal: Principal, row: WorkbookRow): void {
  if (!canManageWorkbook(principal, ownerOf(row))) {
    throw forbidden(`Only the owner of workbook ${row.id} or an admin can do this.`);
  }
}

export function toWorkbook(ctx: ServiceContext, principal: Principal, row: WorkbookRow): Workbook {
  return {
    id: row.id,
    deploymentId: row.deployment_id,
    slug: row.slug,
    publicId: row.public_id,
    name: row.name,
    description: row.description,
    folderId: row.folder_id,
    folderPath: folderPath(ctx, row.folder_id),
    shared: row.shared === 1,
    user: userSummary(ctx, row.owner_user_id),
    promotion: promotionSummary(ctx, row.id),
    canManage: canManageWorkbook(principal, ownerOf(row)),
    publishedAt: row.published_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toWorkbookDetail(ctx: ServiceContext, principal: Principal, row: WorkbookRow): WorkbookDetail {
  return {
    ...toWorkbook(ctx, principal, row),
    dashboardDraft: parseDashboard(row.dashboard_draft),
    dashboardPublished: parseDashboard(row.dashboard_published),
  };
}

/** What a promotion compares and copies (see `PromotableContent`). */
export function promotableContent(row: WorkbookRow): PromotableContent {
  return {
    name: row.name,
    description: row.description,
    dashboardDraft: parseDashboard(row.dashboard_draft),
    dashboardPublished: parseDashboard(row.dashboard_published),
  };
}

/**
 * The workbook's version for `ETag` / `If-Match`: SHA-256 of the canonical JSON of everything a
 * write can change (a write that changes nothing keeps the version, so nothing is refused for it).
 */
export const workbookVersion = (row: WorkbookRow): string =>
  contentHash({ ...promotableContent(row), slug: row.slug, folderId: row.folder_id, shared: row.shared === 1, ownerUserId: row.owner_user_id, publishedAt: row.published_at });

/** Refuses (409 FILE_CHANGED) a write based on another version of the workbook; call after the access checks. */
export function assertWorkbookVersion(ctx: ServiceContext, principal: Principal, row: WorkbookRow | undefined, ifMatch: Expectation | undefined, id?: number | string): void {
  assertVersion(`Workbook ${row?.id ?? id ?? ''}`.trim(), ifMatch, { version: row ? workbookVersion(row) : null, read: () => row && toWorkbookDetail(ctx, principal, row) });
}

/** SHA-256 of the canonical JSON of the workbook's promotable content. */
export const workbookContentHash = (row: WorkbookRow): string => contentHash(promotableContent(row));

export function listWorkbooks(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  query: PageRequest & { folderId?: number; search?: string },
): PageResult<Workbook> {
  const { limit, after } = pageWindow<number>(query);
  const clauses = ['deployment_id = ?', 'id > ?'];
  const args: unknown[] = [deploymentId, after ?? 0];
  if (!isAdmin(principal)) {
    clauses.push('(shared = 1 OR owner_user_id = ?)');
    args.push(principal.userId ?? -1);
  }
  if (query.folderId !== undefined) {
    // `IS` matches NULL (folder 0 = the top level) and still walks the (deployment, folder, id) index.
    clauses.push('folder_id IS ?');
    args.push(query.folderId === 0 ? null : query.folderId);
  }
  if (query.search) {
    clauses.push("(name LIKE ? ESCAPE '\\' OR slug LIKE ? ESCAPE '\\')");
    const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    args.push(like, like);
  }
  const rows = ctx.db.prepare(`SELECT * FROM workbooks WHERE ${clauses.join(' AND ')} ORDER BY id LIMIT ?`).all(...args, limit) as WorkbookRow[];
  return toPage(rows, query, (r) => r.id, (r) => toWorkbook(ctx, principal, r));
}

/** Lowercase, dash-separated, at most 100 characters; `workbook` when nothing is left. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/g, '');
  return slug || 'workbook';
}

/** `base`, or `base-2`, `base-3`… whichever is free in the deployment. */
export function freeSlug(ctx: ServiceContext, deploymentId: number, base: string): string {
  let candidate = base;
  for (let n = 2; findWorkbookBySlug(ctx, deploymentId, candidate); n += 1) candidate = `${base}-${n}`;
  return candidate;
}

export interface NewWorkbook {
  slug: string;
  name: string;
  description: string | null;
  folderId: number | null;
  ownerUserId: number | null;
  shared: boolean;
  dashboardDraft: DashboardConfig | null;
  dashboardPublished?: DashboardConfig | null;
  publishedAt?: string | null;
}

/** Inserts a workbook (call inside a transaction); 409 `WORKBOOK_SLUG_TAKEN` if the slug is used. */
export function insertWorkbook(ctx: ServiceContext, deploymentId: number, input: NewWorkbook): WorkbookRow {
  if (input.folderId !== null) requireFolder(ctx, deploymentId, input.folderId);
  if (findWorkbookBySlug(ctx, deploymentId, input.slug)) {
    throw conflict('WORKBOOK_SLUG_TAKEN', `Deployment ${deploymentId} already has a workbook with slug "${input.slug}".`);
  }
  const now = ctx.clock.now().toISOString();
  const id = Number(
    ctx.db
      .prepare(
        `INSERT INTO workbooks (deployment_id, slug, public_id, name, description, folder_id, owner_user_id, shared,
           dashboard_draft, dashboard_published, published_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        deploymentId,
        input.slug,
        `wb_${randomBytes(12).toString('base64url')}`,
        input.name,
        input.description,
        input.folderId,
        input.ownerUserId,
        input.shared ? 1 : 0,
        serializeDashboard(input.dashboardDraft),
        serializeDashboard(input.dashboardPublished ?? null),
        input.publishedAt ?? null,
        now,
        now,
      ).lastInsertRowid,
  );
  return findWorkbook(ctx, deploymentId, id) as WorkbookRow;
}

export interface WorkbookChanges {
  name?: string;
  description?: string | null;
  folderId?: number | null;
  shared?: boolean;
  dashboardDraft?: DashboardConfig | null;
  dashboardPublished?: DashboardConfig | null;
  publishedAt?: string | null;
}

/** Applies the given fields (call inside a transaction) and bumps `updatedAt`. */
export function updateWorkbookRow(ctx: ServiceContext, row: WorkbookRow, changes: WorkbookChanges): WorkbookRow {
  if (changes.folderId !== undefined && changes.folderId !== null) requireFolder(ctx, row.deployment_id, changes.folderId);
  const next = {
    name: changes.name ?? row.name,
    description: changes.description === undefined ? row.description : changes.description,
    folder_id: changes.folderId === undefined ? row.folder_id : changes.folderId,
    shared: changes.shared === undefined ? row.shared : changes.shared ? 1 : 0,
    dashboard_draft: changes.dashboardDraft === undefined ? row.dashboard_draft : serializeDashboard(changes.dashboardDraft),
    dashboard_published: changes.dashboardPublished === undefined ? row.dashboard_published : serializeDashboard(changes.dashboardPublished),
    published_at: changes.publishedAt === undefined ? row.published_at : changes.publishedAt,
  };
  ctx.db
    .prepare(
      `UPDATE workbooks SET name = ?, description = ?, folder_id = ?, shared = ?, dashboard_draft = ?, dashboard_published = ?,
         published_at = ?, updated_at = ? WHERE id = ?`,
    )
    .run(
      next.name,
      next.description,
      next.folder_id,
      next.shared,
      next.dashboard_draft,
      next.dashboard_published,
      next.published_at,
      ctx.clock.now().toISOString(),
      row.id,
    );
  return findWorkbook(ctx, row.deployment_id, row.id) as WorkbookRow;
}

/** Deletes a workbook (owner or admin). Its notifications and embed access go with it; promotion history stays. */
export function deleteWorkbook(ctx: ServiceContext, principal: Principal, deploymentId: number, workbookId: number, ifMatch?: Expectation): void {
  ctx.db.transaction(() => {
    const row = requireWorkbook(ctx, principal, deploymentId, workbookId);
    assertCanManageWorkbook(principal, row);
    assertWorkbookVersion(ctx, principal, row, ifMatch);
    ctx.db.prepare('DELETE FROM workbooks WHERE id = ?').run(row.id);
  })();
}

/** Moves a workbook into a folder (null = top level); owner or admin. */
export function moveWorkbook(ctx: ServiceContext, principal: Principal, deploymentId: number, workbookId: number, folderId: number | null): WorkbookRow {
  return ctx.db.transaction(() => {
    const row = requireWorkbook(ctx, principal, deploymentId, workbookId);
    assertCanManageWorkbook(principal, row);
    return updateWorkbookRow(ctx, row, { folderId });
  })();
}
