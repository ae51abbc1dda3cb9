// Compute-thread side of dashboard exports: render the PNG or PDF and write the file (temporary
// file, then rename), so rasterising and compressing never hold the HTTP thread.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DashboardConfig } from '../../../src-shared/api/workbooks';
import { renderDashboard, type ExportFormat, type WidgetQueryOutcome } from './render';

export function renderExportFile(input: {
  dashboard: DashboardConfig;
  format: ExportFormat;
  name: string;
  width: number;
  /** ISO time the export was asked for (printed on it). */
  createdAt: string;
  path: string;
  /** Each CHART widget's query outcome (run on the service thread before rendering). */
  data?: Record<string, WidgetQueryOutcome>;
}): { size: number; sha256: string } {
  const bytes = renderDashboard(input.dashboard, input.format, { name: input.name, width: input.width, createdAt: new Date(input.createdAt), data: input.data });
  mkdirSync(dirname(input.path), { recursive: true, mode: 0o700 });
  writeFileSync(`${input.path}.tmp`, bytes, { mode: 0o600 });
  renameSync(`${input.path}.tmp`, input.path);
  return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}
