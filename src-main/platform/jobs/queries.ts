/** Reading jobs and their logs (keyset-paginated). */
import { ErrorCodes } from '../../../src-shared/api/errors';
import { ApiError } from '../../http/problem';
import { pageWindow, toPage, type PageRequest, type PageResult } from '../../http/pagination';
import type { Db } from '../db/connection';
import { toJob, toLogEntry, type JobLogRow, type JobRow } from './store';
import type { Job, JobFilter, JobLogEntry, JobScope } from './types';

/** The job, or null when it does not exist (or lies outside `scope`). */
export function getJob<I = unknown, R = unknown>(db: Db, id: string, scope: JobScope = {}): Job<I, R> | null {
  const row = db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
  if (!row) return null;
  if (scope.deploymentId !== undefined && row.deployment_id !== scope.deploymentId) return null;
  if (scope.kinds && !scope.kinds.includes(row.kind)) return null;
  return toJob<I, R>(row);
}

const NEWEST_FIRST = 'ORDER BY created_at DESC, id DESC';
const EMPTY: PageResult<Job> = { items: [], pageInfo: { hasNextPage: false, endCursor: null } };

/**
 * Newest first, keyset-paginated. Within a deployment, each (kind[, status]) pair the filter
 * names is one walk of an index in (created_at, id) order (migrations 004 and 012), stopped at
 * the page size; the walks are merged. So a page costs the same however many jobs there are.
 */
export function listJobs(db: Db, filter: JobFilter = {}, page: PageRequest = {}): PageResult<Job> {
  if (filter.kinds?.length === 0 || filter.statuses?.length === 0) return EMPTY;
  const { limit, after } = pageWindow<[string, string]>(page);
  if (after !== null && (!Array.isArray(after) || after.length !== 2 || typeof after[0] !== 'string' || typeof after[1] !== 'string')) {
    throw new ApiError(400, ErrorCodes.INVALID_CURSOR, 'The `after` cursor is not one this service issued.');
  }
  const common: string[] = [];
  const commonArgs: unknown[] = [];
  if (filter.createdBy !== undefined) {
    common.push('created_by = ?');
    commonArgs.push(filter.createdBy);
  }
  if (after !== null) {
    common.push('created_at <= ? AND (created_at < ? OR id < ?)');
    commonArgs.push(after[0], after[0], after[1]);
  }
  const walk = (where: string[], args: unknown[]) => ({ where: [...where, ...common], args: [...args, ...commonArgs] });
  const walks: { where: string[]; args: unknown[] }[] = [];
  if (filter.deploymentId !== undefined && filter.kinds) {
    for (const kind of filter.kinds) {
      for (const status of filter.statuses ?? [null]) {
        walks.push(walk(['deployment_id = ?', 'kind = ?', ...(status ? ['status = ?'] : [])], [filter.deploymentId, kind, ...(status ? [status] : [])]));
      }
    }
  } else {
    const where: string[] = [];
    const args: unknown[] = [];
    if (filter.deploymentId !== undefined) {
      where.push('deployment_id = ?');
      args.push(filter.deploymentId);
    }
    if (filter.kinds) {
      where.push(`kind IN (${filter.kinds.map(() => '?').join(', ')})`);
      args.push(...filter.kinds);
    }
    if (filter.statuses) {
      where.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
      args.push(...filter.statuses);
    }
    walks.push(walk(where, args));
  }
  const select = (w: { where: string[] }) => `SELECT * FROM jobs ${w.where.length ? `WHERE ${w.where.join(' AND ')}` : ''} ${NEWEST_FIRST} LIMIT ?`;
  const sql = walks.length === 1 ? select(walks[0]) : `${walks.map((w) => `SELECT * FROM (${select(w)})`).join(' UNION ALL ')} ${NEWEST_FIRST} LIMIT ?`;
  const args = walks.flatMap((w) => [...w.args, limit]);
  if (walks.length > 1) args.push(limit);
  const rows = db.prepare(sql).all(...args) as JobRow[];
  return toPage(rows, page, (row) => [row.created_at, row.id], (row) => toJob(row));
}

/** The job's log, oldest first. */
export function jobLogs(db: Db, id: string, page: PageRequest = {}): PageResult<JobLogEntry> {
  const { limit, after } = pageWindow<number>(page);
  const rows = db
    .prepare('SELECT * FROM job_logs WHERE job_id = ? AND id > ? ORDER BY id LIMIT ?')
    .all(id, typeof after === 'number' ? after : 0, limit) as JobLogRow[];
  return toPage(rows, page, (row) => row.id, toLogEntry);
}
