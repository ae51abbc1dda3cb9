// The value rules of the platform's validator (CubeValidator of @cubejs-backend/schema-compiler),
// read from the `describe()` trees of its Joi schemas (platform-keys.ts loads them) rather than
// copied by hand: per key, the values it enumerates (`valid`/`allow` with `only`), the patterns
// it must match and whether every form of its map requires it; per map, the relations between
// its keys (`xor`, `oxor`, `nand`, `or`, `with`, `without`, `and`). A key described in several
// alternatives (a measure's schema differs per type) gets the union of their enumerations, and
// an enumeration only when every alternative closes it. Paths are platform-keys.ts's.
import { platformSchemaDescriptions } from './platform-keys';

interface Node {
  type?: string;
  flags?: { only?: boolean; presence?: string };
  allow?: unknown[];
  rules?: { name: string; args?: { regex?: string } }[];
  dependencies?: { rel: string; key?: string | null; peers?: string[] }[];
  keys?: Record<string, Node>;
  patterns?: { rule?: Node }[];
  items?: Node[];
  matches?: { schema?: Node; then?: Node; otherwise?: Node; switch?: { then?: Node; otherwise?: Node }[] }[];
  whens?: { then?: Node; otherwise?: Node; switch?: { then?: Node; otherwise?: Node }[] }[];
}

export interface KeyRule {
  /** Path of the map (`cube.measures.*`) and the key in it (camelCase). */
  path: string;
  key: string;
  /** The values every form of the key is limited to, or null when some form takes other values. */
  enumeration: unknown[] | null;
  /** Patterns a string value must match (any form's). */
  patterns: RegExp[];
  /** Every form of the map requires the key. */
  required: boolean;
}

export interface Relation {
  path: string;
  rel: 'xor' | 'oxor' | 'nand' | 'or' | 'with' | 'without' | 'and';
  /** For `with`/`without`: the key whose presence brings the rule. */
  key?: string;
  peers: string[];
}

interface Form {
  /** Leaf descriptions of the key, one per alternative it appears in. */
  leaves: Node[];
  /** How many forms of the map there are, and in how many the key is required. */
  requiredIn: number;
}

/** Leaf schemas of a described schema: alternatives and conditionals unfolded. */
function leavesOf(node: Node | undefined): Node[] {
  if (!node) return [];
  if (node.type === 'alternatives' || node.matches || node.whens) {
    const out: Node[] = [];
    for (const m of [...(node.matches ?? []), ...(node.whens ?? [])]) {
      out.push(...leavesOf((m as { schema?: Node }).schema), ...leavesOf(m.then), ...leavesOf(m.otherwise));
      for (const s of m.switch ?? []) out.push(...leavesOf(s.then), ...leavesOf(s.otherwise));
    }
    // `any().when(...)` keeps its own rules next to the conditional ones.
    if (node.type !== 'alternatives' && (node.allow || node.rules)) out.push({ ...node, whens: undefined, matches: undefined });
    return out;
  }
  return [node];
}

let cached: { keys: KeyRule[]; relations: Relation[] } | null = null;

export function platformValueRules(): { keys: KeyRule[]; relations: Relation[] } {
  if (cached) return cached;
  const forms = new Map<string, { count: number; keys: Map<string, Form> }>();
  const relations: Relation[] = [];
  const seenRelations = new Set<string>();
  const visitObject = (node: Node, path: string): void => {
    const entry = forms.get(path) ?? { count: 0, keys: new Map<string, Form>() };
    forms.set(path, entry);
    entry.count++;
    for (const dep of node.dependencies ?? []) {
      const relation: Relation = { path, rel: dep.rel as Relation['rel'], peers: dep.peers ?? [], ...(dep.key ? { key: dep.key } : {}) };
      const id = JSON.stringify(relation);
      if (!seenRelations.has(id)) relations.push(relation);
      seenRelations.add(id);
    }
    for (const [key, child] of Object.entries(node.keys ?? {})) {
      const form = entry.keys.get(key) ?? { leaves: [], requiredIn: 0 };
      entry.keys.set(key, form);
      const leaves = leavesOf(child);
      if (child.flags?.presence === 'required' || (leaves.length > 0 && leaves.every((l) => l.flags?.presence === 'required'))) form.requiredIn++;
      form.leaves.push(...leaves.filter((l) => l.flags?.presence !== 'forbidden'));
      walk(child, `${path}.${key}`);
    }
  };
  const walk = (node: Node | undefined, path: string): void => {
    for (const leaf of leavesOf(node)) {
      if (leaf.type === 'object') {
        visitObject(leaf, path);
        for (const p of leaf.patterns ?? []) walk(p.rule, `${path}.*`);
      }
      if (leaf.type === 'array') for (const item of leaf.items ?? []) walk(item, `${path}[]`);
    }
  };
  const trees = platformSchemaDescriptions();
  walk(trees.cube as Node, 'cube');
  walk(trees.view as Node, 'view');
  const keys: KeyRule[] = [];
  for (const [path, { count, keys: byKey }] of forms) {
    for (const [key, form] of byKey) {
      const closed = form.leaves.length > 0 && form.leaves.every((l) => l.flags?.only && Array.isArray(l.allow));
      const enumeration = closed ? [...new Set(form.leaves.flatMap((l) => l.allow!.filter((v) => typeof v !== 'object')))] : null;
      const patterns = form.leaves.flatMap((l) => (l.rules ?? []).filter((r) => r.name === 'pattern' && r.args?.regex).map((r) => regexOf(r.args!.regex!)));
      keys.push({ path, key, enumeration, patterns: uniqueRegexes(patterns), required: form.requiredIn === count });
    }
  }
  cached = { keys, relations };
  return cached;
}

function regexOf(text: string): RegExp {
  const slash = text.lastIndexOf('/');
  return new RegExp(text.slice(1, slash), text.slice(slash + 1));
}

function uniqueRegexes(list: RegExp[]): RegExp[] {
  const seen = new Map<string, RegExp>();
  for (const r of list) seen.set(r.toString(), r);
  return [...seen.values()];
}

/** The rule of one key (camelCase), e.g. `keyRule('cube.measures.*', 'type')`. */
export function keyRule(path: string, key: string): KeyRule | undefined {
  return platformValueRules().keys.find((k) => k.path === path && k.key === key);
}

/** The enumeration of one key; throws when the platform's validator no longer closes it (the suite must then be revisited). */
export function platformEnum(path: string, key: string): string[] {
  const rule = keyRule(path, key);
  if (!rule?.enumeration) throw new Error(`The platform's validator enumerates no values for ${path}.${key}`);
  return rule.enumeration.map(String);
}
