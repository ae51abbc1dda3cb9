import type {
  PromotableContent,
  PromotionChanges,
  PromotionLink,
  PromotionPreview,
  WorkbookPromotion,
  WorkbookProvenance,
} from '../../../src-shared/api/promotions';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { paginateArray, pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../http/problem';
import { publishEvent } from '../../platform/events';
import { userSummary } from '../identity';
import { canEditDeployment, canReadDeployment, canSeeWorkbook, deploymentExists } from '../workspace-items';
import { diffDashboards } from './dashboard';
import { canonicalJson, contentHash } from '../workspace-items';
import {
  findWorkbook,
  findWorkbookBySlug,
  insertWorkbook,
  promotableContent,
  requireWorkbook,
  updateWorkbookRow,
  workbookContentHash,
  type WorkbookRow,
} from './store';
import type { PromotionRow } from './promotion-summary';

export interface PromotionTargetInput {
  targetDeploymentId: number;
  targetWorkbookId?: number | null;
}

export interface ApplyPromotionInput extends PromotionTargetInput {
  sourceHash: string;
  targetHash?: string | null;
  idempotencyKey?: string;
}

/**
 * Workbook promotion needs a workspace session or an API key (spec: Authentication 7); deployment,
 * OAuth and embed tokens are refused.
 */
export function assertPromotionCredential(principal: Principal): void {
  if (principal.via !== 'workspace' && principal.via !== 'apiKey') {
    throw forbidden('Workbook promotion needs a workspace session or an API key; this credential cannot promote.', 'PROMOTION_CREDENTIAL_REFUSED');
  }
}

function assertTargetDeployment(ctx: ServiceContext, principal: Principal, deploymentId: number, level: 'read' | 'edit'): void {
  if (!deploymentExists(ctx, deploymentId)) throw notFound(`Target deployment ${deploymentId}`, 'TARGET_DEPLOYMENT_NOT_FOUND');
  const allowed = level === 'read' ? canReadDeployment(principal, deploymentId) : canEditDeployment(principal, deploymentId);
  if (!allowed) {
    throw forbidden(
      `Promotion needs access to both deployments: you lack ${level === 'read' ? 'read' : 'edit'} access to target deployment ${deploymentId}.`,
    );
  }
}

interface ResolvedTarget {
  row: WorkbookRow | null;
  /** Slug a created workbook gets. */
  slug: string;
}

/**
 * Which workbook the promotion writes: the one named, else the one this workbook was last
 * promoted to in that deployment, else the one with the same slug, else a new one.
 */
function resolveTarget(ctx: ServiceContext, principal: Principal, source: WorkbookRow, input: PromotionTargetInput): ResolvedTarget {
  const targetDeploymentId = input.targetDeploymentId;
  if (input.targetWorkbookId !== undefined && input.targetWorkbookId !== null) {
    const row = findWorkbook(ctx, targetDeploymentId, input.targetWorkbookId);
    if (!row || !canSeeWorkbook(principal, { ownerUserId: row.owner_user_id, shared: row.shared === 1 })) {
      throw notFound(`Workbook ${input.targetWorkbookId} of target deployment ${targetDeploymentId}`, 'TARGET_WORKBOOK_NOT_FOUND');
    }
    if (row.id === source.id) throw badRequest('PROMOTION_TARGET_IS_SOURCE', 'A workbook cannot be promoted onto itself.');
    return { row, slug: row.slug };
  }
  if (targetDeploymentId === source.deployment_id) {
    throw badRequest('PROMOTION_TARGET_IS_SOURCE', 'Promoting within the same deployment needs a `targetWorkbookId` other than the source.');
  }
  const linked = ctx.db
    .prepare(
      `SELECT w.* FROM workbook_promotions p JOIN workbooks w ON w.id = p.target_workbook_id
       WHERE p.source_workbook_id = ? AND p.target_deployment_id = ? ORDER BY p.id DESC LIMIT 1`,
    )
    .get(source.id, targetDeploymentId) as WorkbookRow | undefined;
  const row = linked ?? findWorkbookBySlug(ctx, targetDeploymentId, source.slug) ?? null;
  if (row && !canSeeWorkbook(principal, { ownerUserId: row.owner_user_id, shared: row.shared === 1 })) {
    throw conflict(
      'PROMOTION_TARGET_PRIVATE',
      `Target deployment ${targetDeploymentId} has a private workbook "${row.slug}" of another user; name a targetWorkbookId.`,
    );
  }
  return { row, slug: row?.slug ?? source.slug };
}

/** How `target` would change into `source` (also used by cross-instance promotion). */
export function changesBetween(source: PromotableContent, target: PromotableContent | null): PromotionChanges {
  const fieldsChanged = (['name', 'description'] as const).filter(
    (key) => target === null || canonicalJson(source[key] ?? null) !== canonicalJson(target[key] ?? null),
  );
  return {
    fieldsChanged,
    dashboardDraft: diffDashboards(source.dashboardDraft, target?.dashboardDraft ?? null),
    dashboardPublished: diffDashboards(source.dashboardPublished, target?.dashboardPublished ?? null),
    identical: target !== null && contentHash(source) === contentHash(target),
  };
}

const side = (deploymentId: number, workbookId: number | null, slug: string, name: string) => ({ deploymentId, workbookId, slug, name });

/** What promoting would change. Stores nothing. */
export function previewPromotion(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  input: PromotionTargetInput,
): PromotionPreview {
  assertPromotionCredential(principal);
  const source = requireWorkbook(ctx, principal, deploymentId, workbookId);
  assertTargetDeployment(ctx, principal, input.targetDeploymentId, 'read');
  const target = resolveTarget(ctx, principal, source, input);
  const sourceContent = promotableContent(source);
  const targetContent = target.row ? promotableContent(target.row) : null;
  return {
    operation: target.row ? 'UPDATE' : 'CREATE',
    source: side(source.deployment_id, source.id, source.slug, source.name),
    target: target.row
      ? side(target.row.deployment_id, target.row.id, target.row.slug, target.row.name)
      : side(input.targetDeploymentId, null, target.slug, source.name),
    sourceHash: contentHash(sourceContent),
    targetHash: targetContent ? contentHash(targetContent) : null,
    changes: changesBetween(sourceContent, targetContent),
    sourceContent,
    targetContent,
  };
}

function toPromotion(ctx: ServiceContext, row: PromotionRow): WorkbookPromotion {
  return {
    id: row.id,
    status: 'APPLIED',
    operation: row.operation,
    source: side(row.source_deployment_id, row.source_workbook_id, row.source_slug, row.source_name),
    target: side(row.target_deployment_id, row.target_workbook_id, row.target_slug, row.target_name),
    sourceHash: row.source_hash,
    targetHashBefore: row.target_hash_before,
    targetHashAfter: row.target_hash_after,
    changes: JSON.parse(row.changes) as PromotionChanges,
    idempotencyKey: row.idempotency_key,
    promotedBy: userSummary(ctx, row.promoted_by_user_id),
    createdAt: row.created_at,
  };
}

/**
 * Promotes a workbook, atomically, if its content still hashes to `sourceHash` (from the preview).
 * A repeat with the same idempotency key returns the first result; the same key with other inputs
 * is a 409.
 */
export function applyPromotion(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  input: ApplyPromotionInput,
): WorkbookPromotion {
  assertPromotionCredential(principal);
  const promotion = applyInTransaction(ctx, principal, deploymentId, workbookId, input);
  // The target side changed too: its screens (provenance card, history) hear it as a write of theirs.
  if (promotion.target.workbookId !== null) {
    publishEvent(ctx, {
      type: 'write',
      deploymentId: promotion.target.deploymentId,
      operationId: 'applyWorkbookPromotion',
      params: { deploymentId: String(promotion.target.deploymentId), workbookId: String(promotion.target.workbookId) },
    });
  }
  return promotion;
}

function applyInTransaction(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  input: ApplyPromotionInput,
): WorkbookPromotion {
  return ctx.db.transaction(() => {
    const source = requireWorkbook(ctx, principal, deploymentId, workbookId);
    assertTargetDeployment(ctx, principal, input.targetDeploymentId, 'edit');
    const fingerprint = contentHash({
      workbookId,
      targetDeploymentId: input.targetDeploymentId,
      targetWorkbookId: input.targetWorkbookId ?? null,
      sourceHash: input.sourceHash,
      targetHash: input.targetHash === undefined ? '(unchecked)' : input.targetHash,
    });
    if (input.idempotencyKey !== undefined) {
      const earlier = ctx.db
        .prepare('SELECT * FROM workbook_promotions WHERE source_deployment_id = ? AND idempotency_key = ?')
        .get(deploymentId, input.idempotencyKey) as PromotionRow | undefined;
      if (earlier) {
        if (earlier.request_fingerprint !== fingerprint) {
          throw conflict(
            'IDEMPOTENCY_KEY_REUSED',
            `Idempotency key "${input.idempotencyKey}" was already used for promotion ${earlier.id} with other inputs; use a new key.`,
          );
        }
        return toPromotion(ctx, earlier);
      }
    }

    const currentSourceHash = workbookContentHash(source);
    if (currentSourceHash !== input.sourceHash) {
      throw new ApiError(
        409,
        'PROMOTION_SOURCE_CHANGED',
        `Workbook "${source.name}" changed since the preview (its content hash is now ${currentSourceHash.slice(0, 12)}…, ` +
          `the preview had ${input.sourceHash.slice(0, 12)}…). Nothing was promoted: preview again to see what would change now.`,
        { previewSourceHash: input.sourceHash, currentSourceHash },
      );
    }
    const target = resolveTarget(ctx, principal, source, input);
    const targetHashBefore = target.row ? workbookContentHash(target.row) : null;
    if (input.targetHash !== undefined && input.targetHash !== targetHashBefore) {
      throw new ApiError(
        409,
        'PROMOTION_TARGET_CHANGED',
        targetHashBefore === null
          ? 'The target workbook the preview showed no longer exists. Nothing was promoted: preview again.'
          : input.targetHash === null
            ? `Target deployment ${input.targetDeploymentId} now has a workbook "${target.slug}" that the preview would have created. Nothing was promoted: preview again.`
            : 'The target workbook changed since the preview. Nothing was promoted: preview again to see what would change now.',
        { previewTargetHash: input.targetHash, currentTargetHash: targetHashBefore },
      );
    }

    const content = promotableContent(source);
    const changes = changesBetween(content, target.row ? promotableContent(target.row) : null);
    const publishedAt = content.dashboardPublished ? ctx.clock.now().toISOString() : null;
    const written = target.row
      ? updateWorkbookRow(ctx, target.row, {
          name: content.name,
          description: content.description,
          dashboardDraft: content.dashboardDraft,
          dashboardPublished: content.dashboardPublished,
          publishedAt: changes.dashboardPublished.changed ? publishedAt : target.row.published_at,
        })
      : insertWorkbook(ctx, input.targetDeploymentId, {
          slug: target.slug,
          name: content.name,
          description: content.description,
          folderId: null,
          ownerUserId: principal.userId,
          shared: source.shared === 1,
          dashboardDraft: content.dashboardDraft,
          dashboardPublished: content.dashboardPublished,
          publishedAt,
        });
    const id = Number(
      ctx.db
        .prepare(
          `INSERT INTO workbook_promotions (source_deployment_id, source_workbook_id, source_slug, source_name,
             target_deployment_id, target_workbook_id, target_slug, target_name, operation, source_hash,
             target_hash_before, target_hash_after, changes, idempotency_key, request_fingerprint, promoted_by_user_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          source.deployment_id,
          source.id,
          source.slug,
          source.name,
          written.deployment_id,
          written.id,
          written.slug,
          written.name,
          target.row ? 'UPDATE' : 'CREATE',
          currentSourceHash,
          targetHashBefore,
          workbookContentHash(written),
          JSON.stringify(changes),
          input.idempotencyKey ?? null,
          fingerprint,
          principal.userId,
          ctx.clock.now().toISOString(),
        ).lastInsertRowid,
    );
    return toPromotion(ctx, ctx.db.prepare('SELECT * FROM workbook_promotions WHERE id = ?').get(id) as PromotionRow);
  })();
}

/** Summary shown on every workbook record; null when it was never promoted nor promoted to. */
function currentHashOf(ctx: ServiceContext, workbookId: number | null): string | null {
  if (workbookId === null) return null;
  const row = ctx.db.prepare('SELECT * FROM workbooks WHERE id = ?').get(workbookId) as WorkbookRow | undefined;
  return row ? workbookContentHash(row) : null;
}

function promotionLinks(ctx: ServiceContext, source: WorkbookRow): PromotionLink[] {
  const rows = ctx.db
    .prepare('SELECT * FROM workbook_promotions WHERE source_workbook_id = ? ORDER BY id DESC')
    .all(source.id) as PromotionRow[];
  const sourceHash = workbookContentHash(source);
  const links = new Map<string, PromotionLink>();
  for (const row of rows) {
    const key = row.target_workbook_id !== null ? `w${row.target_workbook_id}` : `d${row.target_deployment_id}:${row.target_slug}`;
    const known = links.get(key);
    if (known) {
      known.promotionCount += 1;
      continue;
    }
    const targetCurrentHash = currentHashOf(ctx, row.target_workbook_id);
    links.set(key, {
      targetDeploymentId: row.target_deployment_id,
      targetWorkbookId: row.target_workbook_id,
      targetSlug: row.target_slug,
      targetName: row.target_name,
      promotionCount: 1,
      lastPromotionId: row.id,
      lastPromotedAt: row.created_at,
      lastPromotedBy: userSummary(ctx, row.promoted_by_user_id),
      promotedHash: row.target_hash_after,
      targetCurrentHash,
      targetModifiedSince: targetCurrentHash === null ? null : targetCurrentHash !== row.target_hash_after,
      sourceChangedSince: sourceHash !== row.source_hash,
    });
  }
  return [...links.values()];
}

/** Where a workbook came from, and where it went. */
export function getProvenance(ctx: ServiceContext, principal: Principal, deploymentId: number, workbookId: number): WorkbookProvenance {
  const row = requireWorkbook(ctx, principal, deploymentId, workbookId);
  const hash = workbookContentHash(row);
  const origin = ctx.db
    .prepare('SELECT * FROM workbook_promotions WHERE target_workbook_id = ? ORDER BY id DESC LIMIT 1')
    .get(row.id) as PromotionRow | undefined;
  let promotedFrom: WorkbookProvenance['promotedFrom'] = null;
  if (origin) {
    const sourceNow = currentHashOf(ctx, origin.source_workbook_id);
    promotedFrom = {
      promotionId: origin.id,
      sourceDeploymentId: origin.source_deployment_id,
      sourceWorkbookId: origin.source_workbook_id,
      sourceSlug: origin.source_slug,
      sourceName: origin.source_name,
      promotedAt: origin.created_at,
      promotedBy: userSummary(ctx, origin.promoted_by_user_id),
      sourceHash: origin.source_hash,
      modifiedSincePromotion: hash !== origin.target_hash_after,
      sourceChangedSince: sourceNow === null ? null : sourceNow !== origin.source_hash,
    };
  }
  return { deploymentId: row.deployment_id, workbookId: row.id, contentHash: hash, promotedFrom, promotedTo: promotionLinks(ctx, row) };
}

/** Promotions from and to a workbook, newest first. */
export function listPromotions(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  page: PageRequest,
): PageResult<WorkbookPromotion> {
  const row = requireWorkbook(ctx, principal, deploymentId, workbookId);
  const { limit, after } = pageWindow<number>(page);
  // Two index walks (from, to), each stopping at the page size, merged: never a sort of the whole history.
  const rows = ctx.db
    .prepare(
      `SELECT * FROM (SELECT * FROM workbook_promotions WHERE source_workbook_id = ? AND id < ? ORDER BY id DESC LIMIT ?)
       UNION
       SELECT * FROM (SELECT * FROM workbook_promotions WHERE target_workbook_id = ? AND id < ? ORDER BY id DESC LIMIT ?)
       ORDER BY id DESC LIMIT ?`,
    )
    .all(row.id, after ?? Number.MAX_SAFE_INTEGER, limit, row.id, after ?? Number.MAX_SAFE_INTEGER, limit, limit) as PromotionRow[];
  return toPage(rows, page, (r) => r.id, (r) => toPromotion(ctx, r));
}

/** Destinations of a workbook: one entry per workbook it was promoted to, most recent first. */
export function listPromotionLinks(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  page: PageRequest,
): PageResult<PromotionLink> {
  const row = requireWorkbook(ctx, principal, deploymentId, workbookId);
  return paginateArray(promotionLinks(ctx, row), page, (link) => link.lastPromotionId);
}
