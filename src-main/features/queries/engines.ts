import { join } from 'node:path';
import { EmulatorDataPlane } from '../../connectors/duckdb/data-plane';
import type { SampleDataOptions } from '../../connectors/duckdb/sample-data';
import { LAKEHOUSE_DUCKDB_CATALOG, lakehouseSqlForDuckDb } from '../../connectors/lakehouse';
import { DEFAULT_EMULATOR_SEED } from '../../connectors/warehouse';
import type { ServiceContext } from '../../context';

export type EmulatorKind = 'warehouse' | 'lakehouse';

export { LAKEHOUSE_DUCKDB_CATALOG, lakehouseSqlForDuckDb };

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
