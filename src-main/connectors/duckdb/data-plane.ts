/**
 * The table data of one local emulator: a DuckDB file opened on first use, with the sample
 * schema's tables filled with generated rows the first time (so the sample project gives numbers
 * out of the box). Later opens find the rows already there.
 */
import { SAMPLE_SCHEMA, SAMPLE_TABLES } from '../sample-tables';
import { DuckDbEngine } from './engine';
import { generateSampleData, type SampleDataOptions } from './sample-data';

export interface EmulatorDataPlaneOptions {
  /** The DuckDB file, e.g. `<dataDir>/emulators/warehouse.duckdb`; `:memory:` for a throwaway one. */
  file: string;
  /** Catalog name the emulator's three-part names use (`ANALYTICS` for the warehouse). */
  catalog: string;
  /** Sample data size and seed (tests and benchmarks change them). */
  sample?: SampleDataOptions | false;
}

export class EmulatorDataPlane {
  private opening: Promise<DuckDbEngine> | null = null;
  private opened: DuckDbEngine | null = null;

  constructor(readonly options: EmulatorDataPlaneOptions) {}

  /** The engine, opened (and, on first use, filled with the sample rows) once. */
  engine(): Promise<DuckDbEngine> {
    this.opening ??= this.open().catch((error) => {
      this.opening = null;
      throw error;
    });
    return this.opening;
  }

  /** Whether the engine was opened (so callers closing the service know what to close). */
  get isOpen(): boolean {
    return this.opened !== null;
  }

  private async open(): Promise<DuckDbEngine> {
    const engine = await DuckDbEngine.open(this.options.file, this.options.catalog);
    try {
      if (this.options.sample !== false && !(await hasSampleTables(engine))) {
        await engine.write((c) => generateSampleData(c, SAMPLE_SCHEMA, this.options.sample || {}));
      }
    } catch (error) {
      engine.close();
      throw error;
    }
    this.opened = engine;
    return engine;
  }

  close(): void {
    this.opened?.close();
    this.opened = null;
    this.opening = null;
  }
}

/** True when every sample table exists (a half-made file is made again: generation is one transaction). */
async function hasSampleTables(engine: DuckDbEngine): Promise<boolean> {
  const { rows } = await engine.query(
    `SELECT count(*) FROM information_schema.tables WHERE table_catalog = ? AND lower(table_schema) = ? AND lower(table_name) IN (${SAMPLE_TABLES.map(() => '?').join(', ')})`,
    { params: [engine.catalog, SAMPLE_SCHEMA, ...SAMPLE_TABLES.map((t) => t.name)] },
  );
  return Number(rows[0]?.[0]) === SAMPLE_TABLES.length;
}
