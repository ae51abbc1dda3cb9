import type { EmbedComment } from '../../../src-shared/api/embed';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError, forbidden, notFound } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { findEmbedTenant } from '../embed';
import { embedTenantSettings, findEmbedUser, searchTenantUsers } from '../embed-tenants';
import type { WorkbookRow } from '../workbooks';
import { assertEmbedCanOpen, requireDashboard } from './dashboards';
import { embedSessionOf } from './sessions';

interface CommentRow {
  id: number;
  workbook_id: number;
  tenant_name: string;
  author_embed_user_id: number;
  body: string;
  widget_id: string | null;
  mentions: string;
  resolved_at: string | null;
  resolved_by_embed_user_id: number | null;
  created_at: string;
  updated_at: string;
}

interface CommentScope {
  tenant: string;
  userId: number;
  dashboard: WorkbookRow;
}

export const COMMENT_NOT_FOUND = 'COMMENT_NOT_FOUND';

/** Comments need a signed embed session of a tenant with comments on, that can open the dashboard. */
export function commentScope(ctx: ServiceContext, principal: Principal, publicId: string): CommentScope {
  const session = embedSessionOf(principal);
  if (!session) {
    throw forbidden('Dashboard comments need a signed embed session scoped to an embed tenant.', 'EMBED_SESSION_REQUIRED');
  }
  if (!findEmbedTenant(ctx, session.embedTenant) || !findEmbedUser(ctx, session.embedTenant, session.embedUserId)) {
    throw new ApiError(401, 'EMBED_SESSION_INVALID', 'The embed tenant or user of this session no longer exists.');
  }
  if (!embedTenantSettings(ctx, session.embedTenant).enableDashboardComments) {
    throw forbidden(`Dashboard comments are not enabled for embed tenant "${session.embedTenant}".`, 'DASHBOARD_COMMENTS_DISABLED');
  }
  const dashboard = requireDashboard(ctx, publicId);
  assertEmbedCanOpen(ctx, principal, dashboard);
  return { tenant: session.embedTenant, userId: session.embedUserId, dashboard };
}

function userRef(ctx: ServiceContext, tenant: string, id: number | null) {
  if (id === null) return null;
  const user = findEmbedUser(ctx, tenant, id);
  return { id, name: user?.name ?? null, email: user?.email ?? null };
}

function toComment(ctx: ServiceContext, scope: CommentScope, row: CommentRow): EmbedComment {
  return {
    id: row.id,
    dashboardPublicId: scope.dashboard.public_id,
    body: row.body,
    widgetId: row.widget_id,
    author: userRef(ctx, row.tenant_name, row.author_embed_user_id)!,
    mentions: (JSON.parse(row.mentions) as number[]).map((id) => userRef(ctx, row.tenant_name, id)!),
    resolved: row.resolved_at !== null,
    resolvedAt: row.resolved_at,
    resolvedBy: userRef(ctx, row.tenant_name, row.resolved_by_embed_user_id),
    canEdit: row.author_embed_user_id === scope.userId,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function assertMentions(ctx: ServiceContext, tenant: string, mentions: number[] | undefined): void {
  (mentions ?? []).forEach((id, index) => {
    if (!findEmbedUser(ctx, tenant, id)) {
      throw new ApiError(400, 'EMBED_USER_NOT_FOUND', `Embed user ${id} is not a user of this tenant and cannot be mentioned.`, {
        errors: [{ pointer: `/body/mentions/${index}`, detail: 'no such user in this tenant' }],
      });
    }
  });
}

/** A comment of this dashboard and tenant (another tenant's comment is not found), optionally the caller's own. */
function commentRow(ctx: ServiceContext, scope: CommentScope, commentId: number, authorOnly: boolean): CommentRow {
  const row = ctx.db
    .prepare('SELECT * FROM embed_dashboard_comments WHERE id = ? AND workbook_id = ? AND tenant_name = ?')
    .get(commentId, scope.dashboard.id, scope.tenant) as CommentRow | undefined;
  if (!row) throw notFound(`Comment ${commentId}`, COMMENT_NOT_FOUND);
  if (authorOnly && row.author_embed_user_id !== scope.userId) {
    throw forbidden('Only the author of a comment can edit, delete or resolve it.', 'COMMENT_AUTHOR_ONLY');
  }
  return row;
}

export function listComments(ctx: ServiceContext, scope: CommentScope, page: PageRequest & { includeResolved?: boolean }): PageResult<EmbedComment> {
  const { limit, after } = pageWindow<number>(page);
  const rows = ctx.db
    .prepare(
      `SELECT * FROM embed_dashboard_comments WHERE workbook_id = ? AND tenant_name = ? AND id > ? AND (? OR resolved_at IS NULL) ORDER BY id LIMIT ?`,
    )
    .all(scope.dashboard.id, scope.tenant, after ?? 0, page.includeResolved === false ? 0 : 1, limit) as CommentRow[];
  return toPage(rows, page, (r) => r.id, (r) => toComment(ctx, scope, r));
}

export function createComment(
  ctx: ServiceContext,
  scope: CommentScope,
  input: { body: string; widgetId?: string | null; mentions?: number[] },
): EmbedComment {
  assertMentions(ctx, scope.tenant, input.mentions);
  const now = ctx.clock.now().toISOString();
  const id = Number(
    ctx.db
      .prepare(
        `INSERT INTO embed_dashboard_comments (workbook_id, tenant_name, author_embed_user_id, body, widget_id, mentions, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(scope.dashboard.id, scope.tenant, scope.userId, input.body, input.widgetId ?? null, JSON.stringify(input.mentions ?? []), now, now)
      .lastInsertRowid,
  );
  return toComment(ctx, scope, commentRow(ctx, scope, id, false));
}

export function updateComment(ctx: ServiceContext, scope: CommentScope, commentId: number, input: { body?: string; mentions?: number[] }): EmbedComment {
  return ctx.db.transaction(() => {
    const row = commentRow(ctx, scope, commentId, true);
    assertMentions(ctx, scope.tenant, input.mentions);
    ctx.db
      .prepare('UPDATE embed_dashboard_comments SET body = ?, mentions = ?, updated_at = ? WHERE id = ?')
      .run(input.body ?? row.body, input.mentions ? JSON.stringify(input.mentions) : row.mentions, ctx.clock.now().toISOString(), commentId);
    return toComment(ctx, scope, commentRow(ctx, scope, commentId, false));
  })();
}

export function deleteComment(ctx: ServiceContext, scope: CommentScope, commentId: number): void {
  ctx.db.transaction(() => {
    commentRow(ctx, scope, commentId, true);
    ctx.db.prepare('DELETE FROM embed_dashboard_comments WHERE id = ?').run(commentId);
  })();
}

export function resolveComment(ctx: ServiceContext, scope: CommentScope, commentId: number, resolved: boolean): EmbedComment {
  return ctx.db.transaction(() => {
    commentRow(ctx, scope, commentId, true);
    const now = ctx.clock.now().toISOString();
    ctx.db
      .prepare('UPDATE embed_dashboard_comments SET resolved_at = ?, resolved_by_embed_user_id = ?, updated_at = ? WHERE id = ?')
      .run(resolved ? now : null, resolved ? scope.userId : null, now, commentId);
    return toComment(ctx, scope, commentRow(ctx, scope, commentId, false));
  })();
}

export function mentionableUsers(ctx: ServiceContext, scope: CommentScope, page: PageRequest & { search?: string }) {
  const { limit, after } = pageWindow<number>(page);
  const users = searchTenantUsers(ctx, scope.tenant, page.search, after ?? 0, limit);
  return toPage(users, page, (u) => u.id, (u) => ({ id: u.id, name: u.name, email: u.email }));
}
