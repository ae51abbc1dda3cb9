/**
 * Queries on the local warehouse's table data (a DuckDB file): one SELECT statement, in a session
 * that has a usable warehouse, as Snowflake requires. A `SEMANTIC_VIEW(...)` clause is answered from
 * the stored semantic view's definition over its base tables (`semantic-query.ts`); other SELECTs run
 * on the tables as written.
 */
import type { DuckDbEngine } from '../../duckdb/engine';
import { duckIdent, isPunct, isWord, SqlTextError, tokenizeSql } from '../../duckdb/sql-text';
import { WarehouseError, WarehouseErrorCodes } from '../types';
import type { SessionContext } from './catalog-types';
import { parseQualifiedNameText } from './ddl-parser';
import { loadSemanticView } from './describe-show';
import type { WarehouseEmulator } from './emulator';
import { compilationError, statementCount } from './errors';
import { compileSemanticViewQueries, hasSemanticViewClause } from './semantic-query';

export interface WarehouseSelectOptions {
  binds?: unknown[];
  signal?: AbortSignal;
}

/** The DuckDB SQL answering `sql` (exported for tests that compare it with hand-written SQL). */
export function warehouseSelectSql(emulator: WarehouseEmulator, context: SessionContext, sql: string): string {
  let tokens;
  try {
    tokens = tokenizeSql(sql, '"');
  } catch (error) {
    if (error instanceof SqlTextError) throw compilationError(error.message);
    throw error;
  }
  while (tokens.length && isPunct(tokens[tokens.length - 1], ';')) tokens.pop();
  if (tokens.length === 0) throw new WarehouseError(WarehouseErrorCodes.SYNTAX_ERROR, 'Empty SQL statement.', { sqlState: '42000', vendorCode: '000900' });
  const statements = 1 + tokens.filter((t) => isPunct(t, ';')).length;
  if (statements > 1) throw statementCount(statements);
  if (!isWord(tokens[0], 'SELECT', 'WITH') && !isPunct(tokens[0], '(')) {
    throw compilationError(`Only SELECT statements read table data here; '${tokens[0]!.text}' is not executed on the emulator's data.`);
  }
  emulator.requireWarehouse(context);
  const text = sql.slice(0, tokens[tokens.length - 1]!.end);
  if (!hasSemanticViewClause(text)) return text;
  try {
    return compileSemanticQueries(emulator, context, text);
  } catch (error) {
    if (error instanceof SqlTextError) throw compilationError(error.message);
    throw error;
  }
}

function compileSemanticQueries(emulator: WarehouseEmulator, context: SessionContext, text: string): string {
  return compileSemanticViewQueries(text, {
    view: (nameText) => {
      const name = parseQualifiedNameText(nameText);
      return loadSemanticView(emulator, emulator.objectName(name, context, 'SEMANTIC_VIEW'), context);
    },
    ident: (token) => emulator.ident({ text: token.text, quoted: token.quoted, pos: { line: 1, column: 0, offset: 0 } }),
    relation: (table) => {
      const row = emulator.relationRow(table.database, table.schema, table.table);
      const columns = row?.columns_json ? (JSON.parse(row.columns_json) as { name: string }[]).map((c) => c.name) : [];
      // A helper view (an SQL-defined cube pushed as a view) is read through its query.
      if (row?.kind === 'VIEW' && row.view_query) return { sql: `(${row.view_query})`, columns };
      return { sql: [table.database, table.schema, table.table].map(duckIdent).join('.'), columns };
    },
  });
}

/** Runs one SELECT on the warehouse's table data; rows keyed by column name. */
export async function runWarehouseSelect(
  emulator: WarehouseEmulator,
  context: SessionContext,
  engine: DuckDbEngine,
  sql: string,
  options: WarehouseSelectOptions = {},
): Promise<Record<string, unknown>[]> {
  const duck = warehouseSelectSql(emulator, context, sql);
  const result = await engine.query(duck, { params: options.binds ?? [], signal: options.signal });
  const names = result.columns.map((c) => c.name);
  return result.rows.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i]])));
}
