/**
 * Queries on the local lakehouse's table data (a DuckDB file): one SELECT statement by a principal
 * with warehouse access, as Databricks SQL requires. A FROM naming a metric view is answered from
 * its definition (`metric-query.ts`), with the SELECT privilege on the view checked as Unity Catalog
 * checks it; other SELECTs run on the tables as written. Three-part names keep Databricks' catalog
 * `main` (the DuckDB file holds it under another name, see `lakehouseSql`).
 */
import type { DuckDbEngine } from '../../duckdb/engine';
import { isPunct, isWord, SqlTextError, tokenizeSql } from '../../duckdb/sql-text';
import { parseQualifiedName } from '../identifiers';
import { LakehouseError, parseMetricViewYaml } from '../types';
import type { LakehouseEmulator } from './emulator';
import { compileMetricViewQuery, type MetricViewSpec } from './metric-query';

const DEFAULT_CATALOG = 'main';
const DEFAULT_SCHEMA = 'default';
const invalid = (message: string) => new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', message);

export interface LakehouseSelectOptions {
  params?: unknown[];
  signal?: AbortSignal;
}

/**
 * The DuckDB catalog the lakehouse's tables live in. DuckDB reserves `main`, the lakehouse's
 * default catalog, so three-part names `main.schema.table` are rewritten to this name.
 */
export const LAKEHOUSE_DUCKDB_CATALOG = 'lakehouse_main';

/** `main.x.y` → `lakehouse_main.x.y` (also quoted forms), so lakehouse SQL runs in DuckDB unchanged otherwise. */
export function lakehouseSqlForDuckDb(sql: string): string {
  return sql.replace(/(^|[^\w."`])(`main`|"main"|main)\s*\.\s*(?=[`"\w]+\s*\.\s*[`"\w]+)/gi, `$1${LAKEHOUSE_DUCKDB_CATALOG}.`);
}

const fullName = (parts: string[]): [string, string, string] =>
  parts.length === 3 ? [parts[0]!, parts[1]!, parts[2]!] : parts.length === 2 ? [DEFAULT_CATALOG, parts[0]!, parts[1]!] : [DEFAULT_CATALOG, DEFAULT_SCHEMA, parts[0]!];

/** The DuckDB SQL answering `sql` for `principal` (before catalog renaming). */
export function lakehouseSelectSql(emulator: LakehouseEmulator, principal: string, sql: string): string {
  let tokens;
  try {
    tokens = tokenizeSql(sql, '`');
  } catch (error) {
    if (error instanceof SqlTextError) throw invalid(`[PARSE_SYNTAX_ERROR] ${error.message}`);
    throw error;
  }
  while (tokens.length && isPunct(tokens[tokens.length - 1], ';')) tokens.pop();
  if (tokens.length === 0) throw invalid('[PARSE_EMPTY_STATEMENT] Syntax error, unexpected empty statement.');
  if (tokens.some((t) => isPunct(t, ';'))) throw invalid('[PARSE_SYNTAX_ERROR] Only one statement can run at a time.');
  if (!isWord(tokens[0], 'SELECT', 'WITH')) throw invalid(`Only SELECT statements read table data here; '${tokens[0]!.text}' is not executed on the emulator's data.`);
  emulator.checkWarehouse(principal);
  const text = sql.slice(0, tokens[tokens.length - 1]!.end);
  let compiled: string | null;
  try {
    compiled = compileMetricView(emulator, principal, text);
  } catch (error) {
    if (error instanceof SqlTextError) throw invalid(`[PARSE_SYNTAX_ERROR] ${error.message}`);
    throw error;
  }
  return compiled ?? text;
}

function compileMetricView(emulator: LakehouseEmulator, principal: string, text: string): string | null {
  return compileMetricViewQuery(text, {
    metricView: (parts) => {
      const [catalog, schema, name] = fullName(parts);
      const object = emulator.describe(principal, catalog, schema, name);
      if (!object) throw new LakehouseError('LAKEHOUSE_NOT_FOUND', `[TABLE_OR_VIEW_NOT_FOUND] The table or view \`${catalog}\`.\`${schema}\`.\`${name}\` cannot be found.`);
      if (object.kind !== 'METRIC_VIEW' || !object.definition) return null;
      return parseMetricViewYaml(object.definition.yaml) as MetricViewSpec;
    },
    columns: (source) => {
      try {
        const [catalog, schema, name] = fullName(parseQualifiedName(source));
        return (emulator.getObject(catalog, schema, name)?.columns ?? []).map((c) => c.name);
      } catch {
        return [];
      }
    },
  });
}

/** Runs one SELECT on the lakehouse's table data; rows keyed by column name. */
export async function runLakehouseSelect(
  emulator: LakehouseEmulator,
  principal: string,
  engine: DuckDbEngine,
  sql: string,
  options: LakehouseSelectOptions = {},
): Promise<Record<string, unknown>[]> {
  const duck = lakehouseSqlForDuckDb(lakehouseSelectSql(emulator, principal, sql));
  const result = await engine.query(duck, { params: options.params ?? [], signal: options.signal });
  const names = result.columns.map((c) => c.name);
  return result.rows.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i]])));
}
