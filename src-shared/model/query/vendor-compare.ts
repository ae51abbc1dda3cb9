// "What I pushed gives the numbers my model gives": a vendor statement over a pushed semantic view
// (Snowflake `SEMANTIC_VIEW(...)`) or a published metric view (Databricks `MEASURE()`) turned into the
// equivalent model query over the model view it came from, and the two results compared row by row.
// Pure: the renderer plans the comparison, runs both queries through the API and shows the outcome.
//
// What is compared: each result column must be a member of the model view (Snowflake names the
// column after the member, upper-cased: REVENUE; Databricks writes `measure(revenue)`), and the
// WHERE conditions must be simple ones the model query can express as filters (member op value,
// IN, IS [NOT] NULL, joined by AND). Anything else is refused with the reason, never guessed.

import type { FilterOperator, MemberFilter } from './types';

export interface ComparedViewMember {
  /** Short name inside the view, e.g. `order_status`. */
  name: string;
  kind: 'measure' | 'dimension';
  /** Model type: `number`, `string`, `time`, `boolean`, … */
  type: string;
}

/** The model view a pushed object came from, with its members (short names). */
export interface ComparedView {
  name: string;
  members: ComparedViewMember[];
}

export interface ComparedColumn {
  /** Column name as the vendor answered it. */
  column: string;
  /** Model member, `view.member`. */
  member: string;
  kind: 'measure' | 'dimension';
  type: string;
}

export interface ComparisonPlan {
  /** The equivalent model query (REST query format). */
  query: { measures: string[]; dimensions: string[]; filters?: MemberFilter[]; limit: number };
  columns: ComparedColumn[];
  /** The statement has a LIMIT: model rows it does not show are not counted as missing. */
  vendorLimited: boolean;
}

export interface RowDifference {
  key: Record<string, string>;
  column: string;
  vendor: string | null;
  model: string | null;
}

export interface ComparisonOutcome {
  matches: boolean;
  vendorRows: number;
  modelRows: number;
  matchingRows: number;
  /** Rows found on both sides whose numbers differ (their differences: the first 50 in `differences`). */
  differingRows: number;
  differences: RowDifference[];
  /** Rows on one side only (the first 50 of each listed below). */
  onlyInVendorCount: number;
  onlyInModelCount: number;
  onlyInVendor: Record<string, string>[];
  onlyInModel: Record<string, string>[];
}

/** Rows the model query may return for a comparison (the vendor answer carries at most 10,000). */
export const COMPARISON_ROW_LIMIT = 10_000;
const SHOWN = 50;

// ---- tokens ----------------------------------------------------------------------------------------

type Token = { kind: 'word' | 'ident' | 'string' | 'number' | 'punct' | 'param'; text: string; upper: string };

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const push = (kind: Token['kind'], text: string) => tokens.push({ kind, text, upper: text.toUpperCase() });
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) i++;
    else if (c === '-' && sql[i + 1] === '-') while (i < sql.length && sql[i] !== '\n') i++;
    else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let text = '';
      for (;;) {
        if (j >= sql.length) throw new Error(`a ${c === "'" ? 'string' : 'quoted name'} is not closed`);
        if (sql[j] === c && sql[j + 1] === c) {
          text += c;
          j += 2;
        } else if (sql[j] === c) break;
        else text += sql[j++];
      }
      push(c === "'" ? 'string' : 'ident', text);
      i = j + 1;
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      const m = /^[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?/.exec(sql.slice(i))!;
      push('number', m[0]);
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))!;
      push('word', m[0]);
      i += m[0].length;
    } else if (c === '?') {
      push('param', c);
      i++;
    } else {
      const two = sql.slice(i, i + 2);
      const op = ['<=', '>=', '<>', '!='].includes(two) ? two : c;
      push('punct', op);
      i += op.length;
    }
  }
  return tokens;
}

const isWord = (t: Token | undefined, ...words: string[]) => t !== undefined && t.kind === 'word' && words.includes(t.upper);
const isPunct = (t: Token | undefined, p: string) => t !== undefined && t.kind === 'punct' && t.text === p;

/** A dotted name starting at `i`: its parts and the index after it. */
function dottedName(tokens: Token[], i: number): { parts: string[]; next: number } | null {
  const first = tokens[i];
  if (!first || (first.kind !== 'word' && first.kind !== 'ident')) return null;
  const parts = [first.text];
  let j = i + 1;
  while (isPunct(tokens[j], '.') && (tokens[j + 1]?.kind === 'word' || tokens[j + 1]?.kind === 'ident')) {
    parts.push(tokens[j + 1]!.text);
    j += 2;
  }
  return { parts, next: j };
}

/** The object a statement reads: the view inside `SEMANTIC_VIEW(...)`, else the first `FROM` name. */
export function vendorSqlTarget(sql: string): string | null {
  let tokens: Token[];
  try {
    tokens = tokenize(sql);
  } catch {
    return null;
  }
  for (let i = 0; i < tokens.length; i++) {
    if (isWord(tokens[i], 'SEMANTIC_VIEW') && isPunct(tokens[i + 1], '(')) return dottedName(tokens, i + 2)?.parts.join('.') ?? null;
  }
  for (let i = 0; i < tokens.length; i++) {
    if (isWord(tokens[i], 'FROM')) return dottedName(tokens, i + 1)?.parts.join('.') ?? null;
  }
  return null;
}

/** Whether `target` (as written in a statement) names `qualified` (case-insensitive; a shorter name matches its tail). */
export function sameObjectName(target: string, qualified: string): boolean {
  const a = target.toLowerCase().split('.');
  const b = qualified.toLowerCase().split('.');
  if (a.length > b.length) return false;
  return a.every((part, k) => part === b[b.length - a.length + k]);
}

// ---- WHERE → filters -------------------------------------------------------------------------------

/** The token ranges of WHERE clauses: inside `SEMANTIC_VIEW(...)` and the statement's own. */
function whereClauses(tokens: Token[]): Token[][] {
  const clauses: Token[][] = [];
  const STOP = ['GROUP', 'ORDER', 'LIMIT', 'HAVING', 'QUALIFY', 'METRICS', 'DIMENSIONS', 'FACTS', 'UNION', 'WINDOW'];
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (isWord(t, 'WHERE')) {
      const start = depth;
      const clause: Token[] = [];
      let j = i + 1;
      let d = depth;
      for (; j < tokens.length; j++) {
        const u = tokens[j]!;
        if (isPunct(u, '(')) d++;
        if (isPunct(u, ')')) {
          if (d === start) break;
          d--;
        }
        if (d === start && (isWord(u, ...STOP) || isPunct(u, ';'))) break;
        clause.push(u);
      }
      clauses.push(clause);
      i = j - 1;
    }
  }
  return clauses;
}

const COMPARISONS: Record<string, [FilterOperator, FilterOperator]> = {
  // [for numbers and strings, for times]
  '=': ['equals', 'equals'],
  '<>': ['notEquals', 'notEquals'],
  '!=': ['notEquals', 'notEquals'],
  '>': ['gt', 'afterDate'],
  '>=': ['gte', 'afterOrOnDate'],
  '<': ['lt', 'beforeDate'],
  '<=': ['lte', 'beforeOrOnDate'],
};

class Refusal extends Error {}

function filtersOf(clause: Token[], view: ComparedView, params: unknown[], nextParam: { i: number }): MemberFilter[] {
  const text = () => clause.map((t) => t.text).join(' ');
  const refuse = (why: string) => {
    throw new Refusal(`${why} (in WHERE ${text()}). Compare understands conditions like member = 'value', <>, <, <=, >, >=, IN (…), IS [NOT] NULL, joined by AND.`);
  };
  const value = (t: Token | undefined): string | null => {
    if (!t) return refuse('A condition has no value');
    if (t.kind === 'string' || t.kind === 'number') return t.text;
    if (t.kind === 'param') {
      const v = params[nextParam.i++];
      return v === null || v === undefined ? null : String(v);
    }
    if (isWord(t, 'TRUE', 'FALSE')) return t.upper.toLowerCase();
    return refuse(`"${t.text}" is not a plain value`);
  };
  const filters: MemberFilter[] = [];
  let i = 0;
  while (i < clause.length) {
    const name = dottedName(clause, i);
    if (!name) refuse(`"${clause[i]!.text}" is not a member name`);
    const short = name!.parts[name!.parts.length - 1]!.toLowerCase();
    const member = view.members.find((m) => m.name.toLowerCase() === short);
    if (!member) refuse(`"${name!.parts.join('.')}" is not a member of model view ${view.name}`);
    if (member!.kind !== 'dimension') refuse(`"${member!.name}" is a measure; the model query filters dimensions before aggregating`);
    const full = `${view.name}.${member!.name}`;
    i = name!.next;
    const op = clause[i];
    if (isWord(op, 'IS')) {
      const negated = isWord(clause[i + 1], 'NOT');
      if (!isWord(clause[i + (negated ? 2 : 1)], 'NULL')) refuse('IS must be followed by [NOT] NULL');
      filters.push({ member: full, operator: negated ? 'set' : 'notSet' });
      i += negated ? 3 : 2;
    } else if (isWord(op, 'IN') || (isWord(op, 'NOT') && isWord(clause[i + 1], 'IN'))) {
      const negated = isWord(op, 'NOT');
      i += negated ? 2 : 1;
      if (!isPunct(clause[i], '(')) refuse('IN needs a list in parentheses');
      const values: string[] = [];
      i++;
      while (!isPunct(clause[i], ')')) {
        const v = value(clause[i]);
        if (v === null) refuse('IN lists compare with NULL values');
        values.push(v!);
        i++;
        if (isPunct(clause[i], ',')) i++;
        else if (!isPunct(clause[i], ')')) refuse('an IN list is not closed');
      }
      i++;
      filters.push({ member: full, operator: negated ? 'notEquals' : 'equals', values });
    } else if (op && op.kind === 'punct' && COMPARISONS[op.text]) {
      const [plain, time] = COMPARISONS[op.text]!;
      let v: string | null;
      if (isPunct(clause[i + 1], '-') && clause[i + 2]?.kind === 'number') {
        v = `-${clause[i + 2]!.text}`;
        i += 3;
      } else {
        v = value(clause[i + 1]);
        i += 2;
      }
      if (v === null) refuse('a comparison with NULL is never true');
      filters.push({ member: full, operator: member!.type === 'time' ? time : plain, values: [v!] });
    } else refuse(`"${op?.text ?? 'the end'}" is not a comparison Compare understands`);
    if (i < clause.length) {
      if (!isWord(clause[i], 'AND')) refuse(`"${clause[i]!.text}" joins conditions; only AND is compared`);
      i++;
    }
  }
  return filters;
}

/**
 * The model query equivalent to a vendor statement whose answer had `columns`, over `view`; or
 * why it cannot be compared (a column that is not a member, a WHERE the model cannot express).
 */
export function planModelComparison(input: { sql: string; params?: unknown[]; columns: string[]; view: ComparedView }): ComparisonPlan | { problem: string } {
  const { view } = input;
  let tokens: Token[];
  try {
    tokens = tokenize(input.sql);
  } catch (error) {
    return { problem: `The statement does not parse: ${(error as Error).message}.` };
  }
  if (tokens.some((t) => t.kind === 'param') && !input.params) return { problem: 'The statement has ? parameters but none were given.' };
  const columns: ComparedColumn[] = [];
  for (const column of input.columns) {
    const inner = /^measure\((.+)\)$/i.exec(column.trim())?.[1] ?? column;
    const short = inner.split('.').pop()!.replace(/^[`"]|[`"]$/g, '').toLowerCase();
    const member = view.members.find((m) => m.name.toLowerCase() === short);
    if (!member) return { problem: `Column "${column}" is not a member of model view ${view.name}, so there is nothing in the model to compare it with (aliases and expressions are not compared).` };
    columns.push({ column, member: `${view.name}.${member.name}`, kind: member.kind, type: member.type });
  }
  if (!columns.some((c) => c.kind === 'measure')) return { problem: 'The answer has no measure column: there are no numbers to compare.' };
  let filters: MemberFilter[] = [];
  try {
    const next = { i: 0 };
    for (const clause of whereClauses(tokens)) filters = filters.concat(filtersOf(clause, view, input.params ?? [], next));
  } catch (error) {
    if (error instanceof Refusal) return { problem: error.message };
    throw error;
  }
  const query: ComparisonPlan['query'] = {
    measures: columns.filter((c) => c.kind === 'measure').map((c) => c.member),
    dimensions: columns.filter((c) => c.kind === 'dimension').map((c) => c.member),
    limit: COMPARISON_ROW_LIMIT,
  };
  if (filters.length) query.filters = filters;
  let depth = 0;
  let vendorLimited = false;
  for (const t of tokens) {
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && isWord(t, 'LIMIT', 'FETCH', 'TOP')) vendorLimited = true;
  }
  return { query, columns, vendorLimited };
}

// ---- comparing rows --------------------------------------------------------------------------------

/** A cell as a comparable key part: times to `YYYY-MM-DDTHH:MM:SS`, numbers canonical, null as ∅. */
function keyPart(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  const text = String(value);
  const time = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}:\d{2})(?:\.\d+)?)?(?:Z|[+-]00(?::?00)?)?$/.exec(text);
  if (time) return `${time[1]}T${time[2] ?? '00:00:00'}`;
  if (typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))) return String(Number(value));
  return text;
}

/** Equal to about 6 significant digits (vendors round decimals and averages differently), or both empty. */
export function sameNumber(a: unknown, b: unknown): boolean {
  const empty = (v: unknown) => v === null || v === undefined || v === '';
  if (empty(a) || empty(b)) return empty(a) && empty(b);
  const x = Number(a);
  const y = Number(b);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return String(a) === String(b);
  return Math.abs(x - y) <= Math.max(1e-4, 1e-6 * Math.max(Math.abs(x), Math.abs(y)));
}

const shown = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** Rows of the vendor's answer against the model query's, matched on the dimension columns. */
export function compareResults(plan: ComparisonPlan, vendorRows: Record<string, unknown>[], modelRows: Record<string, unknown>[]): ComparisonOutcome {
  const dims = plan.columns.filter((c) => c.kind === 'dimension');
  const measures = plan.columns.filter((c) => c.kind === 'measure');
  const keyOf = (row: Record<string, unknown>, side: 'vendor' | 'model') => dims.map((d) => keyPart(row[side === 'vendor' ? d.column : d.member])).join('\u0000');
  const labelOf = (row: Record<string, unknown>, side: 'vendor' | 'model') => Object.fromEntries(dims.map((d) => [d.member, keyPart(row[side === 'vendor' ? d.column : d.member])]));
  const model = new Map<string, Record<string, unknown>>();
  for (const row of modelRows) model.set(keyOf(row, 'model'), row);
  const seen = new Set<string>();
  const differences: RowDifference[] = [];
  const onlyInVendor: Record<string, string>[] = [];
  let matchingRows = 0;
  let differing = 0;
  for (const row of vendorRows) {
    const key = keyOf(row, 'vendor');
    const other = model.get(key);
    if (!other) {
      onlyInVendor.push(labelOf(row, 'vendor'));
      continue;
    }
    seen.add(key);
    const wrong = measures.filter((m) => !sameNumber(row[m.column], other[m.member]));
    if (wrong.length === 0) matchingRows++;
    else {
      differing++;
      for (const m of wrong) if (differences.length < SHOWN) differences.push({ key: labelOf(row, 'vendor'), column: m.column, vendor: shown(row[m.column]), model: shown(other[m.member]) });
    }
  }
  const onlyInModel = plan.vendorLimited ? [] : modelRows.filter((r) => !seen.has(keyOf(r, 'model'))).map((r) => labelOf(r, 'model'));
  return {
    matches: differing === 0 && onlyInVendor.length === 0 && onlyInModel.length === 0,
    vendorRows: vendorRows.length,
    modelRows: modelRows.length,
    matchingRows,
    differingRows: differing,
    differences,
    onlyInVendorCount: onlyInVendor.length,
    onlyInModelCount: onlyInModel.length,
    onlyInVendor: onlyInVendor.slice(0, SHOWN),
    onlyInModel: onlyInModel.slice(0, SHOWN),
  };
}
