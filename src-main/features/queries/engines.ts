import { join } from 'node:path';
import { EmulatorDataPlane } from '../../connectors/duckdb/data-plane';
import type { SampleDataOptions } from '../../connectors/duckdb/sample-data';
import { DEFAULT_EMULATOR_SEED } from '../../connectors/warehouse';
import type { ServiceContext } from '../../context';

export type EmulatorKind = 'warehouse' | 'lakehouse';

/**
 * The DuckDB catalog the lakehouse's tables live in. DuckDB reserves `main`, the lakehouse's
 * default catalog, so three-part names `main.schema.table` are rewritten to this name.
 */
export const LAKEHOUSE_DUCKDB_CATALOG = 'lakehouse_main';

/** `DRYDOCK_SAMPLE_ORDERS`: how many sample orders a new data directory gets (tests use few). */
function sampleFromEnv(): SampleDataOptions {
  const orders = Number(process.env.DRYDOCK_SAMPLE_ORDERS);
  return Number.isInteger(orders) && orders > 0 ? { orders } : {};
}

/**
 * Table data of the local emulators of this data directory, one DuckDB file each, opened on first
 * query (never at start-up). Test seam: `ctx.services.sampleData` sets the sample size.
 */
export function emulatorData(ctx: ServiceContext, kind: EmulatorKind): EmulatorDataPlane {
  const key = `${kind}Data`;
  const existing = ctx.services[key];
  if (existing instanceof EmulatorDataPlane) return existing;
  const plane = new EmulatorDataPlane({
    file: join(ctx.dataDir, 'emulators', `${kind}.duckdb`),
    catalog: kind === 'warehouse' ? DEFAULT_EMULATOR_SEED.database : LAKEHOUSE_DUCKDB_CATALOG,
    sample: (ctx.services.sampleData as SampleDataOptions | undefined) ?? sampleFromEnv(),
  });
  ctx.services[key] = plane;
  ctx.onClose(() => plane.close());
  return plane;
}

/** `main.x.y` → `lakehouse_main.x.y` (also quoted forms), so lakehouse SQL runs in DuckDB unchanged otherwise. */
export function lakehouseSqlForDuckDb(sql: string): string {
  return sql.replace(/(^|[^\w."`])(`main`|"main"|main)\s*\.\s*(?=[`"\w]+\s*\.\s*[`"\w]+)/gi, `$1${LAKEHOUSE_DUCKDB_CATALOG}.`);
}
