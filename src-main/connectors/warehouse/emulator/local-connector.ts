/**
 * The WarehouseConnector of the local warehouse: each connector is one session (role, warehouse,
 * current database and schema) on a shared WarehouseEmulator. Reads go through SQL, like the
 * Snowflake connector's, so privileges and parsing behave the same.
 */
import { yieldToEventLoop } from '../../../platform/jobs/types';
import type { DuckDbEngine } from '../../duckdb/engine';
import { SqlWarehouseConnector } from '../statements';
import { WarehouseError, WarehouseErrorCodes, type WarehouseConnector } from '../types';
import type { EmulatorSession, SessionContext, WarehouseEmulator } from './emulator';
import { runWarehouseSelect } from './select';

export interface LocalWarehouseConnectorOptions {
  /** Defaults to the emulator's seeded role. */
  role?: string;
  /** Defaults to the seeded warehouse; null for none. */
  warehouse?: string | null;
  database?: string | null;
  schema?: string | null;
  /** The emulator's table data (DuckDB), for `query`; without it the connector holds schemas only. */
  data?: () => Promise<DuckDbEngine>;
}

export class LocalWarehouseConnector extends SqlWarehouseConnector implements WarehouseConnector {
  private session: EmulatorSession | null = null;
  private closed = false;

  constructor(
    private readonly emulator: WarehouseEmulator,
    private readonly options: LocalWarehouseConnectorOptions = {},
  ) {
    super();
  }

  /** The session opens on first use, as a Snowflake connection logs in on first use. */
  private currentSession(): EmulatorSession {
    if (this.closed) throw new WarehouseError(WarehouseErrorCodes.CONNECTION_CLOSED, 'The warehouse connection is closed.');
    if (!this.session) {
      const context: Partial<SessionContext> = {};
      if (this.options.role !== undefined) context.role = this.options.role;
      if (this.options.warehouse !== undefined) context.warehouse = this.options.warehouse;
      if (this.options.database !== undefined) context.database = this.options.database;
      if (this.options.schema !== undefined) context.schema = this.options.schema;
      this.session = this.emulator.openSession(context);
    }
    return this.session;
  }

  /** Lets the event loop run first, as a network round trip would (a long push never holds the HTTP thread). */
  async execute(sql: string): Promise<{ rows: Record<string, unknown>[] }> {
    await yieldToEventLoop();
    return this.currentSession().execute(sql);
  }

  /**
   * Runs one SELECT on the emulator's table data with `?` binds, as the Snowflake connector's
   * `query` runs it on Snowflake: a model query's SQL, or Snowflake's own query over a semantic view
   * (`SELECT * FROM SEMANTIC_VIEW(...)`).
   */
  async query(sql: string, binds: unknown[] = [], signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    await yieldToEventLoop();
    const session = this.currentSession();
    if (!this.options.data) throw new WarehouseError(WarehouseErrorCodes.UNSUPPORTED, 'This local warehouse connection has no table data to query.');
    return runWarehouseSelect(this.emulator, { ...session.context }, await this.options.data(), sql, { binds, signal });
  }

  /** Ends this session; the emulator (shared, owned by whoever opened it) stays open. */
  async close(): Promise<void> {
    this.closed = true;
    this.session = null;
  }
}
