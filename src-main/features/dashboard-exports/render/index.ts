import type { DashboardConfig } from '../../../../src-shared/api/workbooks';
import { drawFigurePng } from './figure-draw';
import type { WidgetQueryOutcome } from './figure';
import { planDashboard } from './layout';
import { renderPdf } from './pdf';
import { encodePng, Raster } from './png';

export { planDashboard, type DashboardLayoutPlan, type WidgetBox } from './layout';
export { figureOf, widgetQueryOf, type Figure, type WidgetQueryOutcome } from './figure';
export { figureArea } from './figure-draw';
export { renderPdf, pdfString } from './pdf';
export { encodePng, Raster, crc32, PNG_SIGNATURE } from './png';

export type ExportFormat = 'png' | 'pdf';

export interface RenderOptions {
  name: string;
  width: number;
  /** Each CHART widget's query outcome, by widget id (what its panel draws). */
  data?: Record<string, WidgetQueryOutcome>;
}

/**
 * Draws a plan on a raster: header, then each widget as a panel with an accent bar, its label and
 * detail, and the figure of its query's result.
 */
export function rasterize(config: DashboardConfig, options: RenderOptions): { raster: Raster; plan: ReturnType<typeof planDashboard> } {
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
    drawFigurePng(raster, plan, box);
  }
  return { raster, plan };
}

export function renderPng(config: DashboardConfig, options: RenderOptions): Buffer {
  return encodePng(rasterize(config, options).raster);
}

/** The export file of a published dashboard. */
export function renderDashboard(config: DashboardConfig, format: ExportFormat, options: RenderOptions & { createdAt: Date }): Buffer {
  if (format === 'png') return renderPng(config, options);
  const plan = planDashboard(config, options);
  return renderPdf(plan, { title: plan.title, createdAt: options.createdAt });
}
