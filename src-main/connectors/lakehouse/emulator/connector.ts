import { yieldToEventLoop } from '../../../platform/jobs/types';
import type { DuckDbEngine } from '../../duckdb/engine';
import type { LakehouseConnector, LakehouseObject } from '../types';
import { LakehouseEmulator, type LakehouseEmulatorOptions } from './emulator';
import { runLakehouseSelect } from './select';

export interface LocalLakehouseConnectorOptions {
  /** Who Drydock acts as in the emulator (default: the emulator's default principal). */
  principal?: string;
  /** Close the emulator when the connector closes (set by `open`). */
  ownsEmulator?: boolean;
  /** The emulator's table data (DuckDB), for `query`; without it the connector holds definitions only. */
  data?: () => Promise<DuckDbEngine>;
}

/**
 * The lakehouse connector over the local emulator: same contract, same failure codes as Databricks.
 * Every statement first lets the event loop run, as a network round trip would: a run of many
 * statements then never holds the HTTP thread, and a cancel request is served between statements.
 */
export class LocalLakehouseConnector implements LakehouseConnector {
  readonly principal: string;
  private readonly ownsEmulator: boolean;
  private readonly data: (() => Promise<DuckDbEngine>) | undefined;
  private closed = false;

  constructor(
    readonly emulator: LakehouseEmulator,
    options: LocalLakehouseConnectorOptions = {},
  ) {
    this.principal = options.principal ?? emulator.defaultPrincipal;
    this.ownsEmulator = options.ownsEmulator ?? false;
    this.data = options.data;
  }

  /** Opens the emulator file and a connector that closes it when done. */
  static open(file: string, options: LakehouseEmulatorOptions & { principal?: string; data?: () => Promise<DuckDbEngine> } = {}): LocalLakehouseConnector {
    return new LocalLakehouseConnector(LakehouseEmulator.open(file, options), { principal: options.principal, ownsEmulator: true, data: options.data });
  }

  /**
   * Runs one SELECT on the emulator's table data with `?` parameters, as the Databricks connector's
   * `query` runs it on a SQL warehouse: a model query's SQL, or Databricks' own query over a metric
   * view (`SELECT dim, MEASURE(m) FROM catalog.schema.view GROUP BY ALL`).
   */
  async query(statement: string, params: unknown[] = [], signal?: AbortSignal): Promise<object[]> {
    await this.assertOpen();
    if (!this.data) throw new Error('This local lakehouse connection has no table data to query.');
    return runLakehouseSelect(this.emulator, this.principal, await this.data(), statement, { params, signal });
  }

  async getObject(catalog: string, schema: string, name: string): Promise<LakehouseObject | null> {
    await this.assertOpen();
    return this.emulator.describe(this.principal, catalog, schema, name);
  }

  async createOrReplaceMetricView(
    catalog: string,
    schema: string,
    name: string,
    yaml: string,
    properties: Record<string, string>,
    opts: { replaceWithAlter: boolean },
  ): Promise<void> {
    await this.assertOpen();
    if (opts.replaceWithAlter) this.emulator.alterMetricView(this.principal, catalog, schema, name, yaml, properties);
    else this.emulator.createOrReplaceMetricView(this.principal, catalog, schema, name, yaml, properties);
  }

  async dropView(catalog: string, schema: string, name: string): Promise<void> {
    await this.assertOpen();
    this.emulator.dropView(this.principal, catalog, schema, name);
  }

  async checkSourceReadable(source: string): Promise<void> {
    await this.assertOpen();
    this.emulator.checkSelect(this.principal, source);
  }

  async checkWarehouseAccess(): Promise<void> {
    await this.assertOpen();
    this.emulator.checkWarehouse(this.principal);
  }

  async checkSchemaAccess(catalog: string, schema: string): Promise<void> {
    await this.assertOpen();
    this.emulator.checkSchemaAccess(this.principal, catalog, schema);
  }

  async ensureSchema(catalog: string, schema: string): Promise<void> {
    await this.assertOpen();
    this.emulator.createSchemaIfNotExists(this.principal, catalog, schema);
  }

  async listCatalogs(): Promise<string[]> {
    await this.assertOpen();
    return this.emulator.showCatalogs(this.principal);
  }

  async listSchemas(catalog: string): Promise<string[]> {
    await this.assertOpen();
    return this.emulator.showSchemas(this.principal, catalog);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsEmulator) this.emulator.close();
  }

  private async assertOpen(): Promise<void> {
    await yieldToEventLoop();
    if (this.closed) throw new Error('This lakehouse connector is closed.');
  }
}
