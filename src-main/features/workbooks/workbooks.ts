import type { DashboardConfigInput, WorkbookDashboard } from '../../../src-shared/api/workbooks';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError, conflict } from '../../http/problem';
import { normalizeDashboard, parseDashboard, widgetMissingId } from './dashboard';
import type { Expectation } from '../../http/preconditions';
import {
  assertCanManageWorkbook,
  assertWorkbookVersion,
  findWorkbookBySlug,
  freeSlug,
  insertWorkbook,
  requireWorkbook,
  slugify,
  updateWorkbookRow,
  type WorkbookRow,
} from './store';
import { canSeeWorkbook } from '../workspace-items';

export interface CreateWorkbookInput {
  name: string;
  slug?: string;
  description?: string | null;
  folderId?: number | null;
  shared?: boolean;
  dashboardDraft?: DashboardConfigInput | null;
}

export function createWorkbook(ctx: ServiceContext, principal: Principal, deploymentId: number, input: CreateWorkbookInput): WorkbookRow {
  return ctx.db.transaction(() => {
    const dashboardDraft = normalizeDashboard(input.dashboardDraft, '/body/dashboardDraft', { assignIds: false });
    return insertWorkbook(ctx, deploymentId, {
      slug: input.slug ?? freeSlug(ctx, deploymentId, slugify(input.name)),
      name: input.name,
      description: input.description ?? null,
      folderId: input.folderId ?? null,
      ownerUserId: principal.userId,
      shared: input.shared ?? true,
      dashboardDraft,
    });
  })();
}

/** Create-or-update by slug. Fields left out keep their value; updating needs manage access (owner or admin), like deleting. */
export function upsertWorkbookBySlug(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  slug: string,
  input: Omit<CreateWorkbookInput, 'slug'>,
  ifMatch?: Expectation,
): { row: WorkbookRow; created: boolean } {
  return ctx.db.transaction(() => {
    const dashboardDraft = normalizeDashboard(input.dashboardDraft, '/body/dashboardDraft', { assignIds: false });
    const existing = findWorkbookBySlug(ctx, deploymentId, slug);
    if (!existing) {
      // If-Match names a version of a workbook that was there: it is gone, so nothing is created in its place.
      assertWorkbookVersion(ctx, principal, undefined, ifMatch, `"${slug}"`);
      const row = insertWorkbook(ctx, deploymentId, {
        slug,
        name: input.name,
        description: input.description ?? null,
        folderId: input.folderId ?? null,
        ownerUserId: principal.userId,
        shared: input.shared ?? true,
        dashboardDraft,
      });
      return { row, created: true };
    }
    if (!canSeeWorkbook(principal, { ownerUserId: existing.owner_user_id, shared: existing.shared === 1 })) {
      throw conflict('WORKBOOK_SLUG_TAKEN', `Slug "${slug}" belongs to another user's private workbook.`);
    }
    // Ownership rule: changing a workbook someone else owns needs the same manage access as deleting it.
    assertCanManageWorkbook(principal, existing);
    assertWorkbookVersion(ctx, principal, existing, ifMatch);
    const row = updateWorkbookRow(ctx, existing, {
      name: input.name,
      description: input.description,
      folderId: input.folderId,
      shared: input.shared,
      dashboardDraft: input.dashboardDraft === undefined ? undefined : dashboardDraft,
    });
    return { row, created: false };
  })();
}

/** A copy owned by the caller, private unless `shared` says otherwise, with both dashboards. */
export function duplicateWorkbook(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  input: { shared?: boolean; name?: string },
): WorkbookRow {
  return ctx.db.transaction(() => {
    const source = requireWorkbook(ctx, principal, deploymentId, workbookId);
    const name = input.name ?? `${source.name} (copy)`.slice(0, 255);
    return insertWorkbook(ctx, deploymentId, {
      slug: freeSlug(ctx, deploymentId, `${source.slug.slice(0, 100)}-copy`),
      name,
      description: source.description,
      folderId: source.folder_id,
      ownerUserId: principal.userId,
      shared: input.shared ?? false,
      dashboardDraft: parseDashboard(source.dashboard_draft),
      dashboardPublished: parseDashboard(source.dashboard_published),
      publishedAt: source.published_at,
    });
  })();
}

export const dashboardOf = (row: WorkbookRow): WorkbookDashboard => ({
  dashboardDraft: parseDashboard(row.dashboard_draft),
  dashboardPublished: parseDashboard(row.dashboard_published),
});

/**
 * Saves the draft. Widgets without an id get one; no `dashboardDraft` at all leaves the workbook
 * unchanged (`dashboardPublished`, response-only, is not in the request shape: 400 UNKNOWN_FIELD).
 */
export function updateDashboardDraft(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  body: Record<string, unknown>,
  ifMatch?: Expectation,
): WorkbookDashboard {
  return ctx.db.transaction(() => {
    const row = requireWorkbook(ctx, principal, deploymentId, workbookId);
    assertCanManageWorkbook(principal, row);
    assertWorkbookVersion(ctx, principal, row, ifMatch);
    if (!('dashboardDraft' in body) || body.dashboardDraft === undefined) return dashboardOf(row);
    const draft = normalizeDashboard(body.dashboardDraft, '/body/dashboardDraft', { assignIds: true });
    return dashboardOf(updateWorkbookRow(ctx, row, { dashboardDraft: draft }));
  })();
}

/** Publishes the saved draft, or `config` when given (which then also becomes the draft). */
export function publishDashboard(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  workbookId: number,
  config: DashboardConfigInput | undefined,
  ifMatch?: Expectation,
): WorkbookDashboard {
  return ctx.db.transaction(() => {
    const row = requireWorkbook(ctx, principal, deploymentId, workbookId);
    assertCanManageWorkbook(principal, row);
    assertWorkbookVersion(ctx, principal, row, ifMatch);
    const now = ctx.clock.now().toISOString();
    if (config !== undefined) {
      const published = normalizeDashboard(config, '/body/config', { assignIds: false });
      return dashboardOf(updateWorkbookRow(ctx, row, { dashboardDraft: published, dashboardPublished: published, publishedAt: now }));
    }
    const draft = parseDashboard(row.dashboard_draft);
    if (draft === null) {
      throw conflict('NO_DRAFT_TO_PUBLISH', `Workbook ${workbookId} has no saved draft; save one with PUT …/dashboard or send \`config\`.`);
    }
    const missing = widgetMissingId(draft);
    if (missing !== null) {
      throw new ApiError(400, 'WIDGET_ID_REQUIRED', `Widget ${missing} of the draft has no id; publishing needs an id on every widget.`);
    }
    return dashboardOf(updateWorkbookRow(ctx, row, { dashboardPublished: draft, publishedAt: now }));
  })();
}
