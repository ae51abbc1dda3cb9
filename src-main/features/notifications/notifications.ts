import cron from 'node-cron';
import {
  type Notification,
  type NotificationCreateInput,
  type NotificationUpdateInput,
} from '../../../src-shared/api/notifications';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import { badRequest, forbidden, notFound } from '../../http/problem';
import { userSummary } from '../identity';
import { canManageItem, canSeeWorkbook } from '../workspace-items';
import { checkDashboardFilters, findWorkbookByPublicId, requireWorkbook, type WorkbookRow } from '../workbooks';

interface NotificationRow {
  id: number;
  deployment_id: number;
  workbook_id: number;
  name: string;
  cron: string;
  timezone: string;
  enabled: number;
  format: 'PDF' | 'PNG';
  filters: string;
  time_grains: string;
  member_switchers: string;
  ai_summary: string | null;
  recipients: string;
  owner_user_id: number | null;
  created_at: string;
  updated_at: string;
  workbook_public_id: string;
}

export const NOTIFICATION_NOT_FOUND = 'NOTIFICATION_NOT_FOUND';

const SELECT = `SELECT n.*, w.public_id AS workbook_public_id FROM notifications n JOIN workbooks w ON w.id = n.workbook_id`;

function toNotification(ctx: ServiceContext, row: NotificationRow): Notification {
  return {
    id: row.id,
    deploymentId: row.deployment_id,
    name: row.name,
    dashboardId: row.workbook_id,
    dashboardPublicId: row.workbook_public_id,
    schedule: { cron: row.cron, timezone: row.timezone },
    enabled: row.enabled === 1,
    format: row.format,
    filters: JSON.parse(row.filters),
    timeGrains: JSON.parse(row.time_grains),
    memberSwitchers: JSON.parse(row.member_switchers),
    notificationAiSummary: row.ai_summary === null ? null : JSON.parse(row.ai_summary),
    recipients: JSON.parse(row.recipients),
    owner: userSummary(ctx, row.owner_user_id),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function requireNotification(ctx: ServiceContext, deploymentId: number, id: number): NotificationRow {
  const row = ctx.db.prepare(`${SELECT} WHERE n.id = ? AND n.deployment_id = ?`).get(id, deploymentId) as NotificationRow | undefined;
  if (!row) throw notFound(`Notification ${id} of deployment ${deploymentId}`, NOTIFICATION_NOT_FOUND);
  return row;
}

/** The dashboard (workbook) a notification delivers: exactly one of `dashboardId` and `dashboardPublicId`. */
function resolveDashboard(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  ref: { dashboardId?: number; dashboardPublicId?: string },
  required: boolean,
): WorkbookRow | null {
  const hasId = ref.dashboardId !== undefined;
  const hasPublicId = ref.dashboardPublicId !== undefined;
  if (hasId && hasPublicId) {
    throw badRequest('DASHBOARD_REF_AMBIGUOUS', 'Give exactly one of `dashboardId` and `dashboardPublicId`, not both.', {
      errors: [{ pointer: '/body/dashboardPublicId', detail: 'not allowed together with dashboardId' }],
    });
  }
  if (!hasId && !hasPublicId) {
    if (!required) return null;
    throw badRequest('DASHBOARD_REF_REQUIRED', 'Give exactly one of `dashboardId` and `dashboardPublicId`.', {
      errors: [{ pointer: '/body/dashboardId', detail: 'dashboardId or dashboardPublicId is required' }],
    });
  }
  if (hasId) return requireWorkbook(ctx, principal, deploymentId, ref.dashboardId!);
  const row = findWorkbookByPublicId(ctx, ref.dashboardPublicId!);
  if (!row || row.deployment_id !== deploymentId || !canSeeWorkbook(principal, { ownerUserId: row.owner_user_id, shared: row.shared === 1 })) {
    throw notFound(`Dashboard "${ref.dashboardPublicId}" of deployment ${deploymentId}`, 'WORKBOOK_NOT_FOUND');
  }
  return row;
}

function normalizeRecipients(ctx: ServiceContext, recipients: NonNullable<NotificationCreateInput['recipients']>) {
  return recipients.map((recipient, index) => {
    const pointer = `/body/recipients/${index}`;
    if (recipient.type === 'EMAIL') {
      if (!recipient.email || (recipient.userId !== undefined && recipient.userId !== null)) {
        throw badRequest('INVALID_RECIPIENT', `Recipient ${index}: an EMAIL recipient has an \`email\` and no \`userId\`.`, {
          errors: [{ pointer: `${pointer}/email`, detail: 'required for EMAIL recipients' }],
        });
      }
      return { type: 'EMAIL' as const, email: recipient.email, userId: null };
    }
    if (recipient.userId === undefined || recipient.userId === null || recipient.email) {
      throw badRequest('INVALID_RECIPIENT', `Recipient ${index}: a USER recipient has a \`userId\` and no \`email\`.`, {
        errors: [{ pointer: `${pointer}/userId`, detail: 'required for USER recipients' }],
      });
    }
    if (!userSummary(ctx, recipient.userId)) {
      throw badRequest('RECIPIENT_USER_NOT_FOUND', `Recipient ${index}: user ${recipient.userId} does not exist.`, {
        errors: [{ pointer: `${pointer}/userId`, detail: 'no such user' }],
      });
    }
    return { type: 'USER' as const, email: null, userId: recipient.userId };
  });
}

function validateSchedule(schedule: { cron: string; timezone: string }): void {
  const fields = schedule.cron.trim().split(/\s+/);
  if (fields.length !== 5 || !cron.validate(schedule.cron.trim())) {
    throw badRequest('INVALID_CRON', `"${schedule.cron}" is not a five-field cron expression (minute hour day-of-month month day-of-week).`, {
      errors: [{ pointer: '/body/schedule/cron', detail: 'invalid cron expression' }],
    });
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: schedule.timezone });
  } catch {
    throw badRequest('INVALID_TIMEZONE', `"${schedule.timezone}" is not an IANA time zone (e.g. Europe/Berlin).`, {
      errors: [{ pointer: '/body/schedule/timezone', detail: 'unknown time zone' }],
    });
  }
}

const aiSummaryJson = (value: NotificationCreateInput['notificationAiSummary']): string | null =>
  value ? JSON.stringify({ enabled: value.enabled, instructions: value.instructions ?? null }) : null;

export function listNotifications(
  ctx: ServiceContext,
  deploymentId: number,
  query: PageRequest & { dashboardId?: number },
): PageResult<Notification> {
  const { limit, after } = pageWindow<number>(query);
  const byDashboard = query.dashboardId !== undefined ? 'AND n.workbook_id = ?' : '';
  const args: unknown[] = [deploymentId, after ?? 0, ...(query.dashboardId !== undefined ? [query.dashboardId] : [])];
  const rows = ctx.db
    .prepare(`${SELECT} WHERE n.deployment_id = ? AND n.id > ? ${byDashboard} ORDER BY n.id LIMIT ?`)
    .all(...args, limit) as NotificationRow[];
  return toPage(rows, query, (r) => r.id, (r) => toNotification(ctx, r));
}

export function getNotification(ctx: ServiceContext, deploymentId: number, id: number): Notification {
  return toNotification(ctx, requireNotification(ctx, deploymentId, id));
}

export function createNotification(ctx: ServiceContext, principal: Principal, deploymentId: number, input: NotificationCreateInput): Notification {
  return ctx.db.transaction(() => {
    const workbook = resolveDashboard(ctx, principal, deploymentId, input, true) as WorkbookRow;
    validateSchedule(input.schedule);
    const now = ctx.clock.now().toISOString();
    const id = Number(
      ctx.db
        .prepare(
          `INSERT INTO notifications (deployment_id, workbook_id, name, cron, timezone, enabled, format, filters, time_grains,
             member_switchers, ai_summary, recipients, owner_user_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          deploymentId,
          workbook.id,
          input.name,
          input.schedule.cron.trim(),
          input.schedule.timezone,
          input.enabled === false ? 0 : 1,
          input.format ?? 'PDF',
          JSON.stringify(checkDashboardFilters(input.filters ?? [])),
          JSON.stringify(input.timeGrains ?? []),
          JSON.stringify(input.memberSwitchers ?? []),
          aiSummaryJson(input.notificationAiSummary),
          JSON.stringify(normalizeRecipients(ctx, input.recipients)),
          principal.userId,
          now,
          now,
        ).lastInsertRowid,
    );
    return getNotification(ctx, deploymentId, id);
  })();
}

export function updateNotification(
  ctx: ServiceContext,
  principal: Principal,
  deploymentId: number,
  id: number,
  input: NotificationUpdateInput,
): Notification {
  return ctx.db.transaction(() => {
    const row = requireNotification(ctx, deploymentId, id);
    assertCanManageNotification(principal, row);
    const workbook = resolveDashboard(ctx, principal, deploymentId, input, false);
    if (input.schedule) validateSchedule(input.schedule);
    ctx.db
      .prepare(
        `UPDATE notifications SET workbook_id = ?, name = ?, cron = ?, timezone = ?, enabled = ?, format = ?, filters = ?,
           time_grains = ?, member_switchers = ?, ai_summary = ?, recipients = ?, updated_at = ? WHERE id = ?`,
      )
      .run(
        workbook?.id ?? row.workbook_id,
        input.name ?? row.name,
        input.schedule ? input.schedule.cron.trim() : row.cron,
        input.schedule ? input.schedule.timezone : row.timezone,
        input.enabled === undefined ? row.enabled : input.enabled ? 1 : 0,
        input.format ?? row.format,
        input.filters ? JSON.stringify(checkDashboardFilters(input.filters)) : row.filters,
        input.timeGrains ? JSON.stringify(input.timeGrains) : row.time_grains,
        input.memberSwitchers ? JSON.stringify(input.memberSwitchers) : row.member_switchers,
        input.notificationAiSummary === undefined ? row.ai_summary : aiSummaryJson(input.notificationAiSummary),
        input.recipients ? JSON.stringify(normalizeRecipients(ctx, input.recipients)) : row.recipients,
        ctx.clock.now().toISOString(),
        row.id,
      );
    return getNotification(ctx, deploymentId, id);
  })();
}

/** Ownership rule: changing or deleting a notification needs manage access — its owner or an admin. */
function assertCanManageNotification(principal: Principal, row: NotificationRow): void {
  if (!canManageItem(principal, row.owner_user_id)) {
    throw forbidden(`Only the owner of notification ${row.id} or an admin can change or delete it.`);
  }
}

export function deleteNotification(ctx: ServiceContext, principal: Principal, deploymentId: number, id: number): void {
  const row = requireNotification(ctx, deploymentId, id);
  assertCanManageNotification(principal, row);
  ctx.db.prepare('DELETE FROM notifications WHERE id = ?').run(row.id);
}
