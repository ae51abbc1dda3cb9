import type { DashboardConfig } from '../../../../src-shared/api/workbooks';
import { planDashboard } from './layout';
import { renderPdf } from './pdf';
import { encodePng, Raster } from './png';

export { planDashboard, type DashboardLayoutPlan, type WidgetBox } from './layout';
export { renderPdf, pdfString } from './pdf';
export { encodePng, Raster, crc32, PNG_SIGNATURE } from './png';

export type ExportFormat = 'png' | 'pdf';

/** Draws a plan on a raster: header, then each widget as a panel with an accent bar, its label and detail. */
export function renderPng(config: DashboardConfig, options: { name: string; width: number }): Buffer {
  const plan = planDashboard(config, options);
  const raster = new Raster(plan.width, plan.height, plan.background);
  raster.text(16, 16, plan.title, plan.text, 3, plan.width - 32);
  if (plan.subtitle) raster.text(16, 48, plan.subtitle, plan.muted, 2, plan.width - 32);
  if (plan.note) raster.text(16, plan.headerHeight + 16, plan.note, plan.muted, 2, plan.width - 32);
  for (const box of plan.widgets) {
    if (box.type === 'SPACER') continue;
    if (box.type === 'DIVIDER') {
      raster.fillRect(box.x, box.y + box.h / 2, box.w, 2, box.accent);
      continue;
    }
    raster.fillRect(box.x, box.y, box.w, box.h, box.fill);
    raster.strokeRect(box.x, box.y, box.w, box.h, box.accent, 1);
    raster.fillRect(box.x, box.y, box.w, 4, box.accent);
    if (box.h > 24) raster.text(box.x + 8, box.y + 12, box.label, plan.text, 2, box.w - 16);
    if (box.h > 44) raster.text(box.x + 8, box.y + 32, box.detail, plan.muted, 1, box.w - 16);
  }
  return encodePng(raster);
}

/** The export file of a published dashboard. */
export function renderDashboard(config: DashboardConfig, format: ExportFormat, options: { name: string; width: number; createdAt: Date }): Buffer {
  if (format === 'png') return renderPng(config, options);
  const plan = planDashboard(config, options);
  return renderPdf(plan, { title: plan.title, createdAt: options.createdAt });
}
