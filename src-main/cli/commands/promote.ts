// `drydock promote WORKBOOK --to DEPLOYMENT`: previews what promoting a workbook would change in
// the target deployment; with --apply, applies it only if neither side changed since the preview.
import { promotionsRoutes, type DashboardDiff, type PromotionPreview } from '../../../src-shared/api/promotions';
import { workbooksRoutes } from '../../../src-shared/api/workbooks';
import type { ConnectionOptions } from '../api/connection';
import { listAll, resolveDeployment } from '../api/resolve';
import { CliError } from '../output';
import { withDeployment, type CommandContext } from './common';

export interface PromoteOptions extends ConnectionOptions {
  to: string;
  targetWorkbook?: number;
  apply?: boolean;
  idempotencyKey?: string;
}

/** A workbook id, or the workbook whose slug is `ref`. */
async function resolveWorkbook(ctx: CommandContext, deploymentId: number, ref: string): Promise<number> {
  if (/^\d+$/.test(ref)) return Number(ref);
  const found = await listAll((after) =>
    ctx.conn.client.call(workbooksRoutes.listWorkbooks, { params: { deploymentId }, query: { search: ref, first: 100, ...(after ? { after } : {}) } }),
  );
  const workbook = found.find((w) => w.slug === ref);
  if (!workbook) throw new CliError('WORKBOOK_NOT_FOUND', `Deployment ${deploymentId} has no workbook with id or slug "${ref}".`);
  return workbook.id;
}

function diffText(label: string, diff: DashboardDiff): string | null {
  if (!diff.changed) return null;
  if (diff.presence === 'added') return `${label}: added`;
  if (diff.presence === 'removed') return `${label}: removed`;
  const parts = [
    diff.widgetsAdded.length && `${diff.widgetsAdded.length} widgets added`,
    diff.widgetsRemoved.length && `${diff.widgetsRemoved.length} removed`,
    diff.widgetsChanged.length && `${diff.widgetsChanged.length} changed`,
    diff.widgetsMoved.length && `${diff.widgetsMoved.length} moved`,
    diff.layoutChanged && 'layout',
    diff.themeChanged && 'theme',
    diff.settingsChanged && 'settings',
    diff.appChanged && 'app',
    ...diff.fieldsChanged,
  ].filter(Boolean);
  return `${label}: ${parts.join(', ') || 'changed'}`;
}

function describePreview(preview: PromotionPreview): string[] {
  const target = preview.target.workbookId ? `workbook ${preview.target.workbookId} "${preview.target.name}"` : `a new workbook "${preview.target.name}"`;
  const lines = [`${preview.operation} ${target} in deployment ${preview.target.deploymentId} from workbook ${preview.source.workbookId} "${preview.source.name}" of deployment ${preview.source.deploymentId}`];
  if (preview.changes.identical) lines.push('  The target already has the same content.');
  if (preview.changes.fieldsChanged.length) lines.push(`  fields: ${preview.changes.fieldsChanged.join(', ')}`);
  for (const text of [diffText('draft dashboard', preview.changes.dashboardDraft), diffText('published dashboard', preview.changes.dashboardPublished)]) {
    if (text) lines.push(`  ${text}`);
  }
  return lines;
}

export default async function promote(options: PromoteOptions, workbookRef: string): Promise<number> {
  const ctx = await withDeployment(options);
  const { conn, out, deployment } = ctx;
  const workbookId = await resolveWorkbook(ctx, deployment.id, workbookRef);
  const target = await resolveDeployment(conn, options.to);
  const params = { deploymentId: deployment.id, workbookId };
  const targetFields = { targetDeploymentId: target.id, ...(options.targetWorkbook ? { targetWorkbookId: options.targetWorkbook } : {}) };
  const preview = await conn.client.call(promotionsRoutes.previewWorkbookPromotion, { params, body: targetFields });
  if (!options.apply) {
    out.result({ preview });
    for (const line of describePreview(preview)) out.line(line);
    out.line('Nothing was changed: run again with --apply to promote.');
    return 0;
  }
  const promotion = await conn.client.call(promotionsRoutes.applyWorkbookPromotion, {
    params,
    body: {
      targetDeploymentId: target.id,
      targetWorkbookId: options.targetWorkbook ?? preview.target.workbookId,
      sourceHash: preview.sourceHash,
      targetHash: preview.targetHash,
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    },
  });
  out.result({ preview, promotion });
  for (const line of describePreview(preview)) out.line(line);
  out.line(`Promoted: promotion ${promotion.id}, target workbook ${promotion.target.workbookId} (${promotion.operation}).`);
  return 0;
}
