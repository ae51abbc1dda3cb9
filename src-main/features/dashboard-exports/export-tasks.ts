// Compute-thread side of dashboard exports: render the PNG or PDF, so rasterising and compressing
// never hold the HTTP thread. The bytes go back to the job, which writes the file (temporary file,
// then rename) only if it was not cancelled meanwhile: a thread stopped by a cancel writes nothing.
import { createHash } from 'node:crypto';
import type { DashboardConfig } from '../../../src-shared/api/workbooks';
import { renderDashboard, type ExportFormat, type WidgetQueryOutcome } from './render';

export function renderExportFile(input: {
  dashboard: DashboardConfig;
  format: ExportFormat;
  name: string;
  width: number;
  /** ISO time the export was asked for (printed on it). */
  createdAt: string;
  /** Each CHART widget's query outcome (run on the service thread before rendering). */
  data?: Record<string, WidgetQueryOutcome>;
}): { bytes: Uint8Array; sha256: string } {
  const bytes = renderDashboard(input.dashboard, input.format, { name: input.name, width: input.width, createdAt: new Date(input.createdAt), data: input.data });
  // Copied to the job's thread (a rendered dashboard is a few hundred KB).
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
}
