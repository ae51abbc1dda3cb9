// fast-check generation of valid data models for the differential conformance suite: cubes
// (sql_table or sql, dimensions with custom granularities, measures with filters, rolling
// windows and formats, segments, many-to-one joins, hierarchies, pre-aggregations, access
// policies, `extends`), and views (join paths, includes with aliases, excludes, prefix, folders),
// written as YAML or as JavaScript. Faults (faults.ts) then break one rule of one key.
import fc from 'fast-check';
import { camelToSnake } from './keys';
import { path, refs, sql, type Entry, type EntitySpec, type ModelSpec, type Value } from './model-spec';
import { platformEnum } from './platform-values';

// Enumerated values are drawn from the platform validator's own lists (platform-values.ts), in
// every spelling it takes, so that each allowed value is tried (issue 27).
const ORDERS_ALLOWED = (): string[] => platformEnum('cube.dimensions.*', 'order');
const MANY_TO_ONE_SPELLINGS = (): string[] => platformEnum('cube.joins[]', 'relationship').filter((r) => ['many_to_one', 'belongs_to'].includes(camelToSnake(r)));
const PARTITION_GRANULARITIES = (): string[] => platformEnum('cube.preAggregations.*', 'partitionGranularity');
const STREAM_OFFSETS = (): string[] => platformEnum('cube.preAggregations.*', 'streamOffset');
const ROLLING_OFFSETS = (): string[] => platformEnum('cube.measures.*.rollingWindow', 'offset');
const INDEX_TYPES = (): string[] => platformEnum('cube.preAggregations.*.indexes.*', 'type');

export type Gen = <T>(arb: fc.Arbitrary<T>) => T;

/** fast-check's `fc.gen()` value takes an arbitrary builder; this takes the arbitrary itself. */
export const genOf =
  (g: fc.GeneratorValue): Gen =>
  <T>(arb: fc.Arbitrary<T>): T =>
    g(() => arb);

const CUBE_NAMES = ['orders', 'customers', 'products', 'stores'];

interface DimensionSeed {
  name: string;
  type: 'string' | 'number' | 'time' | 'boolean';
}

const OPTIONAL_DIMENSIONS: DimensionSeed[] = [
  { name: 'status', type: 'string' },
  { name: 'city', type: 'string' },
  { name: 'amount', type: 'number' },
  { name: 'created_at', type: 'time' },
  { name: 'is_active', type: 'boolean' },
];

const pick = <T>(g: Gen, items: readonly T[]): T => g(fc.constantFrom(...items));
const chance = (g: Gen, percent: number): boolean => g(fc.integer({ min: 1, max: 100 })) <= percent;
const subset = <T>(g: Gen, items: readonly T[], min = 0): T[] => {
  const chosen = items.filter(() => chance(g, 50));
  return chosen.length >= min ? chosen : items.slice(0, min);
};

/** JS writes enum values in camelCase, YAML in snake_case (as each format's documentation does). */
export const enumValue = (format: ModelSpec['format'], snake: string): string =>
  format === 'js' ? snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : snake;

function dimensions(g: Gen, format: ModelSpec['format']): { entries: Entry[]; seeds: DimensionSeed[] } {
  const seeds = subset(g, OPTIONAL_DIMENSIONS, 1);
  const entries: Entry[] = [{ name: 'id', sql: sql(pick(g, ['{CUBE}.id', 'id'])), type: 'number', primary_key: true }];
  for (const seed of seeds) {
    const entry: Entry = { name: seed.name, sql: sql(chance(g, 50) ? `{CUBE}.${seed.name}` : seed.name), type: seed.type };
    if (chance(g, 25)) entry.title = `${seed.name} title`;
    if (chance(g, 20)) entry.description = `The ${seed.name}`;
    if (chance(g, 15)) entry.public = false;
    if (seed.type === 'number' && chance(g, 30)) entry.format = pick(g, ['currency', 'percent', 'number']);
    if (chance(g, 15)) entry.order = pick(g, ORDERS_ALLOWED());
    if (seed.type === 'time' && chance(g, 40)) {
      entry.granularities = [
        pick<Entry>(g, [
          { name: 'fiscal_year', interval: '1 year', offset: '1 month' },
          { name: 'two_weeks', interval: '2 weeks', origin: '2024-01-01' },
          { name: 'quarter_hour', interval: '15 minutes', title: 'Quarter hour' },
        ]),
      ];
    }
    entries.push(entry);
  }
  void format;
  return { entries, seeds };
}

function measures(g: Gen, format: ModelSpec['format'], seeds: DimensionSeed[]): Entry[] {
  const out: Entry[] = [{ name: 'count', type: 'count' }];
  const hasAmount = seeds.some((s) => s.name === 'amount');
  const hasStatus = seeds.some((s) => s.name === 'status');
  const hasTime = seeds.some((s) => s.type === 'time');
  if (hasStatus && chance(g, 30)) out[0]!.filters = [{ sql: sql("{CUBE}.status = 'done'") }];
  if (hasAmount && chance(g, 70)) {
    const total: Entry = { name: 'total', sql: sql('{CUBE}.amount'), type: 'sum' };
    if (chance(g, 30)) total.format = pick(g, ['currency', 'percent', 'number']);
    if (chance(g, 15)) total.drill_filters = [{ sql: sql('{CUBE}.amount > 0') }];
    out.push(total);
    if (chance(g, 40)) out.push({ name: 'ratio', sql: sql('{total} / NULLIF({count}, 0)'), type: 'number' });
    if (hasTime && chance(g, 30)) {
      const window: Entry = { trailing: pick(g, ['7 day', '1 month', 'unbounded']) };
      if (chance(g, 30)) window.offset = pick(g, ROLLING_OFFSETS());
      out.push({ name: 'rolling_total', sql: sql('{CUBE}.amount'), type: 'sum', rolling_window: window });
    }
  }
  if (chance(g, 40)) out.push({ name: 'distinct_ids', sql: sql('{CUBE}.id'), type: enumValue(format, 'count_distinct') });
  if (hasAmount && chance(g, 30)) out.push({ name: 'average_amount', sql: sql('amount'), type: 'avg', title: 'Average amount' });
  return out;
}

interface CubeBuilt {
  entity: EntitySpec;
  seeds: DimensionSeed[];
  measureNames: string[];
  segments: string[];
  /** Its hierarchy, with the dimensions a view including it exposes. */
  hierarchy?: { name: string; levels: string[] };
}

function cube(g: Gen, format: ModelSpec['format'], name: string, joinTargets: string[], viewRoot: boolean): CubeBuilt {
  const body: Entry = {};
  if (chance(g, 60)) body.sql_table = `public.${name}`;
  else body.sql = `SELECT * FROM public.${name}`;
  if (chance(g, 25)) body.title = `${name} title`;
  if (chance(g, 20)) body.description = `All ${name}`;
  const dims = dimensions(g, format);
  const ms = measures(g, format, dims.seeds);
  if (joinTargets.length > 0) {
    body.joins = joinTargets.map((target) => ({
      name: target,
      sql: sql(`{CUBE}.${target}_id = {${target}.id}`),
      relationship: chance(g, 60) ? enumValue(format, 'many_to_one') : pick(g, MANY_TO_ONE_SPELLINGS()),
    }));
  }
  body.dimensions = dims.entries;
  body.measures = ms;
  const strings = dims.seeds.filter((s) => s.type === 'string');
  if (dims.seeds.some((s) => s.name === 'amount') && chance(g, 30)) body.segments = [{ name: 'big', sql: sql('{CUBE}.amount > 100') }];
  const time = dims.seeds.find((s) => s.type === 'time');
  const segments = body.segments ? ['big'] : [];
  let hierarchy: { name: string; levels: string[] } | undefined;
  if (strings.length > 0 && chance(g, 25)) {
    // Levels range over every kind of member the platform resolves (issue 27): dimensions, a time
    // dimension at a granularity, another cube's member, and, in a cube no view includes a
    // hierarchy of (a view refuses those), measures and segments.
    const levels = strings.map((s) => `CUBE.${s.name}`);
    if (time && chance(g, 30)) {
      const custom = (dims.entries.find((e) => e.name === time.name)!.granularities as Entry[] | undefined) ?? [];
      levels.push(`CUBE.${time.name}.${pick(g, ['month', 'year', ...custom.map((c) => String(c.name))])}`);
    }
    if (joinTargets[0] && chance(g, 20)) levels.push(`${joinTargets[0]}.id`);
    if (!viewRoot && chance(g, 30)) levels.push(`CUBE.${pick(g, [...ms.map((m) => m.name as string), ...segments])}`);
    hierarchy = { name: 'place', levels: strings.map((s) => s.name) };
    body.hierarchies = [{ name: 'place', title: 'Place', levels: refs(...levels) }];
  }
  if (chance(g, 25)) {
    const rollup: Entry = { name: 'main', type: 'rollup', measures: refs('CUBE.count') };
    if (strings[0]) rollup.dimensions = refs(`CUBE.${strings[0].name}`);
    if (strings[0] && chance(g, 25)) {
      const index: Entry = { name: 'by_first', columns: refs(`CUBE.${strings[0].name}`) };
      if (chance(g, 50)) index.type = pick(g, INDEX_TYPES());
      rollup.indexes = [index];
    }
    if (time) {
      rollup.time_dimension = path(`CUBE.${time.name}`);
      rollup.granularity = pick(g, ['day', 'month']);
      if (chance(g, 40)) rollup.partition_granularity = pick(g, PARTITION_GRANULARITIES());
    }
    if (chance(g, 30)) rollup.refresh_key = { every: pick(g, ['1 hour', '30 minutes']) };
    if (chance(g, 10)) rollup.stream_offset = pick(g, STREAM_OFFSETS());
    if (time && chance(g, 15)) rollup.build_range_start = { sql: sql('SELECT NOW() - INTERVAL 1 YEAR') };
    body.pre_aggregations = [rollup];
  }
  if (chance(g, 20)) {
    body.access_policy = [
      pick<Entry>(g, [
        { group: 'analysts', member_level: { includes: '*' } },
        { group: '*', row_level: { allow_all: true } },
        { groups: ['finance', 'admins'], member_level: { includes: ['id', 'count'] } },
      ]),
    ];
  }
  if (chance(g, 15)) body.refresh_key = pick<Entry>(g, [{ every: '1 hour' }, { sql: sql('SELECT MAX(id) FROM public.t') }, { immutable: true }]);
  return { entity: { kind: 'cube', name, body }, seeds: dims.seeds, measureNames: ms.map((m) => m.name as string), segments, hierarchy };
}

/** A valid model: 1–3 joined cubes, maybe a cube extending one, and 0–2 views over them. */
export function validModel(g: Gen): ModelSpec {
  const format = chance(g, 60) ? 'yaml' : 'js';
  const count = g(fc.integer({ min: 1, max: 3 }));
  const names = CUBE_NAMES.slice(0, count);
  const cubes = names.map((name, index) => cube(g, format, name, index === 0 ? names.slice(1) : [], index === 0));
  const entities: EntitySpec[] = cubes.map((c) => c.entity);
  if (chance(g, 20)) {
    const base = cubes[cubes.length - 1]!;
    entities.push({
      kind: 'cube',
      name: `${base.entity.name}_ext`,
      body: { extends: path(base.entity.name), dimensions: [{ name: 'note', sql: sql('{CUBE}.note'), type: 'string' }] },
    });
  }
  const viewCount = g(fc.integer({ min: 0, max: 2 }));
  for (let v = 0; v < viewCount; v++) {
    const root = cubes[0]!;
    const entries: Value[] = [];
    const exposed: string[] = [];
    // Includes range over every kind of member: dimensions, measures, segments and hierarchies.
    const rootMembers = ['id', ...root.seeds.map((s) => s.name), ...root.measureNames, ...root.segments, ...(root.hierarchy ? [root.hierarchy.name] : [])];
    const prefix = chance(g, 20);
    const exposedName = (m: string) => (prefix ? `${root.entity.name}_${m}` : m);
    const rootIncludes = chance(g, 30) ? '*' : subset(g, rootMembers, 1);
    const rootEntry: Entry = { join_path: path(root.entity.name), includes: rootIncludes };
    if (prefix) rootEntry.prefix = true;
    const listed = rootIncludes === '*' ? rootMembers : rootIncludes;
    if (rootIncludes !== '*' && chance(g, 25)) {
      rootEntry.includes = rootIncludes.map((m, i) => (i === 0 ? { name: m, alias: `${m}_alias`, title: 'Renamed' } : m));
      exposed.push(...rootIncludes.map((m, i) => (i === 0 ? `${m}_alias` : m)).map(exposedName));
    } else {
      exposed.push(...listed.map(exposedName));
    }
    if (rootIncludes === '*' && chance(g, 30) && rootMembers.length > 1) {
      rootEntry.excludes = [rootMembers[rootMembers.length - 1]!];
      exposed.pop();
    }
    // An included hierarchy brings its levels along.
    const hierarchyIncluded = root.hierarchy && listed.includes(root.hierarchy.name) && !(rootEntry.excludes as string[] | undefined)?.includes(root.hierarchy.name);
    if (root.hierarchy && hierarchyIncluded) for (const level of root.hierarchy.levels) if (!exposed.includes(exposedName(level))) exposed.push(exposedName(level));
    entries.push(rootEntry);
    if (cubes[1] && chance(g, 60)) {
      const joined = cubes[1];
      const members = subset(g, [...joined.seeds.map((s) => s.name), ...joined.measureNames, ...joined.segments], 1).filter((m) => !exposed.includes(m));
      if (members.length > 0) {
        const aliased = chance(g, 25);
        entries.push({ join_path: path(`${root.entity.name}.${joined.entity.name}`), includes: aliased ? members.map((m, i) => (i === 0 ? { name: m, alias: `${joined.entity.name}_${m}` } : m)) : members });
        exposed.push(...members.map((m, i) => (aliased && i === 0 ? `${joined.entity.name}_${m}` : m)));
      }
    }
    const body: Entry = { cubes: entries };
    if (chance(g, 25)) body.title = `View ${v}`;
    if (chance(g, 30) && exposed.length > 0) body.folders = [{ name: 'Main', includes: exposed.slice(0, 2) }];
    entities.push({ kind: 'view', name: `view_${v}`, body });
  }
  return { format, entities };
}
