/**
 * The data plane of the local emulators: one DuckDB database file per emulator. DuckDB is loaded
 * on first use (its native module costs start-up time Drydock does not pay until a query runs),
 * executes on its own threads, and every query gets its own connection so it can be interrupted
 * alone. The file is attached under the catalog name the emulator's SQL uses (e.g. `ANALYTICS`),
 * so three-part names resolve as they would in the warehouse.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

export type DuckDbModule = typeof import('@duckdb/node-api');

let modulePromise: Promise<DuckDbModule> | null = null;

/** The DuckDB module, imported once on first use. */
export function loadDuckDb(): Promise<DuckDbModule> {
  modulePromise ??= import('@duckdb/node-api');
  return modulePromise;
}

export interface QueryColumn {
  name: string;
  /** DuckDB type name, e.g. BIGINT, DECIMAL(18,2), VARCHAR, TIMESTAMP. */
  type: string;
}

export interface QueryRows {
  columns: QueryColumn[];
  /** JSON-ready values: integers and decimals as strings, timestamps as `YYYY-MM-DD HH:MM:SS[.ffffff]`. */
  rows: unknown[][];
}

export interface RunOptions {
  params?: unknown[];
  signal?: AbortSignal;
  /** Called with DuckDB's completion estimate (0–100) while the query runs. */
  onProgress?: (percent: number) => void;
}

/** A query DuckDB stopped because its caller cancelled it. */
export class QueryCancelledError extends Error {
  constructor() {
    super('The query was cancelled.');
    this.name = 'QueryCancelledError';
  }
}

/** A SQL error DuckDB raised, with its message as DuckDB wrote it. */
export class DuckDbQueryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DuckDbQueryError';
  }
}

type Bindable = string | number | boolean | bigint | null;

function bindable(params: unknown[] | undefined): Bindable[] | undefined {
  if (!params || params.length === 0) return undefined;
  return params.map((p) => (p === undefined ? null : typeof p === 'object' && p !== null ? JSON.stringify(p) : (p as Bindable)));
}

/** Idle read connections kept for the next query (opening one and setting its catalog costs about a millisecond). */
const IDLE_READERS = 4;

export class DuckDbEngine {
  private writeChain: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly idle: DuckDBConnection[] = [];

  private constructor(
    readonly file: string,
    readonly catalog: string,
    private readonly instance: DuckDBInstance,
    private readonly admin: DuckDBConnection,
  ) {}

  /** Opens (creating if new) the database file, attached as `catalog` and made the default. */
  static async open(file: string, catalog: string): Promise<DuckDbEngine> {
    const duckdb = await loadDuckDb();
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const instance = await duckdb.DuckDBInstance.create(':memory:');
    const admin = await instance.connect();
    const path = file === ':memory:' ? ':memory:' : file.replace(/'/g, "''");
    await admin.run(`ATTACH '${path}' AS ${quoteIdent(catalog)}`);
    await admin.run(`USE ${quoteIdent(catalog)}`);
    return new DuckDbEngine(file, catalog, instance, admin);
  }

  /** A fresh connection whose default catalog is this engine's. */
  async connect(): Promise<DuckDBConnection> {
    if (this.closed) throw new Error('The DuckDB data plane is closed.');
    const connection = await this.instance.connect();
    await connection.run(`USE ${quoteIdent(this.catalog)}`);
    return connection;
  }

  /**
   * Runs one read statement (a SELECT, DESCRIBE, …; writes go through `write`) on a connection of
   * its own while it runs: the abort signal interrupts it alone, progress is polled while it runs.
   * Connections are reused across queries; one that failed or was interrupted is closed, never reused.
   */
  async query(sql: string, options: RunOptions = {}): Promise<QueryRows> {
    const { signal, onProgress } = options;
    signal?.throwIfAborted();
    const connection = this.idle.pop() ?? (await this.connect());
    const interrupt = () => connection.interrupt();
    // A cancel that came while the connection was being opened has no listener to hear it: the
    // statement would run to its end, holding DuckDB's threads for nobody. It does not start.
    if (signal?.aborted) {
      if (!this.closed && this.idle.length < IDLE_READERS) this.idle.push(connection);
      else connection.closeSync();
      throw new QueryCancelledError();
    }
    signal?.addEventListener('abort', interrupt, { once: true });
    const timer = onProgress
      ? setInterval(() => {
          const p = connection.progress.percentage;
          if (p >= 0) onProgress(Math.min(99, Math.round(p)));
        }, 100)
      : null;
    let reusable = false;
    try {
      const reader = await connection.runAndReadAll(sql, bindable(options.params) as never);
      const columns = reader.columnNames().map((name, i) => ({ name, type: reader.columnType(i).toString() }));
      const rows = reader.getRowsJson() as unknown[][];
      reusable = !signal?.aborted;
      return { columns, rows };
    } catch (error) {
      if (signal?.aborted) throw new QueryCancelledError();
      throw new DuckDbQueryError(error instanceof Error ? error.message : String(error), { cause: error });
    } finally {
      if (timer) clearInterval(timer);
      signal?.removeEventListener('abort', interrupt);
      if (reusable && !this.closed && this.idle.length < IDLE_READERS) this.idle.push(connection);
      else connection.closeSync();
    }
  }

  /** Runs `fn` with a connection while no other write runs (DuckDB allows one writer at a time per table anyway). */
  write<T>(fn: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const run = this.writeChain.then(async () => {
      const connection = await this.connect();
      try {
        return await fn(connection);
      } finally {
        connection.closeSync();
      }
    });
    this.writeChain = run.catch(() => undefined);
    return run;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.closeSync();
    try {
      this.admin.closeSync();
    } finally {
      this.instance.closeSync();
    }
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
