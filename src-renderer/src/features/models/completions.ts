// Completion for model files: what to offer at the cursor (keys of the node, values of a key,
// member and entity names, references inside {…}). Split from language.ts, whose YAML structure
// and reference rules it reads; free of Monaco so it is testable on its own.
import type { Completions, Suggestion } from './completion-types';
import type { EntitySymbol, MemberKind, MemberSymbol, ModelSymbols } from './protocol';
import {
  BOOLEAN_KEYS,
  BOOLEANS,
  CHILD_KIND,
  DIMENSION_TYPES,
  FORMATS,
  KEYS,
  MEASURE_TYPES,
  PRE_AGGREGATION_TYPES,
  RELATIONSHIPS,
  ROLLING_WINDOW_TYPES,
  TIME_GRANULARITIES,
  type NodeKind,
  type ValueDoc,
} from './vocabulary';
import { isModelTestPath } from '../../../../src-shared/model/tests/schema';
import { enclosingEntity, itemScope, referenceContextAt, yamlContextAt, type ReferenceContext, type YamlContext } from './language';
import { testFileCompletions } from './test-completions';

export type { Completions, Suggestion, SuggestionKind } from './completion-types';

const memberDetail = (owner: string, m: MemberSymbol) => `${m.kind}${m.type ? ` · ${m.type}` : ''} of ${owner}`;

function memberSuggestions(owner: EntitySymbol, kinds?: MemberKind[], rank = '1'): Suggestion[] {
  return owner.members
    .filter((m) => !kinds || kinds.includes(m.kind))
    .map((m) => ({
      label: m.name,
      kind: m.kind,
      insertText: m.name,
      detail: memberDetail(owner.name, m),
      documentation: [m.title, m.description, m.source ? `From ${m.source}.` : undefined].filter(Boolean).join('\n\n') || undefined,
      sortText: `${rank}${m.name}`,
    }));
}

function entitySuggestions(symbols: ModelSymbols, kind?: 'cube' | 'view', exclude?: string, rank = '3'): Suggestion[] {
  return Object.values(symbols.entities)
    .filter((e) => (!kind || e.kind === kind) && e.name !== exclude)
    .map((e) => ({
      label: e.name,
      kind: e.kind,
      insertText: e.name,
      detail: `${e.kind} · ${e.loc.file}`,
      documentation: [e.title, e.description].filter(Boolean).join('\n\n') || undefined,
      sortText: `${rank}${e.name}`,
    }));
}

const valueSuggestions = (values: ValueDoc[]): Suggestion[] =>
  values.map((v, i) => ({ label: v.value, kind: 'value', insertText: v.value, documentation: v.doc || undefined, deprecated: v.deprecated, sortText: `${v.deprecated ? 9 : 1}${String(i).padStart(3, '0')}` }));

function keySuggestions(node: NodeKind, siblings: string[], indentUnit = '  '): Suggestion[] {
  return KEYS[node]
    .filter((k) => !siblings.includes(k.name))
    .map((k, i) => {
      const listOfMaps = k.shape === 'list' && CHILD_KIND[node]?.[k.name] !== undefined;
      const insertText =
        listOfMaps ? `${k.name}:\n${indentUnit}- name: \${1}` : k.shape === 'map' ? `${k.name}:\n${indentUnit}\${1}` : k.shape === 'scalar-list' ? `${k.name}:\n${indentUnit}- \${1}` : `${k.name}: \${1}`;
      return { label: k.name, kind: 'key' as const, insertText, snippet: true, documentation: k.doc, sortText: `${k.name === 'name' ? 0 : 1}${String(i).padStart(3, '0')}` };
    });
}


function referenceCompletions(ref: ReferenceContext, symbols: ModelSymbols, enclosing: EntitySymbol | undefined): Suggestion[] {
  if (ref.qualifier.length === 0) {
    const own = enclosing ? memberSuggestions(enclosing) : [];
    const cube: Suggestion[] = enclosing ? [{ label: 'CUBE', kind: 'keyword', insertText: 'CUBE', detail: `this ${enclosing.kind} (${enclosing.name})`, sortText: '2CUBE' }] : [];
    return [...own, ...cube, ...entitySuggestions(symbols, undefined, undefined)];
  }
  const last = ref.qualifier[ref.qualifier.length - 1];
  const owner = last === 'CUBE' ? enclosing : symbols.entities[last];
  if (!owner) return [];
  // A path continues through joins: `{orders.customers.country}`.
  const joined = owner.joins.map((name) => symbols.entities[name]).filter((e): e is EntitySymbol => !!e);
  return [
    ...memberSuggestions(owner),
    ...joined.map((e) => ({ label: e.name, kind: e.kind, insertText: e.name, detail: `cube joined from ${owner.name}`, sortText: `3${e.name}` })),
  ];
}

/** What to offer at a position of a model file. */
export function completionsAt(text: string, lineNumber: number, column: number, file: string, symbols: ModelSymbols): Completions | null {
  // Test files are not model sources: their own schema applies.
  if (isModelTestPath(file)) return testFileCompletions(text, lineNumber, column, symbols);
  const lineText = text.split(/\r?\n/)[lineNumber - 1] ?? '';
  const enclosing = enclosingEntity(symbols, file, lineNumber);
  const ref = referenceContextAt(lineText, column);
  if (ref) return { suggestions: referenceCompletions(ref, symbols, enclosing), startColumn: ref.startColumn };
  if (!/\.ya?ml(\.jinja)?$/i.test(file)) return null;

  const ctx = yamlContextAt(text, lineNumber, column);
  if (!ctx) return null;
  if (ctx.kind === 'key') {
    if (!ctx.node) return null;
    return { suggestions: keySuggestions(ctx.node, ctx.siblings), startColumn: ctx.startColumn };
  }
  if (ctx.kind === 'item') {
    const scope = itemScope(ctx, text, symbols, enclosing);
    if (!scope) return null;
    const suggestions = scope.entities ? entitySuggestions(symbols, scope.entities) : scope.owner ? memberSuggestions(scope.owner, scope.kinds) : [];
    return { suggestions, startColumn: ctx.startColumn };
  }
  return valueCompletions(ctx, symbols, enclosing);
}

function valueCompletions(ctx: Extract<YamlContext, { kind: 'value' }>, symbols: ModelSymbols, enclosing: EntitySymbol | undefined): Completions | null {
  const { node, key, startColumn } = ctx;
  const at = (suggestions: Suggestion[], start = startColumn): Completions => ({ suggestions, startColumn: start });
  if (key === 'type') {
    if (node === 'dimension') return at(valueSuggestions(DIMENSION_TYPES));
    if (node === 'measure') return at(valueSuggestions(MEASURE_TYPES));
    if (node === 'rollingWindow') return at(valueSuggestions(ROLLING_WINDOW_TYPES));
    if (node === 'preAggregation') return at(valueSuggestions(PRE_AGGREGATION_TYPES));
    return null;
  }
  if (key === 'relationship') return at(valueSuggestions(RELATIONSHIPS));
  if (BOOLEAN_KEYS.has(key)) return at(valueSuggestions(BOOLEANS));
  if (key === 'format' && (node === 'dimension' || node === 'measure' || node === 'viewInclude')) return at(valueSuggestions(FORMATS));
  if ((key === 'granularity' || key === 'partition_granularity') && (node === 'rollingWindow' || node === 'preAggregation')) return at(valueSuggestions(TIME_GRANULARITIES));
  if (key === 'name' && node === 'join') return at(entitySuggestions(symbols, 'cube', enclosing?.name));
  if (key === 'extends' && (node === 'cube' || node === 'view')) return at(entitySuggestions(symbols, node, enclosing?.name));
  if (key === 'time_dimension' && node === 'preAggregation' && enclosing) {
    return at(memberSuggestions(enclosing, ['dimension']).filter((s) => enclosing.members.find((m) => m.name === s.label)?.type === 'time'));
  }
  if (key === 'join_path' && node === 'viewCube') {
    const dot = ctx.partial.lastIndexOf('.');
    if (dot < 0) return at(entitySuggestions(symbols, 'cube'));
    const from = symbols.entities[ctx.partial.slice(0, dot).split('.').pop()!];
    const joined = (from?.joins ?? []).map((name) => symbols.entities[name]).filter((e): e is EntitySymbol => !!e);
    return at(
      joined.map((e) => ({ label: e.name, kind: e.kind, insertText: e.name, detail: `cube joined from ${from!.name}`, sortText: `1${e.name}` })),
      startColumn + dot + 1,
    );
  }
  return null;
}
