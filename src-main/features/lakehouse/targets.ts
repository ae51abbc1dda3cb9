import type { ServiceContext } from '../../context';

/** A metric view Drydock wrote and confirmed by reading it back. */
export interface OwnedTarget {
  dataSource: string;
  catalog: string;
  schema: string;
  name: string;
  viewName: string;
  definitionHash: string;
  lastWrittenYaml: string;
  lastRunId: string | null;
  /** The dev branch owner whose dev publication wrote it; null for a production target. */
  devOwner: number | null;
  updatedAt: string;
}

interface TargetRow {
  data_source: string;
  catalog: string;
  schema_name: string;
  name: string;
  view_name: string;
  definition_hash: string;
  last_written_yaml: string;
  last_run_id: string | null;
  dev_owner: number | null;
  updated_at: string;
}

const toTarget = (row: TargetRow): OwnedTarget => ({
  dataSource: row.data_source,
  catalog: row.catalog,
  schema: row.schema_name,
  name: row.name,
  viewName: row.view_name,
  definitionHash: row.definition_hash,
  lastWrittenYaml: row.last_written_yaml,
  lastRunId: row.last_run_id,
  devOwner: row.dev_owner,
  updatedAt: row.updated_at,
});

/** Lakehouse names compare case-insensitively; they are kept lower-case. */
export const normalizeName = (name: string): string => name.trim().toLowerCase();

export const qualifiedTarget = (t: { catalog: string; schema: string; name: string }): string => `${t.catalog}.${t.schema}.${t.name}`;

export function findOwnedTarget(ctx: ServiceContext, deploymentId: number, catalog: string, schema: string, name: string): OwnedTarget | null {
  const row = ctx.db
    .prepare('SELECT * FROM lakehouse_targets WHERE deployment_id = ? AND catalog = ? AND schema_name = ? AND name = ?')
    .get(deploymentId, normalizeName(catalog), normalizeName(schema), normalizeName(name)) as TargetRow | undefined;
  return row ? toTarget(row) : null;
}

/**
 * Targets this deployment owns through a data source, oldest first: the production ones
 * (`devOwner` null, the default), or those the dev publications of one user wrote.
 */
export function listOwnedTargets(ctx: ServiceContext, deploymentId: number, dataSource: string, devOwner: number | null = null): OwnedTarget[] {
  const rows = ctx.db
    .prepare(
      'SELECT * FROM lakehouse_targets WHERE deployment_id = ? AND data_source = ? AND dev_owner IS ? ORDER BY created_at, catalog, schema_name, name',
    )
    .all(deploymentId, dataSource, devOwner) as TargetRow[];
  return rows.map(toTarget);
}

/** Records ownership; call only after a write was read back and matched. */
export function recordOwnedTarget(
  ctx: ServiceContext,
  deploymentId: number,
  target: {
    dataSource: string;
    catalog: string;
    schema: string;
    name: string;
    viewName: string;
    definitionHash: string;
    yaml: string;
    runId: string | null;
    devOwner?: number | null;
  },
): void {
  const now = ctx.clock.now().toISOString();
  ctx.db.transaction(() => {
    ctx.db
      .prepare(
        `INSERT INTO lakehouse_targets (deployment_id, data_source, catalog, schema_name, name, view_name, definition_hash, last_written_yaml,
           last_run_id, dev_owner, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (deployment_id, catalog, schema_name, name) DO UPDATE SET data_source = excluded.data_source, view_name = excluded.view_name,
           definition_hash = excluded.definition_hash, last_written_yaml = excluded.last_written_yaml, last_run_id = excluded.last_run_id,
           dev_owner = excluded.dev_owner, updated_at = excluded.updated_at`,
      )
      .run(
        deploymentId,
        target.dataSource,
        normalizeName(target.catalog),
        normalizeName(target.schema),
        normalizeName(target.name),
        target.viewName,
        target.definitionHash,
        target.yaml,
        target.runId,
        target.devOwner ?? null,
        now,
        now,
      );
  })();
}
