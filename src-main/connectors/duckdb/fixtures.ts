/**
 * Fixture tables of model tests (issue 26): CSV or Parquet files loaded into a throwaway in-memory
 * DuckDB, under the names the cubes' `sql_table` use (`table`, `schema.table`,
 * `catalog.schema.table`). One database per distinct set of fixtures, loaded on the first test that
 * needs it and kept for the others; nothing is written to disk.
 */
import type { PlannedSql } from '../../../src-shared/model/query';
import { duckdbDialect } from '../../../src-shared/model/query';
import type { EngineRows } from '../../../src-shared/model/query/shape';
import type { TestData, TestExecutor } from '../../../src-shared/model/tests';
import { DuckDbEngine, quoteIdent } from './engine';

const CATALOG = 'fixtures';

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

type Fixtures = Extract<TestData, { kind: 'fixtures' }>;

/** Loads `tables` (repository paths resolved to files by `fileOf`) into a new in-memory database. */
export async function openFixtureDatabase(tables: Fixtures['tables'], fileOf: (path: string) => string): Promise<DuckDbEngine> {
  const engine = await DuckDbEngine.open(':memory:', CATALOG);
  try {
    await engine.write(async (connection) => {
      const attached = new Set([CATALOG]);
      for (const { table, file } of tables) {
        const parts = table.split('.');
        const [catalog, schema, name] = parts.length === 3 ? parts : parts.length === 2 ? [CATALOG, ...parts] : [CATALOG, 'main', parts[0]!];
        if (!attached.has(catalog!.toLowerCase())) {
          await connection.run(`ATTACH ':memory:' AS ${quoteIdent(catalog!)}`);
          attached.add(catalog!.toLowerCase());
        }
        const reader = /\.parquet$/i.test(file) ? `read_parquet(${literal(fileOf(file))})` : `read_csv(${literal(fileOf(file))}, header = true, auto_detect = true)`;
        try {
          await connection.run(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(catalog!)}.${quoteIdent(schema!)}`);
          await connection.run(`CREATE OR REPLACE TABLE ${quoteIdent(catalog!)}.${quoteIdent(schema!)}.${quoteIdent(name!)} AS SELECT * FROM ${reader}`);
        } catch (error) {
          throw new Error(`Could not load fixture ${file} as ${table}: ${(error as Error).message.split('\n')[0]}`);
        }
      }
    });
  } catch (error) {
    engine.close();
    throw error;
  }
  return engine;
}

/**
 * Runs tests whose data are fixtures; `other` runs the rest (a data source), or they error. Close it
 * when done: every database it opened is closed.
 */
export class FixtureExecutor implements TestExecutor {
  private readonly databases = new Map<string, Promise<DuckDbEngine>>();

  constructor(
    private readonly fileOf: (path: string) => string,
    private readonly other: TestExecutor | null = null,
  ) {}

  dialect(data: TestData) {
    if (data.kind === 'fixtures') return duckdbDialect;
    if (!this.other) throw new Error(`Data source "${data.name}" cannot be reached here.`);
    return this.other.dialect(data);
  }

  async run(data: TestData, sql: PlannedSql, signal?: AbortSignal): Promise<EngineRows> {
    if (data.kind !== 'fixtures') {
      if (!this.other) throw new Error(`Data source "${data.name}" cannot be reached here.`);
      return this.other.run(data, sql, signal);
    }
    const key = JSON.stringify([...data.tables].map((t) => [t.table.toLowerCase(), t.file]).sort());
    let database = this.databases.get(key);
    if (!database) {
      database = openFixtureDatabase(data.tables, this.fileOf);
      this.databases.set(key, database);
    }
    const engine = await database;
    const result = await engine.query(sql.sql, { params: sql.params, signal });
    return { columns: result.columns.map((c) => c.name), rows: result.rows };
  }

  async close(): Promise<void> {
    const all = [...this.databases.values()];
    this.databases.clear();
    for (const database of all) {
      try {
        (await database).close();
      } catch {
        // A database that failed to open has nothing to close.
      }
    }
  }
}
