import type { ServiceContext } from '../../context';
import { notFound } from '../../http/problem';

/** A report as stored; the lookups the report logic and its placements share. */
export interface ReportRow {
  id: number;
  deployment_id: number;
  public_id: string;
  name: string;
  title: string | null;
  description: string | null;
  folder_id: number | null;
  owner_user_id: number | null;
  query: string | null;
  current_query_checksum: string | null;
  last_viewed_at: string | null;
  created_at: string;
  updated_at: string;
}

export const REPORT_NOT_FOUND = 'REPORT_NOT_FOUND';

export function findReport(ctx: ServiceContext, deploymentId: number, reportId: number): ReportRow | undefined {
  return ctx.db.prepare('SELECT * FROM reports WHERE id = ? AND deployment_id = ?').get(reportId, deploymentId) as ReportRow | undefined;
}

export function requireReport(ctx: ServiceContext, deploymentId: number, reportId: number): ReportRow {
  const row = findReport(ctx, deploymentId, reportId);
  if (!row) throw notFound(`Report ${reportId} of deployment ${deploymentId}`, REPORT_NOT_FOUND);
  return row;
}

/** Owner or admin may delete or move a report. */
