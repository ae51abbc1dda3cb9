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

/** Newest first, keyset-paginated. */
export function listJobs(db: Db, filter: JobFilter = {}, page: PageRequest = {}): PageResult<Job> {
  const where: string[] = [];
  const args: unknown[] = [];
  if (filter.deploymentId !== undefined) {
    where.push('deployment_id = ?');
    args.push(filter.deploymentId);
  }
  if (filter.kinds) {
    if (filter.kinds.length === 0) return { items: [], pageInfo: { hasNextPage: false, endCursor: null } };
    where.push(`kind IN (${filter.kinds.map(() => '?').join(', ')})`);
    args.push(...filter.kinds);
  }
  if (filter.statuses) {
    if (filter.statuses.length === 0) return { items: [], pageInfo: { hasNextPage: false, endCursor: null } };
    where.push(`status IN (${filter.statuses.map(() => '?').join(', ')})`);
    args.push(...filter.statuses);
  }
  if (filter.createdBy !== undefined) {
    where.push('created_by = ?');
    args.push(filter.createdBy);
  }
  const { limit, after } = pageWindow<[string, string]>(page);
  if (after !== null) {
    if (!Array.isArray(after) || after.length !== 2 || typeof after[0] !== 'string' || typeof after[1] !== 'string') {
      throw new ApiError(400, ErrorCodes.INVALID_CURSOR, 'The `after` cursor is not one this service issued.');
    }
    where.push('(created_at < ? OR (created_at = ? AND id < ?))');
    args.push(after[0], after[0], after[1]);
  }
  const rows = db
    .prepare(`SELECT * FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`)
    .all(...args, limit) as JobRow[];
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
