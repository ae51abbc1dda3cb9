import type { LogContainer, LogLevel, LogSource } from '../../../src-shared/api/deployments';
import type { ServiceContext } from '../../context';
import { pageWindow, toPage, type PageRequest } from '../../http/pagination';

export interface DeploymentLogEntry {
  source: LogSource;
  container: LogContainer;
  level?: LogLevel;
  /** Plain text. Never put secret values or token strings here. */
  message: string;
}

export interface DeploymentLogLine {
  id: number;
  timestamp: string;
  source: LogSource;
  container: LogContainer;
  level: LogLevel;
  message: string;
}

const MAX_MESSAGE_LENGTH = 8192;

/**
 * Appends one line to a deployment's log (`GET D/logs`). Runs inside the caller's transaction
 * when there is one, so a failed operation leaves no line behind.
 */
export function appendDeploymentLog(ctx: ServiceContext, deploymentId: number, entry: DeploymentLogEntry): void {
  const message = entry.message.length > MAX_MESSAGE_LENGTH ? `${entry.message.slice(0, MAX_MESSAGE_LENGTH)}…` : entry.message;
  ctx.db
    .prepare('INSERT INTO deployment_logs (deployment_id, source, container, level, message, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(deploymentId, entry.source, entry.container, entry.level ?? 'info', message, ctx.clock.now().toISOString());
}

interface LogRow {
  id: number;
  source: LogSource;
  container: LogContainer;
  level: LogLevel;
  message: string;
  created_at: string;
}

/** Log lines newest first, optionally filtered by source and container. */
export function listDeploymentLogs(
  ctx: ServiceContext,
  deploymentId: number,
  filter: { source?: LogSource; container?: LogContainer },
  page: PageRequest,
) {
  const { limit, after } = pageWindow<number>(page);
  const where = ['deployment_id = ?'];
  const args: (string | number)[] = [deploymentId];
  if (filter.source) {
    where.push('source = ?');
    args.push(filter.source);
  }
  if (filter.container) {
    where.push('container = ?');
    args.push(filter.container);
  }
  if (after !== null) {
    where.push('id < ?');
    args.push(Number(after));
  }
  const rows = ctx.db
    .prepare(`SELECT id, source, container, level, message, created_at FROM deployment_logs WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`)
    .all(...args, limit) as LogRow[];
  return toPage(
    rows,
    page,
    (row) => row.id,
    (row): DeploymentLogLine => ({
      id: row.id,
      timestamp: row.created_at,
      source: row.source,
      container: row.container,
      level: row.level,
      message: row.message,
    }),
  );
}
