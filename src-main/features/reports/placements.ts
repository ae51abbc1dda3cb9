import {
  MAX_DOCUMENT_PLACEMENTS,
  MAX_PLACED_EXPLORATIONS,
  type ConnectWorkbookInput,
  type ExternalDocumentPlacement,
  type PlacementAddress,
  type RefreshPlacementInput,
  type ReportPlacement,
  type ResultChecksum,
  type SyncStatus,
} from '../../../src-shared/api/reports';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { badRequest, conflict, notFound, unprocessable } from '../../http/problem';
import { canReadDeployment } from '../workspace-items';
import { requireReport, type ReportRow } from './rows';

interface PlacementRow {
  id: number;
  report_id: number;
  external_workbook_id: string;
  host: string | null;
  sheet_id: string | null;
  sheet_name: string;
  anchor_cell: string;
  workbook_name: string | null;
  placed_at: string;
  placed_by_user_id: number | null;
  refreshed_at: string | null;
  refreshed_by_user_id: number | null;
  result_checksum: string | null;
  query_checksum: string | null;
}

export const PLACEMENT_NOT_FOUND = 'PLACEMENT_NOT_FOUND';

/**
 * Whether a placement shows the report's current query: UP_TO_DATE when the query checksum it was
 * placed or refreshed with equals the report's current one, CHANGED when they differ, UNKNOWN when
 * either is missing (nothing honest can be said then).
 */
export function syncStatusOf(placementQueryChecksum: string | null, currentQueryChecksum: string | null): SyncStatus {
  if (!placementQueryChecksum || !currentQueryChecksum) return 'UNKNOWN';
  return placementQueryChecksum === currentQueryChecksum ? 'UP_TO_DATE' : 'CHANGED';
}

function toPlacement(row: PlacementRow, report: Pick<ReportRow, 'current_query_checksum'>): ReportPlacement {
  return {
    id: row.id,
    externalWorkbookId: row.external_workbook_id,
    host: row.host,
    sheetId: row.sheet_id,
    sheetName: row.sheet_name,
    anchorCell: row.anchor_cell,
    workbookName: row.workbook_name,
    placedAt: row.placed_at,
    placedByUserId: row.placed_by_user_id,
    refreshedAt: row.refreshed_at,
    refreshedByUserId: row.refreshed_by_user_id,
    resultChecksum: row.result_checksum === null ? null : { payload: row.result_checksum },
    queryChecksum: row.query_checksum,
    syncStatus: syncStatusOf(row.query_checksum, report.current_query_checksum),
  };
}

export function placementsOf(ctx: ServiceContext, report: ReportRow): ReportPlacement[] {
  const rows = ctx.db.prepare('SELECT * FROM report_placements WHERE report_id = ? ORDER BY id').all(report.id) as PlacementRow[];
  return rows.map((row) => toPlacement(row, report));
}

/**
 * The placements of a page of reports in one query (by report id, in id order), rather than one
 * query per report. The ids travel as one JSON parameter, so the statement is prepared once.
 */
export function placementsOfReports(ctx: ServiceContext, reports: readonly ReportRow[]): Map<number, ReportPlacement[]> {
  const byId = new Map(reports.map((report) => [report.id, report]));
  const placements = new Map<number, ReportPlacement[]>(reports.map((report) => [report.id, []]));
  if (reports.length === 0) return placements;
  const rows = ctx.db
    .prepare('SELECT * FROM report_placements WHERE report_id IN (SELECT value FROM json_each(?)) ORDER BY id')
    .all(JSON.stringify([...byId.keys()])) as PlacementRow[];
  for (const row of rows) placements.get(row.report_id)!.push(toPlacement(row, byId.get(row.report_id)!));
  return placements;
}

const getPlacement = (ctx: ServiceContext, id: number) =>
  ctx.db.prepare('SELECT * FROM report_placements WHERE id = ?').get(id) as PlacementRow;

function findByAddress(ctx: ServiceContext, reportId: number, externalWorkbookId: string, sheetName: string, anchorCell: string) {
  return ctx.db
    .prepare('SELECT * FROM report_placements WHERE report_id = ? AND external_workbook_id = ? AND sheet_name = ? AND anchor_cell = ?')
    .get(reportId, externalWorkbookId, sheetName, anchorCell) as PlacementRow | undefined;
}

/** The placement an address names: by `placementId`, or by `externalWorkbookId` + `sheetName` + `anchorCell`. */
function resolvePlacement(ctx: ServiceContext, report: ReportRow, address: PlacementAddress, where: 'body' | 'querystring'): PlacementRow {
  const triple = [address.externalWorkbookId, address.sheetName, address.anchorCell];
  const given = triple.filter((v) => v !== undefined).length;
  if (address.placementId !== undefined) {
    const row = ctx.db.prepare('SELECT * FROM report_placements WHERE id = ? AND report_id = ?').get(address.placementId, report.id) as
      | PlacementRow
      | undefined;
    if (!row) throw notFound(`Placement ${address.placementId} of report ${report.id}`, PLACEMENT_NOT_FOUND);
    if (
      given > 0 &&
      (address.externalWorkbookId !== undefined && address.externalWorkbookId !== row.external_workbook_id ||
        address.sheetName !== undefined && address.sheetName !== row.sheet_name ||
        address.anchorCell !== undefined && address.anchorCell !== row.anchor_cell)
    ) {
      throw badRequest('PLACEMENT_ADDRESS_MISMATCH', `Placement ${row.id} is not at the address given beside its id.`);
    }
    return row;
  }
  if (given < 3) {
    throw badRequest(
      'PLACEMENT_ADDRESS_REQUIRED',
      'Name the placement by `placementId`, or by all of `externalWorkbookId`, `sheetName` and `anchorCell`.',
      {
        errors: (['externalWorkbookId', 'sheetName', 'anchorCell'] as const)
          .filter((key) => address[key] === undefined)
          .map((key) => ({ pointer: `/${where}/${key}`, detail: 'required without placementId' })),
      },
    );
  }
  const row = findByAddress(ctx, report.id, address.externalWorkbookId!, address.sheetName!, address.anchorCell!);
  if (!row) {
    throw notFound(
      `Placement of report ${report.id} at ${address.externalWorkbookId} / ${address.sheetName}!${address.anchorCell}`,
      PLACEMENT_NOT_FOUND,
    );
  }
  return row;
}

const payloadOf = (checksum: ResultChecksum | null | undefined): string | null => checksum?.payload ?? null;

/**
 * Records one placement of a report (read access to the report is enough). With `placementId`
 * the placement moves to the address given. The fingerprint (result and query checksums) is
 * replaced unless `addressOnly`, which keeps what is stored.
 */
export function connectPlacement(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  reportId: number,
  input: ConnectWorkbookInput,
): ReportPlacement {
  return ctx.db.transaction(() => {
    const report = requireReport(ctx, deploymentId, reportId);
    const now = ctx.clock.now().toISOString();
    const atAddress = findByAddress(ctx, report.id, input.externalWorkbookId, input.sheetName, input.anchorCell);
    let existing: PlacementRow | undefined = atAddress;
    if (input.placementId !== undefined) {
      existing = ctx.db.prepare('SELECT * FROM report_placements WHERE id = ? AND report_id = ?').get(input.placementId, report.id) as
        | PlacementRow
        | undefined;
      if (!existing) throw notFound(`Placement ${input.placementId} of report ${report.id}`, PLACEMENT_NOT_FOUND);
      if (atAddress && atAddress.id !== existing.id) {
        throw conflict('PLACEMENT_ADDRESS_TAKEN', `Placement ${atAddress.id} of this report is already at that address.`);
      }
    }
    const fingerprint = {
      result: payloadOf(input.resultChecksum),
      query: input.queryChecksum ?? report.current_query_checksum,
    };
    if (!existing) {
      const id = Number(
        ctx.db
          .prepare(
            `INSERT INTO report_placements (report_id, external_workbook_id, host, sheet_id, sheet_name, anchor_cell, workbook_name,
               placed_at, placed_by_user_id, result_checksum, query_checksum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            report.id,
            input.externalWorkbookId,
            input.host ?? null,
            input.sheetId ?? null,
            input.sheetName,
            input.anchorCell,
            input.workbookName ?? null,
            now,
            principal.userId,
            input.addressOnly ? null : fingerprint.result,
            input.addressOnly ? null : fingerprint.query,
          ).lastInsertRowid,
      );
      return toPlacement(getPlacement(ctx, id), report);
    }
    ctx.db
      .prepare(
        `UPDATE report_placements SET external_workbook_id = ?, host = ?, sheet_id = ?, sheet_name = ?, anchor_cell = ?, workbook_name = ?,
           placed_at = ?, placed_by_user_id = ?, result_checksum = ?, query_checksum = ? WHERE id = ?`,
      )
      .run(
        input.externalWorkbookId,
        input.host === undefined ? existing.host : input.host,
        input.sheetId === undefined ? existing.sheet_id : input.sheetId,
        input.sheetName,
        input.anchorCell,
        input.workbookName === undefined ? existing.workbook_name : input.workbookName,
        input.addressOnly ? existing.placed_at : now,
        input.addressOnly ? existing.placed_by_user_id : principal.userId,
        input.addressOnly ? existing.result_checksum : fingerprint.result,
        input.addressOnly ? existing.query_checksum : fingerprint.query,
        existing.id,
      );
    return toPlacement(getPlacement(ctx, existing.id), report);
  })();
}

/** Removes one placement; 404 when the address names none. */
export function disconnectPlacement(ctx: ServiceContext, deploymentId: number, reportId: number, address: PlacementAddress): void {
  ctx.db.transaction(() => {
    const report = requireReport(ctx, deploymentId, reportId);
    const row = resolvePlacement(ctx, report, address, 'querystring');
    ctx.db.prepare('DELETE FROM report_placements WHERE id = ?').run(row.id);
  })();
}

/**
 * Records a refresh: the placement now shows the result of the report's current query (or the
 * `queryChecksum` given). The result checksum is replaced by the one sent, or cleared without one.
 */
export function refreshPlacement(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  reportId: number,
  input: RefreshPlacementInput,
): ReportPlacement {
  return ctx.db.transaction(() => {
    const report = requireReport(ctx, deploymentId, reportId);
    const row = resolvePlacement(ctx, report, input, 'body');
    ctx.db
      .prepare('UPDATE report_placements SET refreshed_at = ?, refreshed_by_user_id = ?, result_checksum = ?, query_checksum = ? WHERE id = ?')
      .run(
        ctx.clock.now().toISOString(),
        principal.userId,
        payloadOf(input.resultChecksum),
        input.queryChecksum ?? report.current_query_checksum,
        row.id,
      );
    return toPlacement(getPlacement(ctx, row.id), report);
  })();
}

interface DocumentPlacementRow extends PlacementRow {
  deployment_id: number;
  report_public_id: string;
  report_name: string;
  current_query_checksum: string | null;
  owner_name: string | null;
  owner_email: string | null;
}

/**
 * Every placement in one external document, across deployments. Entries whose deployment the
 * caller cannot read are DENIED: address, deployment and owner stay, the report does not.
 */
export function listDocumentPlacements(
  ctx: ServiceContext,
  principal: Principal,
  externalWorkbookId: string,
  page: PageRequest,
): PageResult<ExternalDocumentPlacement> {
  const totals = ctx.db
    .prepare('SELECT COUNT(*) AS placements, COUNT(DISTINCT report_id) AS explorations FROM report_placements WHERE external_workbook_id = ?')
    .get(externalWorkbookId) as { placements: number; explorations: number };
  if (totals.explorations > MAX_PLACED_EXPLORATIONS || totals.placements > MAX_DOCUMENT_PLACEMENTS) {
    throw unprocessable(
      'DOCUMENT_PLACEMENT_LIMIT_EXCEEDED',
      `This document holds ${totals.placements} placements of ${totals.explorations} explorations; the list is limited to ` +
        `${MAX_PLACED_EXPLORATIONS} placed explorations and ${MAX_DOCUMENT_PLACEMENTS} placements.`,
      { placements: totals.placements, placedExplorations: totals.explorations },
    );
  }
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db
    .prepare(
      `SELECT p.*, r.deployment_id, r.public_id AS report_public_id, r.name AS report_name, r.current_query_checksum,
              u.name AS owner_name, u.email AS owner_email
       FROM report_placements p JOIN reports r ON r.id = p.report_id LEFT JOIN users u ON u.id = r.owner_user_id
       WHERE p.external_workbook_id = ? AND p.id > ? ORDER BY p.id LIMIT ?`,
    )
    .all(externalWorkbookId, after ?? 0, limit) as DocumentPlacementRow[];
  return toPage(
    rows,
    page,
    (row) => row.id,
    (row): ExternalDocumentPlacement => {
      const granted = canReadDeployment(principal, row.deployment_id);
      return {
        placementId: row.id,
        access: granted ? 'GRANTED' : 'DENIED',
        deploymentId: row.deployment_id,
        reportId: granted ? row.report_id : null,
        reportPublicId: granted ? row.report_public_id : null,
        reportName: granted ? row.report_name : null,
        owner: row.owner_name !== null && row.owner_email !== null ? { name: row.owner_name, email: row.owner_email } : null,
        externalWorkbookId: row.external_workbook_id,
        host: row.host,
        sheetId: row.sheet_id,
        sheetName: row.sheet_name,
        anchorCell: row.anchor_cell,
        workbookName: row.workbook_name,
        placedAt: granted ? row.placed_at : null,
        refreshedAt: granted ? row.refreshed_at : null,
        syncStatus: granted ? syncStatusOf(row.query_checksum, row.current_query_checksum) : null,
      };
    },
  );
}
