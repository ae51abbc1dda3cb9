import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml, type DocumentOptions, type ParseOptions, type SchemaOptions, type ToJSOptions } from 'yaml';

/**
 * The one interface publication talks to, whether the lakehouse is a real Databricks
 * workspace or the local emulator. Names are passed unquoted; connectors quote them.
 */
export interface LakehouseConnector {
  /** Reads one object's metadata (Databricks: `DESCRIBE TABLE EXTENDED … AS JSON`); null when absent. */
  getObject(catalog: string, schema: string, name: string): Promise<LakehouseObject | null>;
  /**
   * Writes a metric view. `replaceWithAlter: false` issues `CREATE OR REPLACE VIEW … WITH METRICS`
   * with `properties` as TBLPROPERTIES (a replace drops the view's grants). `replaceWithAlter: true`
   * changes an existing view in place with `ALTER VIEW … AS $$…$$` (owner and grants kept), then
   * sets `properties`. On failure a LakehouseError says whether the definition was already written.
   */
  createOrReplaceMetricView(
    catalog: string,
    schema: string,
    name: string,
    yaml: string,
    properties: Record<string, string>,
    opts: { replaceWithAlter: boolean },
  ): Promise<void>;
  /** Drops a view (`DROP VIEW IF EXISTS`); dropping a view that is not there succeeds. */
  dropView(catalog: string, schema: string, name: string): Promise<void>;
  /** Proves the caller can read a source (`catalog.schema.table`), e.g. `SELECT 1 FROM … LIMIT 0`. */
  checkSourceReadable(source: string): Promise<void>;
  /** Proves the warehouse accepts statements from this credential. */
  checkWarehouseAccess(): Promise<void>;
  /** Proves the target catalog and schema exist and can be used. */
  checkSchemaAccess(catalog: string, schema: string): Promise<void>;
  /**
   * `CREATE SCHEMA IF NOT EXISTS catalog.schema`: a dev publication's per-user schema (needs
   * CREATE SCHEMA on the catalog; the creator owns it). (Optional for test doubles that only publish.)
   */
  ensureSchema?(catalog: string, schema: string): Promise<void>;
  /**
   * Runs one query with `?` parameters and returns its rows: a model query's SQL, or Databricks'
   * own `SELECT dim, MEASURE(m) FROM catalog.schema.view GROUP BY ALL`. Aborting `signal` cancels it.
   * (Optional for test doubles that only publish.)
   */
  query?(statement: string, params?: unknown[], signal?: AbortSignal): Promise<object[]>;
  /** `SHOW CATALOGS`: the catalogs the credential may use. (Optional for test doubles that only publish.) */
  listCatalogs?(): Promise<string[]>;
  /** `SHOW SCHEMAS IN catalog`: the schemas of a catalog the credential may use. (Optional, as above.) */
  listSchemas?(catalog: string): Promise<string[]>;
  close(): Promise<void>;
}

export type LakehouseObjectKind = 'METRIC_VIEW' | 'VIEW' | 'TABLE';

/** The parts of a metric view publication reads back to decide ownership and drift. */
export interface MetricViewDefinition {
  /** The YAML body as the lakehouse returns it. */
  yaml: string;
  properties: Record<string, string>;
  owner?: string;
  comment?: string;
}

export interface LakehouseObject {
  catalog: string;
  schema: string;
  name: string;
  kind: LakehouseObjectKind;
  owner?: string;
  comment?: string;
  /** TBLPROPERTIES of any kind of object (empty when it has none). */
  properties: Record<string, string>;
  /** Present exactly when `kind` is `METRIC_VIEW`. */
  definition?: MetricViewDefinition;
}

/** Stable failure codes; publication maps them to per-view outcomes. */
export const LAKEHOUSE_ERROR_CODES = [
  'LAKEHOUSE_PERMISSION_DENIED',
  'LAKEHOUSE_INVALID_DEFINITION',
  'LAKEHOUSE_NOT_FOUND',
  'LAKEHOUSE_CONFLICT',
  'LAKEHOUSE_AUTH_FAILED',
  'LAKEHOUSE_UNAVAILABLE',
  'LAKEHOUSE_FAILED',
] as const;
export type LakehouseErrorCode = (typeof LAKEHOUSE_ERROR_CODES)[number];

export function isLakehouseErrorCode(value: string): value is LakehouseErrorCode {
  return (LAKEHOUSE_ERROR_CODES as readonly string[]).includes(value);
}

export interface LakehouseErrorOptions {
  /** The lakehouse's own error class, e.g. `TABLE_OR_VIEW_NOT_FOUND`, when it gave one. */
  errorClass?: string;
  sqlState?: string;
  /** Every problem found, when validation found several. */
  details?: string[];
  /** True when the new definition was written before a later step (setting properties) failed. */
  definitionWritten?: boolean;
  cause?: unknown;
}

export class LakehouseError extends Error {
  readonly code: LakehouseErrorCode;
  readonly errorClass?: string;
  readonly sqlState?: string;
  readonly details: string[];
  readonly definitionWritten: boolean;

  constructor(code: LakehouseErrorCode, message: string, options: LakehouseErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LakehouseError';
    this.code = code;
    if (options.errorClass !== undefined) this.errorClass = options.errorClass;
    if (options.sqlState !== undefined) this.sqlState = options.sqlState;
    this.details = options.details ?? [];
    this.definitionWritten = options.definitionWritten ?? false;
  }
}

/**
 * YAML options that read metric view YAML the way Databricks does: standard YAML 1.2 (the core
 * schema), as the metric view reference says, so an unquoted `on:` key is the string "on" and
 * `yes`/`no` stay strings. ("Version 1.1" in a definition is the metric view specification
 * version, not the YAML version.) Drydock still writes `'on'` quoted so that YAML 1.1 readers of
 * the same text get the same key. Duplicate keys are an error, as in a strict parser.
 */
export const METRIC_VIEW_YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions = {
  version: '1.2',
  schema: 'core',
  uniqueKeys: true,
  prettyErrors: true,
  // The library's own bound on alias expansion (its default, said here so it stays): definitions are
  // read back from the lakehouse, where anyone with access may have written one (issue 23).
  maxAliasCount: 100,
};

/** Characters of a metric view definition Drydock reads: a definition is a few KB; 8 MiB as for model files. */
export const MAX_METRIC_VIEW_YAML_CHARS = 8 * 1024 * 1024;

/**
 * Parses metric view YAML as the lakehouse reads it (see METRIC_VIEW_YAML_OPTIONS), within bounds:
 * text past MAX_METRIC_VIEW_YAML_CHARS, aliases that expand past `maxAliasCount` or nesting past the
 * stack are LAKEHOUSE_INVALID_DEFINITION, like any other definition that does not parse.
 */
export function parseMetricViewYaml(yaml: string): unknown {
  if (yaml.length > MAX_METRIC_VIEW_YAML_CHARS) {
    throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', `The metric view YAML has ${yaml.length} characters; at most ${MAX_METRIC_VIEW_YAML_CHARS} are read.`);
  }
  try {
    return parseYaml(yaml, METRIC_VIEW_YAML_OPTIONS);
  } catch (error) {
    if (error instanceof ReferenceError || error instanceof RangeError) {
      throw new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', `The metric view YAML is too complex to read: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

/**
 * The comparable form of a definition: parsed, with `version` as a string (`1.1` and `"1.1"`
 * mean the same spec version). Mapping key order does not matter to deep equality; list order does.
 */
export function canonicalMetricView(yaml: string): unknown {
  const parsed = parseMetricViewYaml(yaml);
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && 'version' in parsed) {
    const record = parsed as Record<string, unknown>;
    const version = record.version;
    if (typeof version === 'number') return { ...record, version: formatVersion(version) };
  }
  return parsed;
}

function formatVersion(version: number): string {
  // 1.1 parses as a float; keep one decimal so `1` and `1.0` compare as "1.0".
  return Number.isInteger(version) ? version.toFixed(1) : String(version);
}

/**
 * True when two metric view definitions mean the same thing: compared parsed, so layout,
 * quoting style, comments and key order do not count as changes. Text that does not parse
 * is only equal to identical text.
 */
export function metricViewYamlEquals(a: string, b: string): boolean {
  if (a === b) return true;
  let left: unknown;
  let right: unknown;
  try {
    left = canonicalMetricView(a);
    right = canonicalMetricView(b);
  } catch {
    return false;
  }
  return isDeepStrictEqual(left, right);
}
