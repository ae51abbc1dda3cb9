/**
 * Databricks' query over a metric view, answered from the emulator's table data:
 * `SELECT dim, MEASURE(m) FROM catalog.schema.view [WHERE ...] GROUP BY ALL [ORDER BY ...] [LIMIT n]`
 * becomes DuckDB SQL over the view's `source` and its (many-to-one) `joins`: each dimension name is
 * replaced by its expression, each `MEASURE(m)` by the measure's aggregate (MEASURE() inside a
 * measure composes), the view's `filter` applies to every row, and the result columns are named as
 * Databricks names them (`dim`, `measure(m)`). A measure named without MEASURE() is refused, as
 * Databricks refuses it; so is `SELECT *`.
 */
import { chainAt, duckIdent, isIdent, isPunct, isWord, replaceSpans, rewriteChains, splitTopLevel, tokenizeSql, type SqlToken } from '../../duckdb/sql-text';
import { LakehouseError } from '../types';
import { measureOneColumn, missingMeasureFunction, selectStarNotSupported, unresolvedColumn, vendorMessage, type ClassifiedProblem } from './error-classes';
import { isQuery } from './validate-sql';

export interface MetricViewJoinSpec {
  name: string;
  source: string;
  on?: string;
  using?: string[];
  joins?: MetricViewJoinSpec[];
}

export interface MetricViewSpec {
  source: string;
  filter?: string;
  joins?: MetricViewJoinSpec[];
  dimensions?: { name: string; expr: string }[];
  fields?: { name: string; expr: string }[];
  measures?: { name: string; expr: string; window?: unknown }[];
}

export interface MetricQueryHost {
  /** The metric view a FROM names (1 to 3 parts as written), or null when it names something else. */
  metricView(parts: string[]): MetricViewSpec | null;
  /** The columns of a table named in a `source` (empty when unknown, e.g. for a SQL source). */
  columns(source: string): string[];
}

const invalid = (message: string) => new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', message);
/** A refusal under the error class a workspace answers a query with (see error-classes.ts). */
const refused = (problem: ClassifiedProblem) =>
  new LakehouseError('LAKEHOUSE_INVALID_DEFINITION', vendorMessage(problem), { errorClass: problem.errorClass, sqlState: problem.sqlState });
const partValue = (t: SqlToken) => (t.kind === 'quoted' ? t.value : t.text).toLowerCase();

/** The DuckDB SQL answering `sql` when a FROM of it names a metric view; null when none does. */
export function compileMetricViewQuery(sql: string, host: MetricQueryHost): string | null {
  const tokens = tokenizeSql(sql, '`');
  let depth = 0;
  for (let i = 0; i < tokens.length; i += 1) {
    if (isPunct(tokens[i], '(')) depth += 1;
    if (isPunct(tokens[i], ')')) depth -= 1;
    if (depth !== 0 || !isWord(tokens[i], 'FROM')) continue;
    const chain = chainAt(tokens, i + 1);
    if (!chain) continue;
    const view = host.metricView(chain.parts.map(partValue));
    if (!view) continue;
    return new MetricQuery(sql, tokens, i + 1, chain.next, view, host).compile();
  }
  return null;
}

class MetricQuery {
  /** Join path (`products.product_categories`) → its alias and spec. */
  private readonly joins = new Map<string, { alias: string; spec: MetricViewJoinSpec; parent: string }>();
  private readonly dims = new Map<string, string>();
  private readonly measures = new Map<string, string>();
  private readonly sourceColumns: Set<string>;

  constructor(
    private readonly sql: string,
    private readonly tokens: SqlToken[],
    private readonly fromAt: number,
    private readonly fromEnd: number,
    private readonly view: MetricViewSpec,
    host: MetricQueryHost,
  ) {
    const walk = (list: MetricViewJoinSpec[] | undefined, parent: string | null) => {
      for (const spec of list ?? []) {
        const path = parent ? `${parent}.${spec.name.toLowerCase()}` : spec.name.toLowerCase();
        this.joins.set(path, { alias: duckIdent(path), spec, parent: parent ?? 'source' });
        walk(spec.joins, path);
      }
    };
    walk(view.joins, null);
    this.sourceColumns = new Set(isQuery(view.source) ? [] : host.columns(view.source).map((c) => c.toLowerCase()));
    for (const d of view.dimensions ?? view.fields ?? []) this.dims.set(d.name.toLowerCase(), d.expr);
    for (const m of view.measures ?? []) {
      if (m.window !== undefined) continue; // windowed measures are not computed here (refused on use below)
      this.measures.set(m.name.toLowerCase(), m.expr);
    }
  }

  /** View-level SQL (`expr`, `filter`, `on`) with names bound to the aliases of source and joins. */
  private bind(text: string, scope: { self?: string; parent?: string } = {}, stack: string[] = []): string {
    const tokens = tokenizeSql(text, '`');
    return rewriteChains(text, tokens, 0, tokens.length, (parts, info) => {
      const names = parts.map(partValue);
      if (info.call) {
        if (names.length === 1 && names[0] === 'measure' && isIdent(tokens[info.next + 1]) && isPunct(tokens[info.next + 2], ')')) {
          const name = partValue(tokens[info.next + 1]!);
          return { text: `(${this.measureSql(name, stack)})`, next: info.next + 3 };
        }
        return null;
      }
      if (info.afterAs) return null;
      if (names[0] === 'source' && names.length >= 2) return { text: `"source".${names.slice(1).map(duckIdent).join('.')}` };
      if (scope.self && names.length >= 2 && names[0] === scope.self.split('.').pop()) return { text: `${duckIdent(scope.self)}.${names.slice(1).map(duckIdent).join('.')}` };
      if (scope.parent && scope.parent !== 'source' && names.length >= 2 && names[0] === scope.parent.split('.').pop()) {
        return { text: `${duckIdent(scope.parent)}.${names.slice(1).map(duckIdent).join('.')}` };
      }
      for (let n = names.length - 1; n >= 1; n -= 1) {
        const join = this.joins.get(names.slice(0, n).join('.'));
        if (join) return { text: `${join.alias}.${names.slice(n).map(duckIdent).join('.')}` };
      }
      if (names.length === 1 && this.sourceColumns.has(names[0]!)) return { text: `"source".${duckIdent(names[0]!)}` };
      return null;
    });
  }

  private measureSql(name: string, stack: string[]): string {
    const expr = this.measures.get(name);
    if (expr === undefined && this.windowed(name)) {
      throw invalid(`MEASURE(${name}): the local lakehouse does not compute measures with a window; query it on Databricks.`);
    }
    if (expr === undefined) throw refused(unresolvedColumn([name], (this.view.measures ?? []).map((m) => [m.name])));
    if (stack.includes(name)) throw invalid(`Measure ${name} refers to itself.`);
    return this.bind(expr, {}, [...stack, name]);
  }

  private windowed(name: string): boolean {
    return (this.view.measures ?? []).some((m) => m.name.toLowerCase() === name && m.window !== undefined);
  }

  private relation(source: string): string {
    return isQuery(source) ? `(${source})` : source;
  }

  private fromSql(): string {
    let sql = `${this.relation(this.view.source)} AS "source"`;
    for (const [path, join] of this.joins) {
      const on = join.spec.on
        ? this.bind(join.spec.on, { self: path, parent: join.parent })
        : (join.spec.using ?? []).map((c) => `${join.parent === 'source' ? '"source"' : duckIdent(join.parent)}.${duckIdent(c)} = ${join.alias}.${duckIdent(c)}`).join(' AND ') || 'TRUE';
      sql += ` LEFT JOIN ${this.relation(join.spec.source)} AS ${join.alias} ON ${on}`;
    }
    return sql;
  }

  compile(): string {
    const t = this.tokens;
    const selectAt = t.findIndex((tok) => isWord(tok, 'SELECT'));
    const spans: { start: number; end: number; text: string }[] = [];
    // The select list: name what dimensions and MEASURE() calls stand for, as Databricks does.
    if (selectAt >= 0 && selectAt < this.fromAt) {
      let first = selectAt + 1;
      if (isWord(t[first], 'DISTINCT', 'ALL')) first += 1;
      for (const [a, b] of splitTopLevel(t, first, this.fromAt - 1)) {
        if (b - a === 1 && isPunct(t[a], '*')) throw refused(selectStarNotSupported());
        const rewritten = this.expression(a, b);
        const named = b - a >= 2 && (isWord(t[b - 2], 'AS') || (isIdent(t[b - 1]) && (isIdent(t[b - 2]) || isPunct(t[b - 2], ')'))));
        let alias = '';
        if (!named && b - a === 1 && isIdent(t[a]) && this.dims.has(partValue(t[a]!))) alias = ` AS ${duckIdent(partValue(t[a]!))}`;
        if (!named && b - a === 4 && isWord(t[a], 'MEASURE') && isIdent(t[a + 2])) alias = ` AS ${duckIdent(`measure(${partValue(t[a + 2]!)})`)}`;
        spans.push({ start: t[a]!.start, end: t[b - 1]!.end, text: rewritten + alias });
      }
    }
    spans.push({ start: t[this.fromAt]!.start, end: t[this.fromEnd - 1]!.end, text: this.fromSql() });
    // The rest of the statement (WHERE, GROUP BY, HAVING, ORDER BY ...), with the view's filter added.
    const clauses = ['GROUP', 'HAVING', 'ORDER', 'LIMIT', 'QUALIFY', 'WINDOW', 'OFFSET', 'UNION', 'EXCEPT', 'INTERSECT'];
    let depth = 0;
    let whereAt = -1;
    let restEnd = t.length;
    for (let i = this.fromEnd; i < t.length; i += 1) {
      if (isPunct(t[i], '(')) depth += 1;
      if (isPunct(t[i], ')')) depth -= 1;
      if (depth < 0 || (depth === 0 && isPunct(t[i], ';'))) {
        restEnd = i;
        break;
      }
      if (depth === 0 && isWord(t[i], 'WHERE') && whereAt < 0) whereAt = i;
    }
    const filter = this.view.filter ? this.bind(this.view.filter) : null;
    if (whereAt >= 0) {
      let end = whereAt + 1;
      for (depth = 0; end < restEnd; end += 1) {
        if (isPunct(t[end], '(')) depth += 1;
        if (isPunct(t[end], ')')) depth -= 1;
        if (depth === 0 && isWord(t[end], ...clauses)) break;
      }
      const condition = this.expression(whereAt + 1, end);
      spans.push({ start: t[whereAt]!.start, end: t[end - 1]!.end, text: filter ? `WHERE (${filter}) AND (${condition})` : `WHERE ${condition}` });
      this.rewriteRange(end, restEnd, spans);
    } else {
      if (filter) spans.push({ start: t[this.fromEnd - 1]!.end, end: t[this.fromEnd - 1]!.end, text: ` WHERE ${filter}` });
      this.rewriteRange(this.fromEnd, restEnd, spans);
    }
    return replaceSpans(this.sql.slice(0, t[restEnd - 1]!.end), spans);
  }

  private rewriteRange(from: number, to: number, spans: { start: number; end: number; text: string }[]): void {
    if (from >= to) return;
    spans.push({ start: this.tokens[from]!.start, end: this.tokens[to - 1]!.end, text: this.expression(from, to) });
  }

  /** A stretch of the user's query: dimension names → their expressions, MEASURE(m) → its aggregate. */
  private expression(from: number, to: number): string {
    const t = this.tokens;
    return rewriteChains(this.sql, t, from, to, (parts, info) => {
      const names = parts.map(partValue);
      if (info.call) {
        if (names.length === 1 && names[0] === 'measure') {
          if (!isIdent(t[info.next + 1]) || !isPunct(t[info.next + 2], ')')) throw refused(measureOneColumn());
          return { text: `(${this.measureSql(partValue(t[info.next + 1]!), [])})`, next: info.next + 3 };
        }
        return null;
      }
      if (info.afterAs || names.length !== 1) return null;
      const name = names[0]!;
      if (this.dims.has(name)) return { text: `(${this.bind(this.dims.get(name)!)})` };
      if (this.measures.has(name) || this.windowed(name)) {
        throw refused(missingMeasureFunction(name));
      }
      return null;
    });
  }
}
