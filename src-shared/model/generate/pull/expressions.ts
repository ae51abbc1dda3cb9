// Names and expressions of pulled semantic views, warehouse → model: stored names become model
// names (bare upper-case names read back lower-case), columns become model SQL, and member
// expressions are rewritten — `alias.member` to `{cube.member}`, `alias.column` to
// `{cube}.column` — with plain `AGG(arg)` metrics recognised as typed measures.

import { resolvedName, writeIdentifier, type SqlIdentifier } from '../semantic-view/identifiers';
import type { DescribedTable } from './describe-rows';

export const MODEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/** Stored warehouse name → model name: upper-case names (from bare identifiers) read back lower-case. */
export function modelNameOf(stored: string): string {
  const base = /^[A-Z_][A-Z0-9_$]*$/.test(stored) ? stored.toLowerCase() : stored;
  if (MODEL_IDENTIFIER.test(base)) return base;
  const cleaned = base.replace(/[^_a-zA-Z0-9]+/g, '_').replace(/^([0-9])/, '_$1');
  return cleaned.length > 0 ? cleaned : '_';
}

/** A stored column name as model SQL text: bare lower-case when that resolves to it, else quoted. */
export function columnSql(stored: string): string {
  return /^[A-Z_][A-Z0-9_$]*$/.test(stored) ? stored.toLowerCase() : writeIdentifier({ text: stored, quoted: true });
}

export class NamePool {
  private readonly used = new Set<string>();
  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.used.add(name.toLowerCase());
  }
  has(name: string): boolean {
    return this.used.has(name.toLowerCase());
  }
  /** The first free name among `candidates`, then `<last>_2`, `<last>_3`, … */
  take(...candidates: string[]): string {
    for (const candidate of candidates) {
      if (!this.has(candidate)) {
        this.used.add(candidate.toLowerCase());
        return candidate;
      }
    }
    const last = candidates[candidates.length - 1]!;
    for (let n = 2; ; n++) {
      const name = `${last}_${n}`;
      if (!this.has(name)) {
        this.used.add(name.toLowerCase());
        return name;
      }
    }
  }
}

// ---- expressions ----------------------------------------------------------------------------------

export type Token = { kind: 'word' | 'quoted' | 'string' | 'other'; text: string };

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "'") {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === '\\') j += 2;
        else if (sql[j] === "'" && sql[j + 1] === "'") j += 2;
        else if (sql[j] === "'") break;
        else j++;
      }
      tokens.push({ kind: 'string', text: sql.slice(i, j + 1) });
      i = j + 1;
    } else if (ch === '"') {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === '"' && sql[j + 1] !== '"')) j += sql[j] === '"' ? 2 : 1;
      tokens.push({ kind: 'quoted', text: sql.slice(i, j + 1) });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1;
      while (j < sql.length && /[\w$]/.test(sql[j]!)) j++;
      tokens.push({ kind: 'word', text: sql.slice(i, j) });
      i = j;
    } else {
      tokens.push({ kind: 'other', text: ch });
      i++;
    }
  }
  return tokens;
}

export const identifierOf = (token: Token): SqlIdentifier | null =>
  token.kind === 'word' ? { text: token.text, quoted: false } : token.kind === 'quoted' ? { text: token.text.slice(1, -1).replace(/""/g, '"'), quoted: true } : null;

export interface CubePlan {
  table: DescribedTable;
  cubeName: string;
  /** Stored member name → model member name. */
  members: Map<string, string>;
}

export interface ExpressionContext {
  /** The table the member belongs to; null for a derived metric (view level). */
  owner: CubePlan | null;
  /** Stored name of the member whose expression this is: naming itself means its column. */
  self: string | null;
  /** Stored table name → plan. */
  tables: Map<string, CubePlan>;
  qiic: boolean;
  /** Derived metrics by stored name → their model SQL, inlined where a derived metric names another. */
  derived?: Map<string, string>;
}

/**
 * Warehouse expression → model SQL: `alias.member` becomes `{CUBE.member}` / `{cube.member}`,
 * `alias.column` becomes `{CUBE}.column` / `{cube}.column`; everything else is kept as written.
 */
export function toModelSql(expression: string, ctx: ExpressionContext): { sql: string; memberRefs: string[] } {
  const tokens = tokenize(expression);
  const out: string[] = [];
  const memberRefs: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const dot = tokens[i + 1];
    const next = tokens[i + 2];
    const previous = tokens[i - 1];
    const qualifier = identifierOf(token);
    if (qualifier && dot?.text === '.' && next && identifierOf(next) && previous?.text !== '.') {
      const plan = ctx.tables.get(resolvedName(qualifier, ctx.qiic));
      if (plan) {
        const target = identifierOf(next)!;
        const stored = resolvedName(target, ctx.qiic);
        const self = plan === ctx.owner;
        // Qualified names mean a member of that table first (never the member itself), then a column.
        const member = self && stored === ctx.self ? undefined : plan.members.get(stored);
        if (member !== undefined) {
          out.push(`{${self ? 'CUBE' : plan.cubeName}.${member}}`);
          memberRefs.push(`${plan.cubeName}.${member}`);
        } else {
          out.push(`{${self ? 'CUBE' : plan.cubeName}}.${target.quoted ? next.text : target.text}`);
        }
        i += 2;
        continue;
      }
    }
    const inlined = qualifier && dot?.text !== '.' && previous?.text !== '.' ? ctx.derived?.get(resolvedName(qualifier, ctx.qiic)) : undefined;
    out.push(inlined !== undefined ? `(${inlined})` : token.text);
  }
  return { sql: out.join(''), memberRefs };
}

const AGGREGATES = new Set(['SUM', 'AVG', 'MIN', 'MAX', 'COUNT']);

/** `AGG(arg)` as the whole expression → the measure type and argument; null for anything else. */
export function simpleAggregate(expression: string): { type: string; argument: string | null } | null {
  const m = /^\s*([A-Za-z_]+)\s*\(([\s\S]*)\)\s*$/.exec(expression);
  if (!m || !AGGREGATES.has(m[1]!.toUpperCase())) return null;
  const inner = m[2]!;
  // The closing parenthesis must close the aggregate's own call: `SUM(a) / SUM(b)` is not one aggregate.
  let depth = 0;
  for (const token of tokenize(inner)) {
    if (token.text === '(') depth++;
    else if (token.text === ')' && --depth < 0) return null;
  }
  if (depth !== 0) return null;
  const fn = m[1]!.toUpperCase();
  const distinct = /^\s*DISTINCT\s+([\s\S]+)$/i.exec(inner);
  if (fn === 'COUNT') {
    if (/^\s*(\*|1)\s*$/.test(inner)) return { type: 'count', argument: null };
    if (distinct) return { type: 'count_distinct', argument: distinct[1]!.trim() };
    return { type: 'count', argument: inner.trim() };
  }
  if (distinct) return null;
  return { type: fn.toLowerCase(), argument: inner.trim() };
}

export function dimensionType(dataType: string | null): 'string' | 'number' | 'time' | 'boolean' {
  const t = (dataType ?? '').toUpperCase();
  if (/^(NUMBER|DECIMAL|NUMERIC|INT|INTEGER|BIGINT|SMALLINT|TINYINT|BYTEINT|FLOAT|FLOAT4|FLOAT8|DOUBLE|REAL)/.test(t)) return 'number';
  if (/^(DATE|DATETIME|TIME|TIMESTAMP)/.test(t)) return 'time';
  if (/^BOOLEAN/.test(t)) return 'boolean';
  return 'string';
}
