// `drydock promote WORKBOOK --to DEPLOYMENT`: previews what promoting a workbook would change in
// the target deployment; with --apply, applies it only if neither side changed since the preview.
// With --to-profile the target is a deployment of a remote profile: the service sends the workbook
// (a transfer job, undone on the remote if it fails halfway).
import { promotionsRoutes, type DashboardDiff, type PromotionChanges } from '../../../src-shared/api/promotions';
import { remoteTransfersRoutes, type RemoteTransfer } from '../../../src-shared/api/remote-transfers';
import { workbooksRoutes } from '../../../src-shared/api/workbooks';
import { connectTo, type ConnectionOptions } from '../api/connection';
import { getJobResult } from '../api/jobs';
import { listAll, resolveDeployment } from '../api/resolve';
import { CliError } from '../output';
import { followJob, withDeployment, type CommandContext } from './common';

export interface PromoteOptions extends ConnectionOptions {
  to: string;
  toProfile?: string;
  targetWorkbook?: number;
  apply?: boolean;
  wait: boolean;
  idempotencyKey?: string;
}

interface Side {
  deploymentId: number;
  workbookId: number | null;
  name: string;
}

/** What both kinds of preview (same service, remote profile) have in common. */
interface PreviewLike {
  operation: 'CREATE' | 'UPDATE';
  source: Side;
  target: Side;
  changes: PromotionChanges;
  warnings?: string[];
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

function describePreview(preview: PreviewLike, where = ''): string[] {
  const target = preview.target.workbookId ? `workbook ${preview.target.workbookId} "${preview.target.name}"` : `a new workbook "${preview.target.name}"`;
  const lines = [`${preview.operation} ${target} in deployment ${preview.target.deploymentId}${where} from workbook ${preview.source.workbookId} "${preview.source.name}" of deployment ${preview.source.deploymentId}`];
  if (preview.changes.identical) lines.push('  The target already has the same content.');
  if (preview.changes.fieldsChanged.length) lines.push(`  fields: ${preview.changes.fieldsChanged.join(', ')}`);
  for (const text of [diffText('draft dashboard', preview.changes.dashboardDraft), diffText('published dashboard', preview.changes.dashboardPublished)]) {
    if (text) lines.push(`  ${text}`);
  }
  for (const warning of preview.warnings ?? []) lines.push(`  warning: ${warning}`);
  return lines;
}

/** The remote deployment `ref` names: an id as is; a name looked up on the remote with the saved profile. */
async function remoteDeploymentId(options: PromoteOptions, profileName: string): Promise<number> {
  if (/^\d+$/.test(options.to)) return Number(options.to);
  const { loadProfile } = await import('../api/profiles');
  const profile = await loadProfile(options.dataDir, options.secrets, profileName);
  return (await resolveDeployment(connectTo(profile.url, await profile.credential(), profile), options.to)).id;
}

async function promoteToProfile(ctx: CommandContext & { deployment: { id: number } }, options: PromoteOptions, workbookId: number, profileName: string): Promise<number> {
  const { conn, out } = ctx;
  const params = { deploymentId: ctx.deployment.id, workbookId };
  const target = {
    profileName,
    targetDeploymentId: await remoteDeploymentId(options, profileName),
    ...(options.targetWorkbook ? { targetWorkbookId: options.targetWorkbook } : {}),
  };
  const preview = await conn.client.call(remoteTransfersRoutes.previewRemoteWorkbookPromotion, { params, body: target });
  const where = ` of profile ${profileName} (${preview.remoteBaseUrl})`;
  if (!options.apply) {
    out.result({ preview });
    for (const line of describePreview(preview, where)) out.line(line);
    out.line('Nothing was changed: run again with --apply to promote.');
    return 0;
  }
  const transfer = await conn.client.call(remoteTransfersRoutes.startRemoteWorkbookPromotion, {
    params,
    body: {
      ...target,
      targetWorkbookId: options.targetWorkbook ?? preview.target.workbookId,
      sourceHash: preview.sourceHash,
      targetHash: preview.targetHash,
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
    },
  });
  const ref = { kind: 'transfer' as const, deploymentId: ctx.deployment.id, id: transfer.id };
  const outcome = await followJob(ctx, ref, { wait: options.wait });
  if (!outcome) return 0;
  const done = (await getJobResult(conn, ref)) as RemoteTransfer;
  out.result({ preview, transfer: done });
  for (const line of describePreview(preview, where)) out.line(line);
  out.line(`Promoted: transfer ${done.id}, target workbook ${done.target.workbookId} (${done.operation}); provenance on the remote: ${done.remoteProvenance ?? 'unknown'}.`);
  return 0;
}

export default async function promote(options: PromoteOptions, workbookRef: string): Promise<number> {
  const ctx = await withDeployment(options);
  const { conn, out, deployment } = ctx;
  const workbookId = await resolveWorkbook(ctx, deployment.id, workbookRef);
  if (options.toProfile) return promoteToProfile(ctx, options, workbookId, options.toProfile);
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
