/**
 * Snowflake's query over a semantic view, answered from the emulator's table data:
 * `SELECT ... FROM SEMANTIC_VIEW(db.schema.view METRICS ... DIMENSIONS ... | FACTS ... WHERE ...)`
 * becomes DuckDB SQL over the view's base tables, with Snowflake's semantics:
 * - every metric is computed on its own logical table, grouped by the dimensions asked for, which
 *   must come from that table or tables it references (many-to-one): no fan-out, no double counting;
 *   metrics of different tables are computed apart and joined on the dimensions;
 * - derived metrics (no table) and scalar expressions over metrics are computed over those results;
 * - WHERE filters rows before aggregation; DIMENSIONS alone give the distinct combinations;
 *   FACTS give rows (no grouping);
 * - columns come in the order the clauses list them, named by the member (or the alias).
 * Window function metrics are not computed (the emulator says so).
 */
import { chainAt, closingParen, duckIdent, isIdent, isPunct, isWord, replaceSpans, rewriteChains, splitTopLevel, tokenizeSql, type SqlToken } from '../../duckdb/sql-text';
import { WarehouseError, WarehouseErrorCodes } from '../types';
import type { SemanticViewDefinition, SemanticViewMember, SemanticViewTable } from './definition';
import { compilationError, unsupported } from './errors';

export interface SemanticQueryHost {
  /** The definition named by the clause's first argument (privileges checked), from its text. */
  view(nameText: string): SemanticViewDefinition;
  /** A written identifier as the warehouse stores it (case rules, QUOTED_IDENTIFIERS_IGNORE_CASE). */
  ident(token: { text: string; quoted: boolean }): string;
  /** What DuckDB reads for a logical table (a table name, or a helper view's query) and its columns. */
  relation(table: SemanticViewTable): { sql: string; columns: string[] };
}

type Kind = 'fact' | 'dimension' | 'metric';
interface Member {
  kind: Kind;
  table: string | null;
  def: SemanticViewMember;
}

const TABLE_ALIAS = (name: string) => duckIdent(`t_${name}`);
const stored = (host: SemanticQueryHost, t: SqlToken) => host.ident({ text: t.kind === 'quoted' ? t.value : t.text, quoted: t.kind === 'quoted' });

/** True when `sql` holds a SEMANTIC_VIEW(...) clause. */
export function hasSemanticViewClause(sql: string): boolean {
  try {
    const tokens = tokenizeSql(sql, '"');
    return tokens.some((t, i) => isWord(t, 'SEMANTIC_VIEW') && isPunct(tokens[i + 1], '('));
  } catch {
    return false;
  }
}

/** `sql` with each SEMANTIC_VIEW(...) clause replaced by the DuckDB subquery that answers it. */
export function compileSemanticViewQueries(sql: string, host: SemanticQueryHost): string {
  const tokens = tokenizeSql(sql, '"');
  const spans: { start: number; end: number; text: string }[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    if (!isWord(tokens[i], 'SEMANTIC_VIEW') || !isPunct(tokens[i + 1], '(')) continue;
    const close = closingParen(tokens, i + 1);
    const compiled = new SemanticQuery(sql, tokens, i + 2, close, host).compile();
    spans.push({ start: tokens[i]!.start, end: tokens[close]!.end, text: `(${compiled})` });
    i = close;
  }
  return replaceSpans(sql, spans);
}

type Clause = 'metrics' | 'dimensions' | 'facts';

interface Item {
  /** Token range of the expression (alias excluded). */
  from: number;
  to: number;
  column: string;
}

class SemanticQuery {
  private readonly view: SemanticViewDefinition;
  private readonly tables = new Map<string, SemanticViewTable>();
  private readonly members = new Map<string, Member>();
  private readonly byName = new Map<string, Member[]>();
  private readonly relations = new Map<string, { sql: string; columns: Set<string> }>();
  private metrics: Item[] = [];
  private dimensions: Item[] = [];
  private facts: Item[] = [];
  private where: [number, number] | null = null;
  private readonly order: ('metrics' | 'dimensions' | 'facts')[] = [];

  constructor(
    private readonly sql: string,
    private readonly tokens: SqlToken[],
    private readonly from: number,
    private readonly to: number,
    private readonly host: SemanticQueryHost,
  ) {
    const name = chainAt(tokens, from);
    if (!name || name.next > to) throw compilationError('SEMANTIC_VIEW expects the name of a semantic view first.');
    this.view = host.view(sql.slice(tokens[from]!.start, tokens[name.next - 1]!.end));
    for (const t of this.view.tables) this.tables.set(t.name, t);
    const add = (kind: Kind, list: SemanticViewMember[]) => {
      for (const def of list) {
        const member = { kind, table: def.table, def };
        this.members.set(`${def.table ?? ''}.${def.name}`, member);
        this.byName.set(def.name, [...(this.byName.get(def.name) ?? []), member]);
      }
    };
    add('fact', this.view.facts);
    add('dimension', this.view.dimensions);
    add('metric', this.view.metrics);
    this.parseClauses(name.next);
  }

  private parseClauses(start: number): void {
    const t = this.tokens;
    const clauseAt = (i: number) => isWord(t[i], 'METRICS', 'DIMENSIONS', 'FACTS', 'WHERE');
    let i = start;
    while (i < this.to) {
      if (!clauseAt(i)) throw compilationError(`syntax error: unexpected '${t[i]!.text}' in SEMANTIC_VIEW (expected METRICS, DIMENSIONS, FACTS or WHERE).`);
      const clause = t[i]!.value;
      let end = i + 1;
      let depth = 0;
      while (end < this.to && !(depth === 0 && clauseAt(end))) {
        if (isPunct(t[end], '(')) depth += 1;
        if (isPunct(t[end], ')')) depth -= 1;
        end += 1;
      }
      if (end === i + 1) throw compilationError(`syntax error: ${clause} lists nothing.`);
      if (clause === 'WHERE') this.where = [i + 1, end];
      else {
        const key = clause.toLowerCase() as 'metrics' | 'dimensions' | 'facts';
        if (this.order.includes(key)) throw compilationError(`syntax error: ${clause} appears twice.`);
        this.order.push(key);
        this[key] = splitTopLevel(t, i + 1, end).flatMap(([a, b]) => this.items(a, b, key));
      }
      i = end;
    }
    if (this.metrics.length > 0 && this.facts.length > 0) throw compilationError('A semantic view query cannot ask for METRICS and FACTS together.');
    if (this.metrics.length + this.dimensions.length + this.facts.length === 0) throw compilationError('SEMANTIC_VIEW needs at least one of METRICS, DIMENSIONS or FACTS.');
  }

  /** One listed item (`t.*` expands to the table's public members of the clause's kind). */
  private items(a: number, b: number, clause: 'metrics' | 'dimensions' | 'facts'): Item[] {
    const t = this.tokens;
    if (b - a === 3 && isIdent(t[a]) && isPunct(t[a + 1], '.') && isPunct(t[a + 2], '*')) {
      const table = this.table(t[a]!);
      const kind: Kind = clause === 'metrics' ? 'metric' : clause === 'facts' ? 'fact' : 'dimension';
      return [...this.members.values()].filter((m) => m.kind === kind && m.table === table && m.def.accessModifier !== 'PRIVATE').map((m) => this.memberItem(m, a, b));
    }
    let to = b;
    let column: string | null = null;
    const last = t[b - 1]!;
    if (b - a >= 2 && isIdent(last)) {
      const before = t[b - 2]!;
      if (isWord(before, 'AS')) [to, column] = [b - 2, stored(this.host, last)];
      else if (isIdent(before) || isPunct(before, ')') || before.kind === 'number' || before.kind === 'string') [to, column] = [b - 1, stored(this.host, last)];
    }
    if (to <= a) throw compilationError(`syntax error: an item of ${clause.toUpperCase()} is empty.`);
    const chain = chainAt(t, a);
    if (chain && chain.next === to) {
      const member = this.lookup(chain.parts, true);
      if (member) {
        const expected: Kind = clause === 'metrics' ? 'metric' : clause === 'facts' ? 'fact' : 'dimension';
        const kind: Kind = member.kind;
        if (kind !== expected && !(clause === 'dimensions' && kind === 'fact')) {
          throw compilationError(`Invalid ${clause === 'metrics' ? 'metric' : clause === 'facts' ? 'fact' : 'dimension'} specified: '${this.text(a, to)}' is a ${kind}.`);
        }
        return [this.memberItem(member, a, to, column)];
      }
      throw compilationError(`invalid identifier '${this.text(a, to).toUpperCase()}'`);
    }
    return [{ from: a, to, column: column ?? this.text(a, to).replace(/\s+/g, ' ').toUpperCase() }];
  }

  private memberItem(member: Member, from: number, to: number, alias: string | null = null): Item {
    if (member.def.accessModifier === 'PRIVATE') throw compilationError(`Private ${member.kind} '${member.table}.${member.def.name}' cannot be queried.`);
    return { from, to, column: alias ?? member.def.name };
  }

  private text(a: number, b: number): string {
    return this.sql.slice(this.tokens[a]!.start, this.tokens[b - 1]!.end);
  }

  private table(token: SqlToken): string {
    const name = stored(this.host, token);
    if (!this.tables.has(name)) throw compilationError(`invalid identifier '${name}': no logical table of that name in semantic view ${this.view.name}.`);
    return name;
  }

  /** A member named by `t.x` or an unambiguous `x`; null when the chain names no member. */
  private lookup(parts: SqlToken[], strict: boolean): Member | null {
    if (parts.length === 2) {
      const table = stored(this.host, parts[0]!);
      if (!this.tables.has(table)) return null;
      const member = this.members.get(`${table}.${stored(this.host, parts[1]!)}`);
      if (!member && strict) throw compilationError(`invalid identifier '${table}.${stored(this.host, parts[1]!)}'`);
      return member ?? null;
    }
    if (parts.length !== 1) return null;
    const found = this.byName.get(stored(this.host, parts[0]!)) ?? [];
    if (found.length > 1) throw compilationError(`ambiguous column name '${stored(this.host, parts[0]!)}': qualify it with its logical table.`);
    return found[0] ?? null;
  }

  private relation(table: string): { sql: string; columns: Set<string> } {
    let r = this.relations.get(table);
    if (!r) {
      const found = this.host.relation(this.tables.get(table)!);
      r = { sql: found.sql, columns: new Set(found.columns.map((c) => c.toUpperCase())) };
      this.relations.set(table, r);
    }
    return r;
  }

  // ---- expressions ------------------------------------------------------------------------------

  /**
   * Row-level SQL of a member's expression, owned by `owner` (bare names are its columns); facts and
   * dimensions it names are inlined, metrics too (so same-table metrics compose). `used` collects
   * the logical tables read.
   */
  private memberSql(member: Member, used: Set<string>, stack: string[] = []): string {
    const key = `${member.table ?? ''}.${member.def.name}`;
    if (stack.includes(key)) throw compilationError(`The definition of ${key} refers to itself.`);
    if (member.kind === 'metric' && /\bOVER\s*\(/i.test(member.def.expression)) {
      throw unsupported(`window function metric ${key} is not computed by the local warehouse.`);
    }
    const tokens = tokenizeSql(member.def.expression, '"');
    return rewriteChains(member.def.expression, tokens, 0, tokens.length, (parts, info) => {
      if (info.call || info.afterAs) return null;
      if (parts.length === 2) {
        const table = stored(this.host, parts[0]!);
        if (!this.tables.has(table)) return null;
        const name = stored(this.host, parts[1]!);
        const ref = this.members.get(`${table}.${name}`);
        if (ref && `${table}.${name}` !== key) return { text: `(${this.memberSql(ref, used, [...stack, key])})` };
        used.add(table);
        return { text: `${TABLE_ALIAS(table)}.${duckIdent(name)}` };
      }
      if (parts.length !== 1) return null;
      const name = stored(this.host, parts[0]!);
      if (member.table !== null && this.relation(member.table).columns.has(name.toUpperCase())) {
        used.add(member.table);
        return { text: `${TABLE_ALIAS(member.table)}.${duckIdent(name)}` };
      }
      const ref = this.members.get(`${member.table ?? ''}.${name}`) ?? (member.table === null ? (this.byName.get(name) ?? []).find((m) => m.kind === 'metric') : undefined);
      return ref && `${ref.table ?? ''}.${ref.def.name}` !== key ? { text: `(${this.memberSql(ref, used, [...stack, key])})` } : null;
    });
  }

  /** SQL of a query expression (a listed item or the WHERE), with `onMember` deciding each member's text. */
  private querySql(from: number, to: number, onMember: (member: Member) => string): string {
    return rewriteChains(this.sql, this.tokens, from, to, (parts, info) => {
      if (info.call || info.afterAs) return null;
      const member = this.lookup(parts, false);
      if (!member) {
        if (parts.length === 2 && this.tables.has(stored(this.host, parts[0]!))) throw compilationError(`invalid identifier '${parts.map((p) => stored(this.host, p)).join('.')}'`);
        return null;
      }
      if (member.def.accessModifier === 'PRIVATE') throw compilationError(`Private ${member.kind} '${member.table}.${member.def.name}' cannot be used in a query.`);
      return { text: onMember(member) };
    });
  }

  /** The metrics an expression names, with derived metrics opened up to the table metrics they use. */
  private tableMetricsOf(from: number, to: number): Member[] {
    const found: Member[] = [];
    const visit = (member: Member, seen: string[]) => {
      if (member.table !== null) {
        if (!found.includes(member)) found.push(member);
        return;
      }
      const tokens = tokenizeSql(member.def.expression, '"');
      for (let i = 0; i < tokens.length; i += 1) {
        const chain = chainAt(tokens, i);
        if (!chain) continue;
        const ref = this.lookup(chain.parts, false);
        if (ref?.kind === 'metric' && !seen.includes(ref.def.name)) visit(ref, [...seen, ref.def.name]);
        i = chain.next - 1;
      }
    };
    this.querySql(from, to, (m) => {
      if (m.kind === 'metric') visit(m, [m.def.name]);
      return '';
    });
    return found;
  }

  // ---- planning -------------------------------------------------------------------------------

  /** Tables reachable from `table` along relationships (many-to-one), with the join that reaches each. */
  private reachable(table: string): Map<string, { via: string; on: [string[], string[]] } | null> {
    const out = new Map<string, { via: string; on: [string[], string[]] } | null>([[table, null]]);
    const queue = [table];
    while (queue.length > 0) {
      const current = queue.shift()!;
      for (const r of this.view.relationships) {
        if (r.table !== current || out.has(r.refTable)) continue;
        out.set(r.refTable, { via: current, on: [r.columns, r.refColumns] });
        queue.push(r.refTable);
      }
    }
    return out;
  }

  private fromClause(home: string, used: Set<string>, what: string): string {
    const reach = this.reachable(home);
    const joined = new Set<string>([home]);
    const joins: string[] = [];
    const join = (table: string) => {
      if (joined.has(table)) return;
      const step = reach.get(table);
      if (step === undefined) {
        throw compilationError(
          `Invalid dimension specified: The dimension entity '${table}' must be related to and have an equal or lower level of granularity compared to the base ${what} entity '${home}'.`,
        );
      }
      join(step!.via);
      joined.add(table);
      const on = step!.on[0].map((c, i) => `${TABLE_ALIAS(step!.via)}.${duckIdent(c)} = ${TABLE_ALIAS(table)}.${duckIdent(step!.on[1][i]!)}`).join(' AND ');
      joins.push(`LEFT JOIN ${this.relation(table).sql} AS ${TABLE_ALIAS(table)} ON ${on}`);
    };
    for (const table of used) join(table);
    return [`FROM ${this.relation(home).sql} AS ${TABLE_ALIAS(home)}`, ...joins].join(' ');
  }

  /** The table every other of `tables` is reachable from (the finest grain), for dimension-only and fact queries. */
  private baseOf(tables: Set<string>, what: string): string {
    const candidates = [...tables].filter((t) => [...tables].every((o) => this.reachable(t).has(o)));
    if (candidates.length === 0) {
      const [first, ...rest] = [...tables];
      throw compilationError(`Invalid dimension specified: The ${what} entities '${first}' and '${rest.join("', '")}' are not related through the relationships of semantic view ${this.view.name}.`);
    }
    return candidates[0]!;
  }

  compile(): string {
    const dimUsed = new Set<string>();
    const dims = this.dimensions.map((d) => this.querySql(d.from, d.to, (m) => `(${this.memberSql(m, dimUsed)})`));
    const whereUsed = new Set<string>();
    const where = this.where
      ? this.querySql(this.where[0], this.where[1], (m) => {
          if (m.kind === 'metric') throw compilationError('The WHERE clause of SEMANTIC_VIEW cannot refer to metrics.');
          return `(${this.memberSql(m, whereUsed)})`;
        })
      : null;
    const whereSql = where ? ` WHERE ${where}` : '';
    const columns: { clause: Clause; item: Item }[] = this.order.flatMap((clause) => this[clause].map((item) => ({ clause, item })));
    const dimIndex = (item: Item) => this.dimensions.indexOf(item);

    if (this.metrics.length === 0) {
      const used = new Set([...dimUsed, ...whereUsed]);
      const factUsed = new Set<string>();
      const facts = this.facts.map((f) => this.querySql(f.from, f.to, (m) => `(${this.memberSql(m, factUsed)})`));
      const all = new Set([...used, ...factUsed]);
      const base = this.baseOf(factUsed.size ? factUsed : all, this.facts.length ? 'fact' : 'dimension');
      const select = columns.map(({ clause, item }) => `${clause === 'facts' ? facts[this.facts.indexOf(item)] : dims[dimIndex(item)]} AS ${duckIdent(item.column)}`);
      return `SELECT ${this.facts.length ? '' : 'DISTINCT '}${select.join(', ')} ${this.fromClause(base, all, this.facts.length ? 'fact' : 'dimension')}${whereSql}`;
    }

    // One aggregate query per table whose metrics are asked for, grouped by the dimensions.
    const groups = new Map<string, { used: Set<string>; columns: string[] }>();
    const metricColumn = new Map<string, string>();
    const group = (table: string) => {
      let g = groups.get(table);
      if (!g) groups.set(table, (g = { used: new Set([...dimUsed, ...whereUsed]), columns: [] }));
      return g;
    };
    const place = (member: Member): string => {
      const key = `${member.table}.${member.def.name}`;
      let column = metricColumn.get(key);
      if (!column) {
        const g = group(member.table!);
        column = `m${metricColumn.size}`;
        g.columns.push(`${this.memberSql(member, g.used)} AS ${column}`);
        metricColumn.set(key, column);
      }
      return `${duckIdent(`g_${member.table}`)}.${column}`;
    };
    const finalMetric = (member: Member, seen: string[]): string => {
      if (member.table !== null) return place(member);
      const tokens = tokenizeSql(member.def.expression, '"');
      return rewriteChains(member.def.expression, tokens, 0, tokens.length, (parts, info) => {
        if (info.call) return null;
        const ref = this.lookup(parts, false);
        if (!ref || ref.kind !== 'metric') return null;
        if (seen.includes(ref.def.name)) throw compilationError(`The definition of ${member.def.name} refers to itself.`);
        return { text: `(${finalMetric(ref, [...seen, ref.def.name])})` };
      });
    };
    const metricSql = this.metrics.map((item) => {
      if (this.tableMetricsOf(item.from, item.to).length > 0) return this.querySql(item.from, item.to, (m) => (m.kind === 'metric' ? `(${finalMetric(m, [m.def.name])})` : `(${this.memberSql(m, new Set())})`));
      // An aggregate written in the query over facts or dimensions: computed on the table it reads.
      const used = new Set<string>();
      const expression = this.querySql(item.from, item.to, (m) => `(${this.memberSql(m, used)})`);
      const home = this.baseOf(used.size ? used : new Set(dimUsed), 'metric');
      const g = group(home);
      used.forEach((t) => g.used.add(t));
      const column = `m${metricColumn.size}`;
      metricColumn.set(`#${metricColumn.size}`, column);
      g.columns.push(`${expression} AS ${column}`);
      return `${duckIdent(`g_${home}`)}.${column}`;
    });

    const parts = [...groups].map(([table, g]) => {
      const select = [...dims.map((d, i) => `${d} AS d${i}`), ...g.columns].join(', ');
      const by = dims.length ? ` GROUP BY ${dims.map((_, i) => i + 1).join(', ')}` : '';
      return { alias: duckIdent(`g_${table}`), sql: `SELECT ${select} ${this.fromClause(table, g.used, 'metric')}${whereSql}${by}` };
    });
    let from = `FROM (${parts[0]!.sql}) AS ${parts[0]!.alias}`;
    for (let i = 1; i < parts.length; i += 1) {
      const on = dims.length ? dims.map((_, d) => `${dimAt(parts.slice(0, i), d)} IS NOT DISTINCT FROM ${parts[i]!.alias}.d${d}`).join(' AND ') : 'TRUE';
      from += ` FULL OUTER JOIN (${parts[i]!.sql}) AS ${parts[i]!.alias} ON ${on}`;
    }
    const select = columns.map(({ clause, item }) => `${clause === 'metrics' ? metricSql[this.metrics.indexOf(item)] : dimAt(parts, dimIndex(item))} AS ${duckIdent(item.column)}`);
    return `SELECT ${select.join(', ')} ${from}`;
  }
}

/** A dimension's value across the joined groups (a group without the combination has NULLs). */
function dimAt(parts: { alias: string }[], d: number): string {
  return parts.length === 1 ? `${parts[0]!.alias}.d${d}` : `COALESCE(${parts.map((p) => `${p.alias}.d${d}`).join(', ')})`;
}

export function semanticQueryError(error: unknown): WarehouseError {
  if (error instanceof WarehouseError) return error;
  return new WarehouseError(WarehouseErrorCodes.SYNTAX_ERROR, error instanceof Error ? error.message : String(error));
}
