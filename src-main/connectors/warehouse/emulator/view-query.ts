/**
 * What the emulator needs from the query of a CREATE VIEW without fully parsing SELECT: the
 * tables it reads (to check they exist and are readable) and, where plainly derivable, the names
 * of its output columns (so a semantic view over a helper view can validate column references).
 */
import { RESERVED_KEYWORDS } from '../identifiers';
import type { Identifier, Token } from './ddl-parser';

export interface FromItem {
  table: Identifier[];
  alias: Identifier | null;
}

export type ViewOutput =
  | { kind: 'column'; name: Identifier; source: Identifier[] | null }
  | { kind: 'star'; qualifier: Identifier | null };

export interface ViewQueryAnalysis {
  /** Every table or view named after FROM or JOIN, common table expressions excluded. */
  tableRefs: Identifier[][];
  /** The FROM items of the outermost SELECT. */
  topLevelFrom: FromItem[];
  /** The outermost SELECT's output list, or null when it cannot be derived without a full parser. */
  outputs: ViewOutput[] | null;
}

/** Words that end a FROM item (so they are never read as its alias). */
const FROM_ITEM_TERMINATORS = new Set([
  'WHERE', 'GROUP', 'HAVING', 'QUALIFY', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'UNION', 'EXCEPT', 'MINUS', 'INTERSECT', 'WINDOW', 'JOIN',
  'INNER', 'LEFT', 'RIGHT', 'FULL', 'CROSS', 'NATURAL', 'ON', 'USING', 'LATERAL', 'SAMPLE', 'TABLESAMPLE', 'PIVOT', 'UNPIVOT',
  'MATCH_RECOGNIZE', 'AT', 'BEFORE', 'CHANGES', 'CONNECT', 'START', 'ASOF',
]);
const CLAUSE_ENDS_FROM = new Set(['WHERE', 'GROUP', 'HAVING', 'QUALIFY', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'UNION', 'EXCEPT', 'MINUS', 'INTERSECT', 'WINDOW']);
/** Words after which `(` opens a call rather than a group, though they are reserved. */
const RESERVED_FUNCTIONS = new Set(['LEFT', 'RIGHT', 'CAST', 'TRY_CAST', 'CURRENT_DATE', 'CURRENT_TIMESTAMP', 'CURRENT_TIME']);

const isWord = (token: Token | undefined, word: string): boolean => token?.kind === 'word' && token.value === word;
const isPunct = (token: Token | undefined, punct: string): boolean => token?.kind === 'punct' && token.value === punct;
const isIdentifierToken = (token: Token | undefined): boolean =>
  !!token && ((token.kind === 'word' && !RESERVED_KEYWORDS.has(token.value)) || (token.kind === 'quoted' && token.value.length > 0));
const toIdentifier = (token: Token): Identifier => ({
  text: token.kind === 'quoted' ? token.value : token.text,
  quoted: token.kind === 'quoted',
  pos: { line: token.line, column: token.column, offset: token.offset },
});

export function analyzeViewQuery(tokens: Token[]): ViewQueryAnalysis {
  const tableRefs: Identifier[][] = [];
  const topLevelFrom: FromItem[] = [];
  const cteNames = new Set<string>();
  const contexts: ('call' | 'group')[] = [];
  const inFrom: boolean[] = [false];

  /** Reads `name[.name[.name]] [[AS] alias]` at `start`; returns the index after it. */
  const readFromItem = (start: number, depth: number): number => {
    if (!isIdentifierToken(tokens[start])) return start;
    const parts = [toIdentifier(tokens[start])];
    let i = start + 1;
    while (isPunct(tokens[i], '.') && isIdentifierToken(tokens[i + 1]) && parts.length < 3) {
      parts.push(toIdentifier(tokens[i + 1]));
      i += 2;
    }
    if (isPunct(tokens[i], '(')) return start; // a table function, not a table
    let alias: Identifier | null = null;
    if (isWord(tokens[i], 'AS') && isIdentifierToken(tokens[i + 1])) {
      alias = toIdentifier(tokens[i + 1]);
      i += 2;
    } else if (isIdentifierToken(tokens[i]) && !(tokens[i].kind === 'word' && FROM_ITEM_TERMINATORS.has(tokens[i].value))) {
      alias = toIdentifier(tokens[i]);
      i += 1;
    }
    tableRefs.push(parts);
    if (depth === 0) topLevelFrom.push({ table: parts, alias });
    return i;
  };

  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i];
    const depth = contexts.length;
    if (isPunct(token, '(')) {
      const previous = tokens[i - 1];
      const call =
        (previous?.kind === 'word' && (!RESERVED_KEYWORDS.has(previous.value) || RESERVED_FUNCTIONS.has(previous.value))) || previous?.kind === 'quoted';
      contexts.push(call ? 'call' : 'group');
      inFrom.push(false);
      continue;
    }
    if (isPunct(token, ')')) {
      contexts.pop();
      inFrom.pop();
      continue;
    }
    if (contexts[contexts.length - 1] === 'call') continue; // EXTRACT(x FROM y), TRIM(a FROM b): not tables
    // Common table expressions: `name AS (` or `name (columns) AS (`.
    if (isIdentifierToken(token) && isWord(tokens[i + 1], 'AS') && isPunct(tokens[i + 2], '(')) {
      cteNames.add(toIdentifier(token).text.toUpperCase());
      continue;
    }
    if (token.kind !== 'word' && !isPunct(token, ',')) continue;
    if (isWord(token, 'FROM') && !isWord(tokens[i - 1], 'DISTINCT')) {
      inFrom[depth] = true;
      i = readFromItem(i + 1, depth) - 1;
      continue;
    }
    if (isWord(token, 'JOIN')) {
      i = readFromItem(i + 1, depth) - 1;
      continue;
    }
    if (isPunct(token, ',') && inFrom[depth]) {
      i = readFromItem(i + 1, depth) - 1;
      continue;
    }
    if (token.kind === 'word' && CLAUSE_ENDS_FROM.has(token.value)) inFrom[depth] = false;
  }

  const isCte = (parts: Identifier[]): boolean => parts.length === 1 && cteNames.has(parts[0].text.toUpperCase());
  return {
    tableRefs: tableRefs.filter((parts) => !isCte(parts)),
    topLevelFrom: topLevelFrom.filter((item) => !isCte(item.table)),
    outputs: deriveOutputs(tokens),
  };
}

function deriveOutputs(tokens: Token[]): ViewOutput[] | null {
  // The outermost SELECT is the first one at depth 0 (CTE bodies sit inside parentheses).
  let depth = 0;
  let start = -1;
  for (let i = 0; i < tokens.length; i += 1) {
    if (isPunct(tokens[i], '(')) depth += 1;
    else if (isPunct(tokens[i], ')')) depth -= 1;
    else if (depth === 0 && isWord(tokens[i], 'SELECT')) {
      start = i + 1;
      break;
    }
  }
  if (start < 0) return null;
  while (isWord(tokens[start], 'DISTINCT') || isWord(tokens[start], 'ALL')) start += 1;
  if (isWord(tokens[start], 'TOP')) start += 2;

  const items: Token[][] = [[]];
  depth = 0;
  for (let i = start; i < tokens.length; i += 1) {
    const token = tokens[i];
    if (depth === 0 && token.kind === 'word' && (token.value === 'FROM' || CLAUSE_ENDS_FROM.has(token.value))) break;
    if (isPunct(token, '(')) depth += 1;
    if (isPunct(token, ')')) depth -= 1;
    if (depth === 0 && isPunct(token, ',')) items.push([]);
    else items[items.length - 1].push(token);
  }

  const outputs: ViewOutput[] = [];
  for (const item of items) {
    const output = deriveOutput(item);
    if (!output) return null;
    outputs.push(output);
  }
  return outputs;
}

/** A dotted identifier chain `a.b.c`, or null. */
function dottedChain(tokens: Token[]): Identifier[] | null {
  if (tokens.length === 0 || tokens.length % 2 === 0) return null;
  const parts: Identifier[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    if (i % 2 === 0) {
      if (!isIdentifierToken(tokens[i])) return null;
      parts.push(toIdentifier(tokens[i]));
    } else if (!isPunct(tokens[i], '.')) return null;
  }
  return parts;
}

function deriveOutput(item: Token[]): ViewOutput | null {
  if (item.length === 1 && isPunct(item[0], '*')) return { kind: 'star', qualifier: null };
  if (item.length >= 3 && isPunct(item[item.length - 1], '*') && isPunct(item[item.length - 2], '.')) {
    const chain = dottedChain(item.slice(0, -2));
    return chain ? { kind: 'star', qualifier: chain[chain.length - 1] } : null;
  }
  const chain = dottedChain(item);
  if (chain) return { kind: 'column', name: chain[chain.length - 1], source: chain };
  const last = item[item.length - 1];
  const beforeLast = item[item.length - 2];
  if (item.length >= 3 && isWord(beforeLast, 'AS') && isIdentifierToken(last)) {
    return { kind: 'column', name: toIdentifier(last), source: dottedChain(item.slice(0, -2)) };
  }
  // An implicit alias follows a complete expression: `a.b total`, `SUM(x) total`.
  const endsExpression =
    beforeLast !== undefined &&
    (isIdentifierToken(beforeLast) || beforeLast.kind === 'number' || beforeLast.kind === 'string' || isPunct(beforeLast, ')'));
  if (item.length >= 2 && isIdentifierToken(last) && !isWord(last, 'END') && endsExpression) {
    return { kind: 'column', name: toIdentifier(last), source: dottedChain(item.slice(0, -1)) };
  }
  return null;
}
