import { isDeepStrictEqual } from 'node:util';
import { isScalar, parseDocument, visit } from 'yaml';
import { parseQualifiedName, quoteIdentifier, quoteQualifiedName, sqlStringLiteral } from './identifiers';
import {
  canonicalMetricView,
  LakehouseError,
  METRIC_VIEW_YAML_OPTIONS,
  type LakehouseConnector,
  type LakehouseErrorCode,
  type LakehouseObject,
  type LakehouseObjectKind,
} from './types';

// ------------------------------------------------------------------ driver boundary
// The slice of @databricks/sql (v2) this connector uses. DBSQLClient satisfies it; tests pass fakes.

export interface DatabricksOperation {
  fetchAll(): Promise<object[]>;
  close(): Promise<unknown>;
  /** Stops a running statement (the driver's `IOperation.cancel`). */
  cancel?(): Promise<unknown>;
}

export interface DatabricksStatementOptions {
  /** Values of the statement's `?` markers, in order. */
  ordinalParameters?: unknown[];
}

export interface DatabricksSession {
  executeStatement(statement: string, options?: DatabricksStatementOptions): Promise<DatabricksOperation>;
  close(): Promise<unknown>;
}

export interface DatabricksConnectOptions {
  host: string;
  path: string;
  token: string;
  telemetryEnabled?: boolean;
  userAgentEntry?: string;
}

export interface DatabricksClient {
  connect(options: DatabricksConnectOptions): Promise<unknown>;
  openSession(): Promise<DatabricksSession>;
  close(): Promise<unknown>;
}

export type DatabricksClientFactory = () => DatabricksClient | Promise<DatabricksClient>;

/** Loads the real driver only when a Databricks connection is actually made. */
export const defaultDatabricksClientFactory: DatabricksClientFactory = async () => {
  const { DBSQLClient } = await import('@databricks/sql');
  // The driver's own logger writes to the console; statements and errors surface through us instead.
  return new DBSQLClient({ logger: { log: () => undefined } });
};

export interface DatabricksConnectorOptions {
  /** Workspace host name, e.g. `dbc-1234.cloud.databricks.com` (a leading https:// is accepted). */
  host: string;
  /** The SQL warehouse's HTTP path, e.g. `/sql/1.0/warehouses/abc123`. */
  httpPath: string;
  /** Reads the access token from the SecretStore when a connection is opened; never logged. */
  getSecret: () => Promise<string | null | undefined>;
  clientFactory?: DatabricksClientFactory;
}

// ------------------------------------------------------------------ statements

export function describeObjectStatement(catalog: string, schema: string, name: string): string {
  return `DESCRIBE TABLE EXTENDED ${quoteQualifiedName(catalog, schema, name)} AS JSON`;
}

export function createMetricViewStatement(
  catalog: string,
  schema: string,
  name: string,
  yaml: string,
  properties: Record<string, string>,
): string {
  const lines = [`CREATE OR REPLACE VIEW ${quoteQualifiedName(catalog, schema, name)}`, 'WITH METRICS', 'LANGUAGE YAML'];
  if (Object.keys(properties).length > 0) lines.push(`TBLPROPERTIES (${propertyList(properties)})`);
  lines.push(`AS ${dollarQuoted(yaml)}`);
  return lines.join('\n');
}

export function alterMetricViewStatement(catalog: string, schema: string, name: string, yaml: string): string {
  return `ALTER VIEW ${quoteQualifiedName(catalog, schema, name)} AS ${dollarQuoted(yaml)}`;
}

export function setPropertiesStatement(catalog: string, schema: string, name: string, properties: Record<string, string>): string {
  return `ALTER VIEW ${quoteQualifiedName(catalog, schema, name)} SET TBLPROPERTIES (${propertyList(properties)})`;
}

export function dropViewStatement(catalog: string, schema: string, name: string): string {
  return `DROP VIEW IF EXISTS ${quoteQualifiedName(catalog, schema, name)}`;
}

export function selectProbeStatement(source: string): string {
  const parts = parseQualifiedName(source);
  if (parts.length !== 3) {
    throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', `Source "${source}" must be a three-part name catalog.schema.table.`);
  }
  return `SELECT 1 FROM ${quoteQualifiedName(...parts)} LIMIT 0`;
}

export function describeSchemaStatement(catalog: string, schema: string): string {
  return `DESCRIBE SCHEMA ${quoteQualifiedName(catalog, schema)}`;
}

function propertyList(properties: Record<string, string>): string {
  return Object.entries(properties)
    .map(([key, value]) => `${sqlStringLiteral(key)} = ${sqlStringLiteral(value)}`)
    .join(', ');
}

function dollarQuoted(yaml: string): string {
  const body = dollarQuotableYaml(yaml);
  return `$$\n${body}${body.endsWith('\n') ? '' : '\n'}$$`;
}

/**
 * The YAML body goes between `$$` markers, which have no escape. A body containing `$$` is
 * re-emitted with those strings double-quoted and `$` escaped as `\x24` (same parsed value),
 * and comments containing `$$` dropped. Anything that still contains `$$` is refused.
 */
export function dollarQuotableYaml(yaml: string): string {
  if (!yaml.includes('$$')) return yaml;
  const document = parseDocument(yaml, METRIC_VIEW_YAML_OPTIONS);
  if (document.errors.length > 0) {
    throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', `The metric view YAML does not parse: ${document.errors[0].message.split('\n')[0]}`);
  }
  visit(document, {
    Node(_key, node) {
      if (node.comment?.includes('$$')) node.comment = undefined;
      if (node.commentBefore?.includes('$$')) node.commentBefore = undefined;
      if (isScalar(node) && typeof node.value === 'string' && node.value.includes('$$')) node.type = 'QUOTE_DOUBLE';
    },
  });
  if (document.comment?.includes('$$')) document.comment = null;
  if (document.commentBefore?.includes('$$')) document.commentBefore = null;
  const rewritten = document.toString({ lineWidth: 0 }).replaceAll('$$', '$\\x24');
  let same = false;
  try {
    same = isDeepStrictEqual(canonicalMetricView(rewritten), canonicalMetricView(yaml));
  } catch {
    same = false;
  }
  if (!same || rewritten.includes('$$')) {
    throw new LakehouseError(
      'LAKEHOUSE_INVALID_DEFINITION',
      'The metric view YAML contains "$$" where it cannot be escaped (the statement delimits the YAML with $$).',
    );
  }
  return rewritten;
}

// ------------------------------------------------------------------ DESCRIBE … AS JSON

interface DescribeJson {
  table_name?: string;
  catalog_name?: string;
  schema_name?: string;
  namespace?: string[];
  type?: string;
  table_type?: string;
  language?: string;
  owner?: string;
  comment?: string;
  view_text?: string;
  view_original_text?: string;
  table_properties?: Record<string, unknown>;
}

/** Reads the single `json_metadata` column of `DESCRIBE TABLE EXTENDED … AS JSON`. */
export function parseDescribeResult(
  rows: object[],
  requested: { catalog: string; schema: string; name: string },
): LakehouseObject {
  const first = rows[0] as Record<string, unknown> | undefined;
  const json = first === undefined ? undefined : (first.json_metadata ?? Object.values(first).find((v) => typeof v === 'string'));
  if (typeof json !== 'string') {
    throw new LakehouseError('LAKEHOUSE_FAILED', 'DESCRIBE TABLE EXTENDED … AS JSON returned no json_metadata column.');
  }
  let meta: DescribeJson;
  try {
    meta = JSON.parse(json) as DescribeJson;
  } catch (error) {
    throw new LakehouseError('LAKEHOUSE_FAILED', 'DESCRIBE TABLE EXTENDED … AS JSON returned text that is not JSON.', { cause: error });
  }
  const type = String(meta.type ?? meta.table_type ?? '').toUpperCase();
  const kind = kindOf(type, meta.language);
  const properties: Record<string, string> = {};
  for (const [key, value] of Object.entries(meta.table_properties ?? {})) {
    properties[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const object: LakehouseObject = {
    catalog: meta.catalog_name ?? requested.catalog,
    schema: meta.schema_name ?? meta.namespace?.at(-1) ?? requested.schema,
    name: meta.table_name ?? requested.name,
    kind,
    properties,
  };
  if (typeof meta.owner === 'string') object.owner = meta.owner;
  if (typeof meta.comment === 'string') object.comment = meta.comment;
  if (kind === 'METRIC_VIEW') {
    const yaml = meta.view_text ?? meta.view_original_text;
    if (typeof yaml !== 'string') {
      throw new LakehouseError('LAKEHOUSE_FAILED', `DESCRIBE of metric view ${requested.name} returned no view_text.`);
    }
    object.definition = { yaml, properties: { ...properties } };
    if (object.owner !== undefined) object.definition.owner = object.owner;
    if (object.comment !== undefined) object.definition.comment = object.comment;
  }
  return object;
}

function kindOf(type: string, language: string | undefined): LakehouseObjectKind {
  if (type === 'METRIC_VIEW') return 'METRIC_VIEW';
  if (type === 'VIEW' && language?.toUpperCase() === 'YAML') return 'METRIC_VIEW';
  if (type === 'VIEW' || type === 'MATERIALIZED_VIEW') return 'VIEW';
  return 'TABLE';
}

// ------------------------------------------------------------------ errors

export type StatementPhase = 'connect' | 'read' | 'write';

const PERMISSION_CLASSES = new Set(['INSUFFICIENT_PERMISSIONS', 'PERMISSION_DENIED', 'UNAUTHORIZED_ACCESS']);
const NOT_FOUND_CLASSES = new Set(['TABLE_OR_VIEW_NOT_FOUND', 'SCHEMA_NOT_FOUND', 'NO_SUCH_CATALOG_EXCEPTION', 'CATALOG_NOT_FOUND']);
const CONFLICT_CLASSES = new Set([
  'TABLE_OR_VIEW_ALREADY_EXISTS',
  'EXPECT_VIEW_NOT_TABLE',
  'EXPECT_TABLE_NOT_VIEW',
  'WRONG_COMMAND_FOR_OBJECT_TYPE',
]);
const NETWORK_CODES = /\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|EHOSTUNREACH|socket hang up)\b/i;

/**
 * Maps a driver error to a LakehouseError by the Databricks error class in its message
 * (`[TABLE_OR_VIEW_NOT_FOUND] …`), its SQLSTATE, or the network failure behind it.
 * `secrets` are blanked from the message so a credential never reaches a log or a response.
 */
export function mapDatabricksError(error: unknown, phase: StatementPhase, secrets: readonly string[] = []): LakehouseError {
  if (error instanceof LakehouseError) return error;
  const record = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    errorCode?: unknown;
    sqlState?: unknown;
    statusCode?: unknown;
    response?: { displayMessage?: unknown; errorMessage?: unknown; sqlState?: unknown };
  };
  const parts = [record.message, record.response?.displayMessage, record.response?.errorMessage]
    .filter((part): part is string => typeof part === 'string' && part.length > 0)
    .filter((part, index, all) => all.indexOf(part) === index);
  let text = parts.join(' | ') || String(error);
  const leaked = secrets.some((secret) => secret.length > 0 && text.includes(secret));
  for (const secret of secrets) if (secret.length > 0) text = text.replaceAll(secret, '[redacted]');
  if (text.length > 2000) text = text.slice(0, 2000) + '…';
  const sqlState = stringOrUndefined(record.sqlState) ?? stringOrUndefined(record.response?.sqlState);
  const errorClass =
    /\[([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)\]/.exec(text)?.[1] ??
    /\b(PERMISSION_DENIED|UNAUTHENTICATED|TEMPORARILY_UNAVAILABLE|RESOURCE_DOES_NOT_EXIST)\b/.exec(text)?.[1];
  const baseClass = errorClass?.split('.')[0];
  const name = typeof record.name === 'string' ? record.name : error instanceof Error ? error.constructor.name : '';
  const nodeCode = typeof record.code === 'string' ? record.code : '';
  // The driver's error is kept as the cause for its stack, unless it carries the credential.
  const options = { errorClass, sqlState, cause: leaked ? undefined : error };
  const make = (code: LakehouseErrorCode, prefix: string) => new LakehouseError(code, `${prefix}: ${text}`, options);

  if (baseClass === 'UNAUTHENTICATED' || name === 'AuthenticationError' || (phase === 'connect' && /\b401\b|unauthori[sz]ed|invalid access token/i.test(text))) {
    return make('LAKEHOUSE_AUTH_FAILED', 'Databricks did not accept the credential');
  }
  if ((baseClass !== undefined && PERMISSION_CLASSES.has(baseClass)) || sqlState === '42501' || /\b403\b|forbidden|does not have .* (privilege|permission)/i.test(text)) {
    return make('LAKEHOUSE_PERMISSION_DENIED', 'Databricks refused for lack of privileges');
  }
  if ((baseClass !== undefined && NOT_FOUND_CLASSES.has(baseClass)) || sqlState === '42P01' || sqlState === '42704' || baseClass === 'RESOURCE_DOES_NOT_EXIST') {
    // While writing a definition, a missing table is one the YAML reads: the definition is wrong.
    if (phase === 'write' && (baseClass === 'TABLE_OR_VIEW_NOT_FOUND' || sqlState === '42P01')) {
      return make('LAKEHOUSE_INVALID_DEFINITION', 'The metric view reads a table or view that does not exist');
    }
    return make('LAKEHOUSE_NOT_FOUND', 'Databricks could not find the object');
  }
  if (baseClass !== undefined && CONFLICT_CLASSES.has(baseClass)) {
    return make('LAKEHOUSE_CONFLICT', 'The object is not of the kind this statement changes');
  }
  if (
    (baseClass !== undefined &&
      (/METRIC_VIEW/.test(baseClass) ||
        /^(PARSE_SYNTAX_ERROR|UNRESOLVED_|MISSING_AGGREGATION|DATATYPE_MISMATCH|AMBIGUOUS_|INVALID_|UNSUPPORTED_EXPR|NON_AGGREGATE|AGGREGATE_)/.test(baseClass))) ||
    (sqlState !== undefined && sqlState.startsWith('42'))
  ) {
    return make('LAKEHOUSE_INVALID_DEFINITION', 'Databricks rejected the metric view definition');
  }
  if (
    baseClass === 'TEMPORARILY_UNAVAILABLE' ||
    NETWORK_CODES.test(nodeCode) ||
    NETWORK_CODES.test(text) ||
    name === 'RetryError' ||
    record.errorCode === 'TIMEOUT' ||
    /\b(502|503|504)\b|service unavailable|warehouse .*(starting|stopped)/i.test(text)
  ) {
    return make('LAKEHOUSE_UNAVAILABLE', 'The Databricks SQL warehouse is unavailable');
  }
  return make('LAKEHOUSE_FAILED', 'Databricks statement failed');
}

/** The named column of SHOW rows (the first string column when none of the names is there). */
function firstColumn(rows: object[], names: string[]): string[] {
  return rows
    .map((row) => {
      const record = row as Record<string, unknown>;
      const named = names.map((name) => record[name]).find((value) => typeof value === 'string');
      return named ?? Object.values(record).find((value) => typeof value === 'string');
    })
    .filter((value): value is string => typeof value === 'string');
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

// ------------------------------------------------------------------ connector

/** The lakehouse connector for a Databricks SQL warehouse, through @databricks/sql. */
export class DatabricksLakehouseConnector implements LakehouseConnector {
  private readonly host: string;
  private readonly httpPath: string;
  private readonly getSecret: () => Promise<string | null | undefined>;
  private readonly clientFactory: DatabricksClientFactory;
  private connection: Promise<{ client: DatabricksClient; session: DatabricksSession }> | null = null;
  /** The credential in use, kept only to blank it out of error messages. */
  private redactions: string[] = [];

  constructor(options: DatabricksConnectorOptions) {
    this.host = options.host.replace(/^https?:\/\//i, '').replace(/\/+$/, '');
    this.httpPath = options.httpPath;
    this.getSecret = options.getSecret;
    this.clientFactory = options.clientFactory ?? defaultDatabricksClientFactory;
  }

  async getObject(catalog: string, schema: string, name: string): Promise<LakehouseObject | null> {
    try {
      const rows = await this.run(describeObjectStatement(catalog, schema, name), 'read');
      return parseDescribeResult(rows, { catalog, schema, name });
    } catch (error) {
      if (error instanceof LakehouseError && error.code === 'LAKEHOUSE_NOT_FOUND' && error.errorClass === 'TABLE_OR_VIEW_NOT_FOUND') {
        return null;
      }
      throw error;
    }
  }

  async createOrReplaceMetricView(
    catalog: string,
    schema: string,
    name: string,
    yaml: string,
    properties: Record<string, string>,
    opts: { replaceWithAlter: boolean },
  ): Promise<void> {
    if (!opts.replaceWithAlter) {
      await this.run(createMetricViewStatement(catalog, schema, name, yaml, properties), 'write');
      return;
    }
    await this.run(alterMetricViewStatement(catalog, schema, name, yaml), 'write');
    if (Object.keys(properties).length === 0) return;
    try {
      await this.run(setPropertiesStatement(catalog, schema, name, properties), 'write');
    } catch (error) {
      const failure = error instanceof LakehouseError ? error : mapDatabricksError(error, 'write', this.redactions);
      throw new LakehouseError(
        failure.code,
        `The definition of ${catalog}.${schema}.${name} was changed, but setting its properties failed: ${failure.message}`,
        { errorClass: failure.errorClass, sqlState: failure.sqlState, definitionWritten: true, cause: failure },
      );
    }
  }

  async dropView(catalog: string, schema: string, name: string): Promise<void> {
    await this.run(dropViewStatement(catalog, schema, name), 'write');
  }

  async checkSourceReadable(source: string): Promise<void> {
    await this.run(selectProbeStatement(source), 'read');
  }

  async checkWarehouseAccess(): Promise<void> {
    await this.run('SELECT 1', 'read');
  }

  async checkSchemaAccess(catalog: string, schema: string): Promise<void> {
    // Existence and USE CATALOG/USE SCHEMA; CREATE TABLE is proven by the access test's temporary view.
    await this.run(describeSchemaStatement(catalog, schema), 'read');
  }

  async ensureSchema(catalog: string, schema: string): Promise<void> {
    await this.run(`CREATE SCHEMA IF NOT EXISTS ${quoteQualifiedName(catalog, schema)}`, 'write');
  }

  async listCatalogs(): Promise<string[]> {
    return firstColumn(await this.run('SHOW CATALOGS', 'read'), ['catalog', 'catalog_name']);
  }

  async listSchemas(catalog: string): Promise<string[]> {
    // Databricks names the column `databaseName` (older runtimes) or `namespace`/`schema_name`.
    return firstColumn(await this.run(`SHOW SCHEMAS IN ${quoteIdentifier(catalog)}`, 'read'), ['databaseName', 'namespace', 'schema_name']);
  }

  /**
   * Runs a query with `?` parameters (a model query's SQL, or a `MEASURE()` query over a metric
   * view) and returns its rows; aborting `signal` cancels the statement on the warehouse.
   */
  async query(statement: string, params: unknown[] = [], signal?: AbortSignal): Promise<object[]> {
    const { session } = await this.connect();
    let operation: DatabricksOperation | undefined;
    const cancel = () => void operation?.cancel?.().catch(() => undefined);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      operation = await session.executeStatement(statement, params.length ? { ordinalParameters: params } : {});
      if (signal?.aborted) cancel();
      return await operation.fetchAll();
    } catch (error) {
      const mapped = mapDatabricksError(error, 'read', this.redactions);
      if (mapped.code === 'LAKEHOUSE_UNAVAILABLE' || mapped.code === 'LAKEHOUSE_AUTH_FAILED') await this.close();
      throw mapped;
    } finally {
      signal?.removeEventListener('abort', cancel);
      await operation?.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    if (connection === null) return;
    let opened: { client: DatabricksClient; session: DatabricksSession };
    try {
      opened = await connection;
    } catch {
      return;
    }
    await opened.session.close().catch(() => undefined);
    await opened.client.close().catch(() => undefined);
  }

  private async run(statement: string, phase: StatementPhase): Promise<object[]> {
    const { session } = await this.connect();
    let operation: DatabricksOperation | undefined;
    try {
      operation = await session.executeStatement(statement);
      return await operation.fetchAll();
    } catch (error) {
      const mapped = mapDatabricksError(error, phase, this.redactions);
      // A dropped connection or a rejected credential: open afresh next time.
      if (mapped.code === 'LAKEHOUSE_UNAVAILABLE' || mapped.code === 'LAKEHOUSE_AUTH_FAILED') await this.close();
      throw mapped;
    } finally {
      await operation?.close().catch(() => undefined);
    }
  }

  private connect(): Promise<{ client: DatabricksClient; session: DatabricksSession }> {
    if (this.connection === null) {
      const attempt = this.open();
      this.connection = attempt;
      attempt.catch(() => {
        if (this.connection === attempt) this.connection = null;
      });
    }
    return this.connection;
  }

  private async open(): Promise<{ client: DatabricksClient; session: DatabricksSession }> {
    const token = await this.getSecret();
    if (typeof token !== 'string' || token.length === 0) {
      throw new LakehouseError('LAKEHOUSE_AUTH_FAILED', 'No Databricks access token is stored for this data source.');
    }
    this.redactions = [token];
    const client = await this.clientFactory();
    try {
      await client.connect({ host: this.host, path: this.httpPath, token, telemetryEnabled: false, userAgentEntry: 'Drydock' });
      const session = await client.openSession();
      return { client, session };
    } catch (error) {
      await client.close().catch(() => undefined);
      throw mapDatabricksError(error, 'connect', this.redactions);
    }
  }
}
