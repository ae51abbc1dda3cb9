import type { Report, ReportSort, ReportsListResponse } from '../../../src-shared/api/reports';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { decodeCursor, encodeCursor, DEFAULT_PAGE_SIZE, type PageRequest } from '../../http/pagination';
import { ApiError, badRequest, forbidden } from '../../http/problem';
import { assertVersion, versionOf, type Expectation } from '../../http/preconditions';
import { countedRows } from '../../platform/db/list-counts';
import { folderPath, requireFolder } from '../folders';
import { userSummaries, userSummary } from '../identity';
import { canEditDeployment, canManageItem, contentHash } from '../workspace-items';
import { placementsOf, placementsOfReports } from './placements';
import { requireReport, type ReportRow } from './rows';

export const canManageReport = (principal: Principal, row: ReportRow): boolean => canManageItem(principal, row.owner_user_id);
/** Deployment edit access may change a report. */
export const canEditReport = (principal: Principal, row: ReportRow): boolean => canEditDeployment(principal, row.deployment_id);

export function assertCanManageReport(principal: Principal, row: ReportRow): void {
  if (!canManageReport(principal, row)) throw forbidden(`Only the owner of report ${row.id} or an admin can do this.`);
}

/** The report's version for `ETag` / `If-Match`: what a write can change (not `lastViewedAt`, which a read records). */
export const reportVersion = (row: ReportRow): string =>
  versionOf({ name: row.name, title: row.title, description: row.description, folderId: row.folder_id, query: row.query, ownerUserId: row.owner_user_id });

/** Refuses (409 FILE_CHANGED) a write based on another version of the report; call after the access checks. */
function assertReportVersion(ctx: ServiceContext, principal: Principal, row: ReportRow | undefined, ifMatch: Expectation | undefined, label: string): void {
  assertVersion(`Report ${label}`, ifMatch, { version: row ? reportVersion(row) : null, read: () => row && toReport(ctx, principal, row) });
}

/** SHA-256 of the canonical JSON of a report query; null without a query. */
export const queryChecksum = (query: unknown): string | null => (query === null || query === undefined ? null : contentHash(query));

/** What a report shows beyond its row: read per report, or once for a whole page ({@link toReports}). */
interface ReportContext {
  folderPath: string;
  owner: Report['owner'];
  placements: Report['placements'];
}

function reportOf(principal: Principal, row: ReportRow, extra: ReportContext): Report {
  return {
    id: row.id,
    deploymentId: row.deployment_id,
    publicId: row.public_id,
    name: row.name,
    title: row.title,
    description: row.description,
    folderId: row.folder_id,
    folderPath: extra.folderPath,
    query: row.query === null ? null : (JSON.parse(row.query) as Record<string, unknown>),
    currentQueryChecksum: row.current_query_checksum,
    owner: extra.owner,
    canEdit: canEditReport(principal, row),
    canManage: canManageReport(principal, row),
    placements: extra.placements,
    lastViewedAt: row.last_viewed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toReport(ctx: ServiceContext, principal: Principal, row: ReportRow): Report {
  return reportOf(principal, row, {
    folderPath: folderPath(ctx, row.folder_id),
    owner: userSummary(ctx, row.owner_user_id),
    placements: placementsOf(ctx, row),
  });
}

/**
 * A page of reports: owners and placements in one query each and each folder's path once, instead
 * of three lookups per report (they led the profile of a list request).
 */
export function toReports(ctx: ServiceContext, principal: Principal, rows: readonly ReportRow[]): Report[] {
  const owners = userSummaries(ctx, rows.map((row) => row.owner_user_id));
  const placements = placementsOfReports(ctx, rows);
  const paths = new Map<number | null, string>();
  const pathOf = (folderId: number | null) => {
    let path = paths.get(folderId);
    if (path === undefined) paths.set(folderId, (path = folderPath(ctx, folderId)));
    return path;
  };
  return rows.map((row) =>
    reportOf(principal, row, {
      folderPath: pathOf(row.folder_id),
      owner: row.owner_user_id === null ? null : (owners.get(row.owner_user_id) ?? null),
      placements: placements.get(row.id)!,
    }),
  );
}

/** The report, with the view recorded in `lastViewedAt`. */
export function viewReport(ctx: ServiceContext, deploymentId: number, reportId: number): ReportRow {
  const row = requireReport(ctx, deploymentId, reportId);
  ctx.db.prepare('UPDATE reports SET last_viewed_at = ? WHERE id = ?').run(ctx.clock.now().toISOString(), row.id);
  return requireReport(ctx, deploymentId, reportId);
}

interface SortSpec {
  column: 'name' | 'created_at' | 'updated_at';
  /**
   * Keyset condition after the cursor (value, value, id): a range on the sort index
   * (`k >= v AND (k > v OR id > i)`), so a later page starts where the last one ended.
   */
  after: string;
  order: string;
}

const SORTS: Record<Exclude<ReportSort, 'lastViewedAt'>, SortSpec> = {
  name: {
    column: 'name',
    after: 'name >= ? COLLATE NOCASE AND (name > ? COLLATE NOCASE OR id > ?)',
    order: 'name COLLATE NOCASE ASC, id ASC',
  },
  createdAt: { column: 'created_at', after: 'created_at <= ? AND (created_at < ? OR id < ?)', order: 'created_at DESC, id DESC' },
  updatedAt: { column: 'updated_at', after: 'updated_at <= ? AND (updated_at < ? OR id < ?)', order: 'updated_at DESC, id DESC' },
};

export interface ReportListQuery extends PageRequest {
  search?: string;
  folderId?: number;
  externalWorkbookId?: string;
  sortBy?: ReportSort;
}

/**
 * The deprecated `count`: kept by triggers for the whole deployment and per folder; only a
 * `search` or `externalWorkbookId` filter counts the matching rows.
 */
function countReports(ctx: ServiceContext, deploymentId: number, query: ReportListQuery, where: string, args: unknown[]): number {
  if (!query.search && query.externalWorkbookId === undefined) return countedRows(ctx.db, 'reports', deploymentId, query.folderId);
  return (ctx.db.prepare(`SELECT COUNT(*) AS n FROM reports WHERE ${where}`).get(...args) as { n: number }).n;
}

/** Reports in the order asked, a page at a time by keyset over the index of that order (migration 012). */
export function listReports(ctx: ServiceContext, principal: Principal, deploymentId: number, query: ReportListQuery): ReportsListResponse {
  const sortBy = query.sortBy ?? 'updatedAt';
  const filters = ['deployment_id = ?'];
  const args: unknown[] = [deploymentId];
  if (query.search) {
    const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push("(name LIKE ? ESCAPE '\\' OR title LIKE ? ESCAPE '\\')");
    args.push(like, like);
  }
  if (query.folderId !== undefined) {
    // `IS` matches NULL (folder 0 = the top level) and still walks the (deployment, folder, …) index.
    filters.push('folder_id IS ?');
    args.push(query.folderId === 0 ? null : query.folderId);
  }
  if (query.externalWorkbookId !== undefined) {
    filters.push('EXISTS (SELECT 1 FROM report_placements p WHERE p.report_id = reports.id AND p.external_workbook_id = ?)');
    args.push(query.externalWorkbookId);
  }
  const where = filters.join(' AND ');
  const count = countReports(ctx, deploymentId, query, where, args);
  // Without cursor pagination (lastViewedAt) the whole list is returned unless `first` limits it.
  const size = query.first ?? (sortBy === 'lastViewedAt' ? Number.MAX_SAFE_INTEGER - 1 : DEFAULT_PAGE_SIZE);

  let rows: ReportRow[];
  let endCursor: string | null = null;
  if (sortBy === 'lastViewedAt') {
    if (query.after !== undefined) {
      throw badRequest(
        'CURSOR_NOT_SUPPORTED_FOR_SORT',
        'Cursor pagination is not available when sorting by lastViewedAt: leave out `after` (the whole list is returned; `first` only limits it), or sort by name, createdAt or updatedAt to page.',
        { errors: [{ pointer: '/querystring/after', detail: 'not available with sortBy=lastViewedAt' }] },
      );
    }
    rows = ctx.db
      .prepare(`SELECT * FROM reports WHERE ${where} ORDER BY (last_viewed_at IS NULL), last_viewed_at DESC, id DESC LIMIT ?`)
      .all(...args, query.first === undefined ? -1 : size + 1) as ReportRow[];
  } else {
    const spec = SORTS[sortBy];
    const pageArgs = [...args];
    let pageWhere = where;
    if (query.after !== undefined) {
      const cursor = decodeCursor<{ sortBy?: string; key?: [string, number] }>(query.after);
      if (cursor.sortBy !== sortBy || !Array.isArray(cursor.key)) {
        throw new ApiError(400, 'INVALID_CURSOR', `The \`after\` cursor belongs to another sort order than sortBy=${sortBy}.`, {
          errors: [{ pointer: '/querystring/after', detail: 'cursor of another sort order' }],
        });
      }
      pageWhere += ` AND ${spec.after}`;
      pageArgs.push(cursor.key[0], cursor.key[0], cursor.key[1]);
    }
    rows = ctx.db.prepare(`SELECT * FROM reports WHERE ${pageWhere} ORDER BY ${spec.order} LIMIT ?`).all(...pageArgs, size + 1) as ReportRow[];
    const last = rows.length > size ? rows[size - 1] : undefined;
    if (last) endCursor = encodeCursor({ sortBy, key: [last[spec.column], last.id] });
  }
  const hasNextPage = rows.length > size;
  const items = toReports(ctx, principal, rows.slice(0, size));
  return { items, pageInfo: { hasNextPage, endCursor }, data: items, count };
}

export interface UpsertReportInput {
  name: string;
  title?: string | null;
  description?: string | null;
  folderId?: number | null;
  query?: object | null;
}

/** Create-or-update by public id; fields left out keep their value. */
export function upsertReportByPublicId(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  publicId: string,
  input: UpsertReportInput,
  ifMatch?: Expectation,
): { row: ReportRow; created: boolean } {
  return ctx.db.transaction(() => {
    if (input.folderId !== undefined && input.folderId !== null) requireFolder(ctx, deploymentId, input.folderId);
    const now = ctx.clock.now().toISOString();
    const existing = ctx.db.prepare('SELECT * FROM reports WHERE deployment_id = ? AND public_id = ?').get(deploymentId, publicId) as
      | ReportRow
      | undefined;
    if (!existing) {
      // If-Match names a version of a report that was there: it is gone, so nothing is created in its place.
      assertReportVersion(ctx, principal, undefined, ifMatch, publicId);
      const query = input.query ?? null;
      const id = Number(
        ctx.db
          .prepare(
            `INSERT INTO reports (deployment_id, public_id, name, title, description, folder_id, owner_user_id, query,
               current_query_checksum, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            deploymentId,
            publicId,
            input.name,
            input.title ?? null,
            input.description ?? null,
            input.folderId ?? null,
            principal.userId,
            query === null ? null : JSON.stringify(query),
            queryChecksum(query),
            now,
            now,
          ).lastInsertRowid,
      );
      return { row: requireReport(ctx, deploymentId, id), created: true };
    }
    // Ownership rule: overwriting a report someone else owns needs the same manage access as deleting it.
    assertCanManageReport(principal, existing);
    assertReportVersion(ctx, principal, existing, ifMatch, publicId);
    const query = input.query === undefined ? (existing.query === null ? null : JSON.parse(existing.query)) : input.query;
    ctx.db
      .prepare(
        `UPDATE reports SET name = ?, title = ?, description = ?, folder_id = ?, query = ?, current_query_checksum = ?, updated_at = ?
         WHERE id = ?`,
      )
      .run(
        input.name,
        input.title === undefined ? existing.title : input.title,
        input.description === undefined ? existing.description : input.description,
        input.folderId === undefined ? existing.folder_id : input.folderId,
        query === null ? null : JSON.stringify(query),
        queryChecksum(query),
        now,
        existing.id,
      );
    return { row: requireReport(ctx, deploymentId, existing.id), created: false };
  })();
}

/** Deletes a report and its placements (owner or admin). */
export function deleteReport(ctx: ServiceContext, principal: Principal, deploymentId: number, reportId: number, ifMatch?: Expectation): void {
  ctx.db.transaction(() => {
    const row = requireReport(ctx, deploymentId, reportId);
    assertCanManageReport(principal, row);
    assertReportVersion(ctx, principal, row, ifMatch, String(reportId));
    ctx.db.prepare('DELETE FROM reports WHERE id = ?').run(row.id);
  })();
}

/** Moves a report into a folder (null = top level); owner or admin. */
export function moveReport(ctx: ServiceContext, principal: Principal, deploymentId: number, reportId: number, folderId: number | null): ReportRow {
  return ctx.db.transaction(() => {
    const row = requireReport(ctx, deploymentId, reportId);
    assertCanManageReport(principal, row);
    if (folderId !== null) requireFolder(ctx, deploymentId, folderId);
    ctx.db.prepare('UPDATE reports SET folder_id = ?, updated_at = ? WHERE id = ?').run(folderId, ctx.clock.now().toISOString(), row.id);
    return requireReport(ctx, deploymentId, reportId);
  })();
}
