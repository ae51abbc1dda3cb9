// Faults derived from the platform validator's own value rules (platform-values.ts), one per rule
// at each part of a definition the generator writes: a value outside a key's enumeration, a
// string that misses a key's pattern, a required key left out, and each relation between keys
// broken (both keys of an `xor`/`nand`/`oxor` pair, neither of an `xor`/`or` pair, a `with` key
// without its companion). New rules in a new platform release become new faults by themselves.
import fc from 'fast-check';
import type { Fault } from './faults';
import { camelToSnake, INTERNAL_KEYS } from './keys';
import type { Gen } from './model-arbitrary';
import { sql, type Entry, type ModelSpec, type Value } from './model-spec';
import { platformValueRules, type KeyRule, type Relation } from './platform-values';

const isMap = (v: unknown): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v) && !('$sql' in v) && !('$refs' in v) && !('$path' in v);
const mapsIn = (v: Value | undefined): Entry[] => (Array.isArray(v) ? v.filter(isMap) : isMap(v) ? [v] : []);

const cubes = (spec: ModelSpec): Entry[] => spec.entities.filter((e) => e.kind === 'cube' && !('extends' in e.body)).map((e) => e.body);
const views = (spec: ModelSpec): Entry[] => spec.entities.filter((e) => e.kind === 'view').map((e) => e.body);
const section = (of: (spec: ModelSpec) => Entry[], key: string) => (spec: ModelSpec) => of(spec).flatMap((m) => mapsIn(m[key]));

/** The maps of a generated model at each validator path the generator writes. */
const TARGETS: Record<string, (spec: ModelSpec) => Entry[]> = {
  cube: cubes,
  'cube.joins[]': section(cubes, 'joins'),
  'cube.measures.*': section(cubes, 'measures'),
  'cube.measures.*.rollingWindow': section(section(cubes, 'measures'), 'rolling_window'),
  'cube.measures.*.filters[]': section(section(cubes, 'measures'), 'filters'),
  'cube.measures.*.drillFilters[]': section(section(cubes, 'measures'), 'drill_filters'),
  'cube.dimensions.*': section(cubes, 'dimensions'),
  'cube.dimensions.*.granularities.*': section(section(cubes, 'dimensions'), 'granularities'),
  'cube.segments.*': section(cubes, 'segments'),
  'cube.preAggregations.*': section(cubes, 'pre_aggregations'),
  'cube.preAggregations.*.refreshKey': section(section(cubes, 'pre_aggregations'), 'refresh_key'),
  'cube.preAggregations.*.indexes.*': section(section(cubes, 'pre_aggregations'), 'indexes'),
  'cube.preAggregations.*.buildRangeStart': section(section(cubes, 'pre_aggregations'), 'build_range_start'),
  'cube.accessPolicy[]': section(cubes, 'access_policy'),
  'cube.accessPolicy[].memberLevel': section(section(cubes, 'access_policy'), 'member_level'),
  'cube.accessPolicy[].rowLevel': section(section(cubes, 'access_policy'), 'row_level'),
  'view.cubes[]': section(views, 'cubes'),
  'view.cubes[].includes[]': section(section(views, 'cubes'), 'includes'),
  'view.folders[]': section(views, 'folders'),
};

/** A valid value of a key, for writing the second key of a pair the platform forbids together. */
const SAMPLES: Record<string, Value> = {
  sql: sql('SELECT * FROM public.other'),
  sql_table: 'public.other',
  group: 'analysts',
  groups: ['analysts'],
  member_level: { includes: '*' },
  member_masking: { includes: '*' },
  filters: [{ member: 'id', operator: 'set' }],
  allow_all: true,
  split: true,
  prefix: true,
};

/** Strings that miss common patterns (identifiers, intervals); the first one a rule's patterns all refuse is used. */
const PATTERN_MISSES = ['2 fortnights', 'bad name', '1-day', '-'];

const pickOf = <T>(g: Gen, items: T[]): T | undefined => (items.length === 0 ? undefined : items[g(fc.integer({ min: 0, max: items.length - 1 }))]);

function onTarget(name: string, path: string, when: (m: Entry) => boolean, change: (m: Entry) => void): Fault {
  return {
    name,
    apply(spec, g) {
      const target = pickOf(g, TARGETS[path]!(spec).filter(when));
      if (!target) return false;
      change(target);
      return true;
    },
  };
}

function keyFaults(rule: KeyRule): Fault[] {
  const key = camelToSnake(rule.key);
  const out: Fault[] = [];
  const where = `${rule.path}.${rule.key}`;
  if (rule.enumeration) {
    const outside = rule.enumeration.every((v) => typeof v === 'boolean') ? !rule.enumeration[0] : `not_a_${key}`;
    out.push(onTarget(`${where} outside its enumeration`, rule.path, () => true, (m) => (m[key] = outside)));
  }
  const miss = rule.patterns.length > 0 ? PATTERN_MISSES.find((s) => rule.patterns.every((p) => !p.test(s))) : undefined;
  // A name is the key of a map entry: written in the generator as `name`, renamed by the member-name faults.
  if (miss !== undefined && key !== 'name') out.push(onTarget(`${where} missing its pattern`, rule.path, (m) => key in m, (m) => (m[key] = miss)));
  if (miss !== undefined && key === 'name' && rule.path.endsWith('[]')) out.push(onTarget(`${where} missing its pattern`, rule.path, (m) => key in m, (m) => (m[key] = miss)));
  if (rule.required && key !== 'name') out.push(onTarget(`${where} required but missing`, rule.path, (m) => key in m, (m) => delete m[key]));
  return out;
}

function relationFaults(r: Relation): Fault[] {
  const peers = r.peers.map(camelToSnake);
  const key = r.key ? camelToSnake(r.key) : undefined;
  const where = `${r.path} ${r.rel}(${[r.key, ...r.peers].filter(Boolean).join(', ')})`;
  const fill = (m: Entry, keys: string[]): void => {
    for (const k of keys) if (!(k in m)) m[k] = SAMPLES[k]!;
  };
  const haveSamples = (keys: string[]) => keys.every((k) => k in SAMPLES);
  const out: Fault[] = [];
  if ((r.rel === 'xor' || r.rel === 'nand' || r.rel === 'oxor') && haveSamples(peers)) out.push(onTarget(`${where}: all of them`, r.path, () => true, (m) => fill(m, peers)));
  if (r.rel === 'xor' || r.rel === 'or') out.push(onTarget(`${where}: none of them`, r.path, (m) => peers.some((p) => p in m), (m) => peers.forEach((p) => delete m[p])));
  if (r.rel === 'with' && key && haveSamples([key])) out.push(onTarget(`${where}: ${key} alone`, r.path, () => true, (m) => (fill(m, [key]), peers.forEach((p) => delete m[p]))));
  if (r.rel === 'without' && key && haveSamples([key, ...peers])) out.push(onTarget(`${where}: ${key} with them`, r.path, () => true, (m) => fill(m, [key, ...peers])));
  if (r.rel === 'and' && haveSamples(peers)) out.push(onTarget(`${where}: one without the others`, r.path, () => true, (m) => (fill(m, peers.slice(0, 1)), peers.slice(1).forEach((p) => delete m[p]))));
  return out;
}

/** Every fault the platform's value rules give for the parts of a model the generator writes. */
export function valueFaults(): Fault[] {
  const { keys, relations } = platformValueRules();
  return [...keys.filter((k) => k.path in TARGETS && !INTERNAL_KEYS.has(k.key)).flatMap(keyFaults), ...relations.filter((r) => r.path in TARGETS).flatMap(relationFaults)];
}
