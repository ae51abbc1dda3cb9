import { randomUUID } from 'node:crypto';
import {
  MAX_ACTIVE_TASKS_PER_USER,
  ScheduledTaskErrorCodes as Codes,
  type CreateScheduledTaskInput,
  type ScheduledTask,
  type UpdateScheduledTaskInput,
} from '../../../src-shared/api/scheduled-tasks';
import type { ServiceContext } from '../../context';
import { hasAccess, type Principal } from '../../http/auth';
import { decodeCursor, encodeCursor, type PageResult } from '../../http/pagination';
import { ApiError, forbidden } from '../../http/problem';
import { getTenantSettings } from '../tenant';
import { CronError, nextFiring, parseCron } from './cron';
import { canonicalTimeZone } from './zones';

export interface TaskRow {
  seq: number;
  id: string;
  deployment_id: number;
  user_id: number;
  name: string;
  prompt: string;
  cron: string | null;
  timezone: string;
  enabled: number;
  next_run_at: string | null;
  last_run_at: string | null;
  created_at: string;
  updated_at: string;
}

export const isActive = (task: Pick<TaskRow, 'cron' | 'enabled'>): boolean => task.cron !== null && task.enabled === 1;

export function toTask(row: TaskRow): ScheduledTask {
  return {
    id: row.id,
    deploymentId: row.deployment_id,
    name: row.name,
    prompt: row.prompt,
    cron: row.cron,
    timezone: row.timezone,
    enabled: row.enabled === 1,
    active: isActive(row),
    userId: row.user_id,
    nextRunAt: row.next_run_at,
    lastRunAt: row.last_run_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Whether the account has scheduled tasks on: the tenant setting `scheduledTasksEnabled` (default true). */
export function scheduledTasksEnabled(ctx: ServiceContext): boolean {
  return getTenantSettings(ctx).scheduledTasksEnabled;
}

export function assertScheduledTasksEnabled(ctx: ServiceContext): void {
  if (!scheduledTasksEnabled(ctx)) {
    throw new ApiError(403, Codes.SCHEDULED_TASKS_DISABLED, 'Scheduled tasks are not enabled for this account; an admin can turn them on in the tenant settings.');
  }
}

/** The calling user's id; a credential without a user (an embed session) cannot own tasks. */
export function callerId(principal: Principal): number {
  if (principal.userId === null) throw forbidden('Scheduled tasks belong to a user; this credential names none.');
  return principal.userId;
}

const canSeeAll = (principal: Principal) => principal.via !== 'embed' && hasAccess(principal, 'admin');

export function getTaskRow(ctx: ServiceContext, taskId: string): TaskRow | undefined {
  return ctx.db.prepare('SELECT * FROM scheduled_tasks WHERE id = ?').get(taskId) as TaskRow | undefined;
}

/** The task if it is in the deployment and the caller may see it (its creator or an admin), else 404. */
export function requireTask(ctx: ServiceContext, deploymentId: number, taskId: string, principal: Principal): TaskRow {
  const row = getTaskRow(ctx, taskId);
  if (!row || row.deployment_id !== deploymentId || (!canSeeAll(principal) && row.user_id !== principal.userId)) {
    throw new ApiError(404, Codes.SCHEDULED_TASK_NOT_FOUND, `Deployment ${deploymentId} has no scheduled task ${taskId}.`);
  }
  return row;
}

const fieldError = (code: string, pointer: string, detail: string) => new ApiError(400, code, detail, { errors: [{ pointer, detail }] });

/** Checks a cron and a zone together (both 400 on failure) and returns the zone's canonical name. */
export function checkSchedule(cron: string | null, timezone: string): string {
  const zone = canonicalTimeZone(timezone);
  if (zone === null) throw fieldError(Codes.INVALID_TIMEZONE, '/body/timezone', `"${timezone}" is not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC).`);
  if (cron === null) return zone;
  try {
    parseCron(cron);
  } catch (error) {
    if (!(error instanceof CronError)) throw error;
    throw fieldError(error.problem === 'frequency' ? Codes.CRON_TOO_FREQUENT : Codes.INVALID_CRON, '/body/cron', error.message);
  }
  return zone;
}

/** When an active task fires next after `now`; null for manual-only and paused tasks. */
export function nextRunOf(task: Pick<TaskRow, 'cron' | 'enabled' | 'timezone'>, now: Date): string | null {
  if (!isActive(task)) return null;
  return nextFiring(parseCron(task.cron!), task.timezone, now)?.toISOString() ?? null;
}

function countActive(ctx: ServiceContext, userId: number, exceptTaskId: string | null): number {
  const row = ctx.db
    .prepare('SELECT COUNT(*) AS n FROM scheduled_tasks WHERE user_id = ? AND cron IS NOT NULL AND enabled = 1 AND id IS NOT ?')
    .get(userId, exceptTaskId) as { n: number };
  return row.n;
}

function assertBelowActiveLimit(ctx: ServiceContext, userId: number, exceptTaskId: string | null, action: 'create' | 'resume'): void {
  const active = countActive(ctx, userId, exceptTaskId);
  if (active >= MAX_ACTIVE_TASKS_PER_USER) {
    throw new ApiError(
      409,
      Codes.ACTIVE_TASK_LIMIT_REACHED,
      `User ${userId} already has ${active} active scheduled tasks across deployments (the limit is ${MAX_ACTIVE_TASKS_PER_USER}); ` +
        `${action === 'create' ? 'create this one paused or manual-only' : 'keep this one paused'}, or pause or delete another first.`,
      { activeTasks: active, limit: MAX_ACTIVE_TASKS_PER_USER },
    );
  }
}

export function createTask(ctx: ServiceContext, deploymentId: number, principal: Principal, input: CreateScheduledTaskInput): ScheduledTask {
  const userId = callerId(principal);
  const cron = input.cron ?? null;
  const timezone = checkSchedule(cron, input.timezone ?? getTenantSettings(ctx).defaultTimezone ?? 'UTC');
  const enabled = input.enabled === false ? 0 : 1;
  return ctx.db.transaction(() => {
    if (isActive({ cron, enabled })) assertBelowActiveLimit(ctx, userId, null, 'create');
    const now = ctx.clock.now();
    const row = ctx.db
      .prepare(
        `INSERT INTO scheduled_tasks (id, deployment_id, user_id, name, prompt, cron, timezone, enabled, next_run_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(
        randomUUID(),
        deploymentId,
        userId,
        input.name,
        input.prompt,
        cron === null ? null : cron.trim(),
        timezone,
        enabled,
        nextRunOf({ cron, enabled, timezone }, now),
        now.toISOString(),
        now.toISOString(),
      ) as TaskRow;
    return toTask(row);
  })();
}

export function updateTask(
  ctx: ServiceContext,
  deploymentId: number,
  taskId: string,
  principal: Principal,
  input: UpdateScheduledTaskInput,
): ScheduledTask {
  return ctx.db.transaction(() => {
    const current = requireTask(ctx, deploymentId, taskId, principal);
    const cron = input.cron === undefined ? current.cron : input.cron === null ? null : input.cron.trim();
    const enabled = input.enabled === undefined ? current.enabled : input.enabled ? 1 : 0;
    const timezone = input.cron !== undefined || input.timezone !== undefined ? checkSchedule(cron, input.timezone ?? current.timezone) : current.timezone;
    // Resuming a paused task, or scheduling a manual-only one, adds an active task of its creator.
    if (isActive({ cron, enabled }) && !isActive(current)) assertBelowActiveLimit(ctx, current.user_id, current.id, 'resume');
    const now = ctx.clock.now();
    const scheduleChanged = cron !== current.cron || timezone !== current.timezone || enabled !== current.enabled;
    const nextRunAt = scheduleChanged ? nextRunOf({ cron, enabled, timezone }, now) : current.next_run_at;
    const row = ctx.db
      .prepare(
        `UPDATE scheduled_tasks SET name = ?, prompt = ?, cron = ?, timezone = ?, enabled = ?, next_run_at = ?, updated_at = ?
         WHERE id = ? RETURNING *`,
      )
      .get(input.name ?? current.name, input.prompt ?? current.prompt, cron, timezone, enabled, nextRunAt, now.toISOString(), current.id) as TaskRow;
    return toTask(row);
  })();
}

/**
 * The deployment's tasks the caller may see (admins: every user's), oldest first; without
 * `first`, all of them.
 */
export function listTasks(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  page: { first?: number; after?: string },
): PageResult<ScheduledTask> {
  let afterSeq = 0;
  if (page.after !== undefined) {
    const decoded = decodeCursor<unknown>(page.after);
    if (typeof decoded !== 'number' || !Number.isInteger(decoded)) {
      throw new ApiError(400, 'INVALID_CURSOR', 'The `after` cursor is not one this service issued.', {
        errors: [{ pointer: '/querystring/after', detail: 'malformed cursor' }],
      });
    }
    afterSeq = decoded;
  }
  const mine = !canSeeAll(principal);
  const params: unknown[] = [deploymentId, afterSeq];
  if (mine) params.push(callerId(principal));
  // LIMIT -1 is SQLite for "no limit".
  params.push(page.first === undefined ? -1 : page.first + 1);
  const rows = ctx.db
    .prepare(`SELECT * FROM scheduled_tasks WHERE deployment_id = ? AND seq > ? ${mine ? 'AND user_id = ?' : ''} ORDER BY seq LIMIT ?`)
    .all(...params) as TaskRow[];
  const hasNextPage = page.first !== undefined && rows.length > page.first;
  const kept = hasNextPage ? rows.slice(0, page.first) : rows;
  const last = kept[kept.length - 1];
  return { items: kept.map(toTask), pageInfo: { hasNextPage, endCursor: last ? encodeCursor(last.seq) : null } };
}
