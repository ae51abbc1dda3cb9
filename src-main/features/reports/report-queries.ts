// The query of every report of a deployment, for what reads the model from outside (change
// review, issue 26).
import type { ServiceContext } from '../../context';

export interface ReportQuery {
  reportId: number;
  name: string;
  query: unknown;
}

export function reportQueries(ctx: ServiceContext, deploymentId: number): ReportQuery[] {
  const rows = ctx.db.prepare('SELECT id, name, query FROM reports WHERE deployment_id = ? AND query IS NOT NULL ORDER BY id').all(deploymentId) as {
    id: number;
    name: string;
    query: string;
  }[];
  return rows.flatMap((row) => {
    try {
      return [{ reportId: row.id, name: row.name, query: JSON.parse(row.query) as unknown }];
    } catch {
      return [];
    }
  });
}
