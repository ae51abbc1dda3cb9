import type { Db } from './connection';

/** Lists whose deprecated `count` is kept by triggers (migration 012), so no request counts rows. */
export type CountedList = 'reports' | 'folders';

/**
 * Rows of a counted list in a deployment: all of them (`bucket` undefined), those at the top
 * level (0), or those in one folder (the folder id; for folders, the parent).
 */
export function countedRows(db: Db, list: CountedList, deploymentId: number, bucket?: number): number {
  const row = db
    .prepare('SELECT n FROM list_counts WHERE list = ? AND deployment_id = ? AND bucket = ?')
    .get(list, deploymentId, bucket ?? -1) as { n: number } | undefined;
  return row?.n ?? 0;
}
