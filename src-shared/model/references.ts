// Reference syntax inside SQL snippets: `{CUBE}`, `{member}`, `{cube.member}`, `{CUBE.member}`,
// `{cube.member.granularity}`, `{a.b.member}` (join path), `{cube.sql()}`; context variables
// (`{SECURITY_CONTEXT...}`, `{FILTER_PARAMS...}`, ...) are runtime values, Jinja (`{{ }}`, `{% %}`) is templating.

export interface SqlReference {
  path: string[];
  /** `{cube.sql()}`: reuse of another cube's SQL. */
  sqlCall: boolean;
}

export interface SqlScan {
  refs: SqlReference[];
  /** Jinja templating inside the SQL. */
  templated: boolean;
  /** Runtime context variables (security context, filter params): SQL that is not static. */
  contextual: boolean;
  /**
   * References cut short after a dot (`{customers.}`, `{CUBE.id.}`, `{.}`), as written.
   * The platform parses a YAML reference as an expression and refuses these; in JavaScript models the
   * same text is a syntax error of `${…}` or literal text.
   */
  incomplete: string[];
  /** A cube written as a table with a dot and no column after it (`{CUBE}.`), as written. */
  danglingDots: string[];
}

export const CONTEXT_VARIABLES = new Set([
  'SECURITY_CONTEXT',
  'security_context',
  'securityContext',
  'FILTER_PARAMS',
  'FILTER_GROUP',
  'COMPILE_CONTEXT',
  'SQL_UTILS',
  'sql_utils',
  'sqlUtils',
]);

const BRACE = /\{([^{}]*)\}/g;
const PATH = /^\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(\.sql\(\))?\s*$/;
const CONTEXT_HEAD = /^\s*([A-Za-z_]\w*)/;

const scanCache = new Map<string, SqlScan>();
const NO_REFS: SqlScan = { refs: [], templated: false, contextual: false, incomplete: [], danglingDots: [] };
const INCOMPLETE = /^[A-Za-z_.][\w.]*$/;
// `{CUBE}.` followed by no column: end of text, a space before no name, punctuation.
const DANGLING_DOT = /\{\s*[A-Za-z_]\w*\s*\}\.(?!\s*[\w"`[{$*])/g;

export function scanSql(sql: string): SqlScan {
  if (!sql.includes('{')) return NO_REFS;
  const cached = scanCache.get(sql);
  if (cached) return cached;
  const templated = /\{\{|\{%|\{#/.test(sql);
  const text = templated ? sql.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g, ' ') : sql;
  const refs: SqlReference[] = [];
  const incomplete: string[] = [];
  let contextual = false;
  BRACE.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = BRACE.exec(text))) {
    const inner = m[1]!;
    const head = CONTEXT_HEAD.exec(inner)?.[1];
    if (head && CONTEXT_VARIABLES.has(head)) {
      contextual = true;
      continue;
    }
    const p = PATH.exec(inner);
    if (p) refs.push({ path: p[1]!.split('.'), sqlCall: !!p[2] });
    else {
      const t = inner.trim();
      if (INCOMPLETE.test(t) && t.endsWith('.')) incomplete.push(m[0]);
    }
  }
  const danglingDots = [...text.matchAll(DANGLING_DOT)].map((d) => d[0]);
  // Context variables whose arguments contain braces or parentheses are not matched above.
  if (!contextual && /\{\s*(SECURITY_CONTEXT|security_context|securityContext|FILTER_PARAMS|FILTER_GROUP|COMPILE_CONTEXT|SQL_UTILS|sql_utils|sqlUtils)\b/.test(text)) {
    contextual = true;
  }
  const scan = { refs, templated, contextual, incomplete, danglingDots };
  if (scanCache.size > 50_000) scanCache.clear();
  scanCache.set(sql, scan);
  return scan;
}

/** Column name when the SQL is just a column of the cube (`id`, `"id"`, `{CUBE}.id`, `{CUBE}."id"`), else null. */
export function plainColumn(sql: string | undefined): string | null {
  if (!sql) return null;
  const m = /^\s*(?:\{(?:CUBE|TABLE)\}\.|(?:CUBE|TABLE)\.)?("?)([A-Za-z_][\w$]*)\1\s*$/.exec(sql);
  return m ? m[2]! : null;
}

/** Member named by a SQL that is exactly one self reference (`{CUBE.x}`, `{x}`), else null. */
export function selfMemberReference(sql: string | undefined, cubeName: string): string | null {
  if (!sql) return null;
  const m = /^\s*\{\s*(?:(CUBE|[A-Za-z_]\w*)\.)?([A-Za-z_]\w*)\s*\}\s*$/.exec(sql);
  if (!m) return null;
  if (m[1] && m[1] !== 'CUBE' && m[1] !== cubeName) return null;
  return m[2]!;
}

export interface EquiSide {
  /** Cube as written (`CUBE` means the declaring cube). */
  cube: string;
  member?: string;
  column?: string;
}

const SIDE_PATTERNS: { re: RegExp; build: (m: RegExpExecArray) => EquiSide }[] = [
  // {cube.member}
  { re: /^\{\s*([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*\}$/, build: (m) => ({ cube: m[1]!, member: m[2]! }) },
  // {cube}.column / {cube}."column"
  { re: /^\{\s*([A-Za-z_]\w*)\s*\}\.("?)([A-Za-z_][\w$]*)\2$/, build: (m) => ({ cube: m[1]!, column: m[3]! }) },
  // CUBE.column (legacy unbraced self reference)
  { re: /^(CUBE)\.("?)([A-Za-z_][\w$]*)\2$/, build: (m) => ({ cube: m[1]!, column: m[3]! }) },
];

function parseSide(text: string): EquiSide | null {
  const t = stripParens(text.trim());
  for (const { re, build } of SIDE_PATTERNS) {
    const m = re.exec(t);
    if (m) return build(m);
  }
  return null;
}

function stripParens(text: string): string {
  let t = text.trim();
  while (t.startsWith('(') && t.endsWith(')') && balanced(t.slice(1, -1))) t = t.slice(1, -1).trim();
  return t;
}

function balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * Column pairs of a join SQL made only of `a = b` equalities joined by AND, each side a column or member of
 * the declaring cube (`CUBE` / its name) or of the joined cube. Anything else (OR, functions, inequalities,
 * literals) is not an equi-join: null.
 */
export function parseEquiJoin(sql: string, sourceCube: string, targetCube: string): { source: EquiSide; target: EquiSide }[] | null {
  const body = stripParens(sql);
  if (!body) return null;
  const parts = body.split(/\s+AND\s+/i);
  const pairs: { source: EquiSide; target: EquiSide }[] = [];
  for (const part of parts) {
    const eq = stripParens(part);
    const idx = eq.indexOf('=');
    if (idx <= 0 || eq.indexOf('=', idx + 1) >= 0 || /[<>!]$/.test(eq.slice(0, idx))) return null;
    const left = parseSide(eq.slice(0, idx));
    const right = parseSide(eq.slice(idx + 1));
    if (!left || !right) return null;
    const isSource = (s: EquiSide) => s.cube === 'CUBE' || s.cube === sourceCube;
    const isTarget = (s: EquiSide) => s.cube === targetCube && s.cube !== sourceCube;
    if (isSource(left) && isTarget(right)) pairs.push({ source: left, target: right });
    else if (isSource(right) && isTarget(left)) pairs.push({ source: right, target: left });
    else return null;
  }
  return pairs;
}
