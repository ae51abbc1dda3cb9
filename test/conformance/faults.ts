// Faults: each breaks one rule of one key in a valid generated model, the way a user's typo or
// misunderstanding would. Most are rules the platform's validator enforces; a few are there to
// find rules one compiler enforces and the other does not (the differential test tells which).
import fc from 'fast-check';
import type { Gen } from './model-arbitrary';
import { path, sql, type Entry, type EntitySpec, type ModelSpec } from './model-spec';

export interface Fault {
  name: string;
  /** Breaks `spec` in place; false when the model has nothing this fault applies to. */
  apply(spec: ModelSpec, g: Gen): boolean;
}

const cubes = (spec: ModelSpec): EntitySpec[] => spec.entities.filter((e) => e.kind === 'cube' && !('extends' in e.body));
const views = (spec: ModelSpec): EntitySpec[] => spec.entities.filter((e) => e.kind === 'view');
const list = (entity: EntitySpec, section: string): Entry[] => (Array.isArray(entity.body[section]) ? (entity.body[section] as Entry[]) : []);
const pickOf = <T>(g: Gen, items: T[]): T | undefined => (items.length === 0 ? undefined : items[g(fc.integer({ min: 0, max: items.length - 1 }))]);

/** A fault on one entry of a cube section (dimensions, measures, …). */
function onEntry(name: string, section: string, when: (e: Entry) => boolean, change: (e: Entry, spec: ModelSpec) => void): Fault {
  return {
    name,
    apply(spec, g) {
      const targets = cubes(spec).flatMap((c) => list(c, section).filter(when));
      const target = pickOf(g, targets);
      if (!target) return false;
      change(target, spec);
      return true;
    },
  };
}

function onCube(name: string, change: (cube: EntitySpec, spec: ModelSpec) => boolean | void): Fault {
  return {
    name,
    apply(spec, g) {
      const target = pickOf(g, cubes(spec));
      return target ? change(target, spec) !== false : false;
    },
  };
}

function onView(name: string, change: (view: EntitySpec, spec: ModelSpec) => boolean | void): Fault {
  return {
    name,
    apply(spec, g) {
      const target = pickOf(g, views(spec));
      return target ? change(target, spec) !== false : false;
    },
  };
}

const any = (): boolean => true;
const withSql = (e: Entry): boolean => 'sql' in e;

export const FAULTS: Fault[] = [
  onEntry('dimension type unknown', 'dimensions', any, (e) => (e.type = 'text')),
  onEntry('dimension type missing', 'dimensions', (e) => e.primary_key !== true, (e) => delete e.type),
  onEntry('dimension sql missing', 'dimensions', (e) => e.primary_key !== true, (e) => delete e.sql),
  onEntry('measure type unknown', 'measures', any, (e) => (e.type = 'median_value')),
  onEntry('measure type missing', 'measures', any, (e) => delete e.type),
  onEntry('sum measure without sql', 'measures', (e) => e.type === 'sum', (e) => delete e.sql),
  onEntry('member key unknown', 'dimensions', any, (e) => (e.sqll = sql('x'))),
  onEntry('measure key unknown', 'measures', any, (e) => (e.aggregate = 'sum')),
  onEntry('member name starts with a digit', 'dimensions', (e) => e.primary_key !== true, (e) => (e.name = `1${String(e.name)}`)),
  onEntry('member name with a dash', 'measures', (e) => e.name !== 'count', (e) => (e.name = `${String(e.name)}-x`)),
  onEntry('measure format unknown', 'measures', (e) => e.type !== 'count', (e) => (e.format = 'dollars')),
  onEntry('dimension format unknown', 'dimensions', (e) => e.type === 'number', (e) => (e.format = 'dollars')),
  onEntry('title not a string', 'dimensions', any, (e) => (e.title = 42)),
  onEntry('public not a boolean', 'measures', any, (e) => (e.public = 'yes')),
  onEntry('primary_key not a boolean', 'dimensions', (e) => e.primary_key === true, (e) => (e.primary_key = 'yes')),
  onEntry('measure sql references an unknown member', 'measures', withSql, (e) => (e.sql = sql('{no_such_member} + 1'))),
  onEntry('measure sql references a cube with no member after the dot', 'measures', withSql, (e) => (e.sql = sql('{CUBE.} + 1'))),
  onEntry('dimension sql reference cut short after a member', 'dimensions', (e) => e.primary_key !== true && withSql(e), (e) => (e.sql = sql('{CUBE.id.}'))),
  onEntry('rolling window trailing unparsable', 'measures', (e) => 'rolling_window' in e, (e) => (e.rolling_window = { trailing: '7 parsecs' })),
  onEntry('rolling window key unknown', 'measures', (e) => 'rolling_window' in e, (e) => (e.rolling_window = { trailing: '7 day', window: 'x' })),
  onEntry('measure filter without sql', 'measures', (e) => 'filters' in e, (e) => (e.filters = [{ condition: sql('1 = 1') }])),
  onEntry('granularity interval unparsable', 'dimensions', (e) => 'granularities' in e, (e) => ((e.granularities as Entry[])[0]!.interval = 'fortnightly')),
  onEntry('granularity without interval', 'dimensions', (e) => 'granularities' in e, (e) => delete (e.granularities as Entry[])[0]!.interval),
  onEntry('join to an unknown cube', 'joins', any, (e) => {
    e.name = 'nowhere';
    e.sql = sql('{CUBE}.nowhere_id = {nowhere.id}');
  }),
  onEntry('join relationship unknown', 'joins', any, (e) => (e.relationship = 'many_to_some')),
  onEntry('join without sql', 'joins', any, (e) => delete e.sql),
  onEntry('join without relationship', 'joins', any, (e) => delete e.relationship),
  onEntry('segment without sql', 'segments', any, (e) => delete e.sql),
  onEntry('hierarchy level unknown', 'hierarchies', any, (e) => (e.levels = { $refs: ['CUBE.no_such_level'] })),
  onEntry('pre-aggregation measure unknown', 'pre_aggregations', any, (e) => (e.measures = { $refs: ['CUBE.no_such_measure'] })),
  onEntry('pre-aggregation type unknown', 'pre_aggregations', any, (e) => (e.type = 'cubeish')),
  onEntry('pre-aggregation granularity unknown', 'pre_aggregations', (e) => 'granularity' in e, (e) => (e.granularity = 'fortnight')),
  onEntry('refresh every unparsable', 'pre_aggregations', (e) => 'refresh_key' in e, (e) => (e.refresh_key = { every: 'soon' })),
  onCube('cube without sql or sql_table', (c) => {
    delete c.body.sql;
    delete c.body.sql_table;
  }),
  onCube('cube key unknown', (c) => void (c.body.sql_tabel = 'public.x')),
  onCube('cube name with a space', (c, spec) => {
    if (spec.entities.some((e) => e.kind === 'view' || 'extends' in e.body)) return false;
    if (cubes(spec).some((o) => o !== c && list(o, 'joins').some((j) => j.name === c.name))) return false;
    c.name = `${c.name} x`;
  }),
  onCube('cube defined twice', (c, spec) => void spec.entities.push({ kind: 'cube', name: c.name, body: { sql_table: 'public.again', measures: [{ name: 'count', type: 'count' }] } })),
  onCube('extends an unknown cube', (c, spec) => void spec.entities.push({ kind: 'cube', name: `${c.name}_child`, body: { extends: path('no_such_cube') } })),
  onCube('refresh key every unparsable', (c) => void (c.body.refresh_key = { every: 'soon' })),
  onCube('access policy key unknown', (c) => void (c.body.access_policy = [{ group: 'analysts', member_level: { includes: '*' }, row_filter: true }])),
  onCube('access policy member unknown', (c) => void (c.body.access_policy = [{ group: 'analysts', member_level: { includes: ['no_such_member'] } }])),
  onCube('two primary keys with the same name', (c) => {
    const dims = list(c, 'dimensions');
    if (dims.length < 2) return false;
    dims[1]!.name = dims[0]!.name;
  }),
  onCube('measure and dimension with the same name', (c) => {
    const dims = list(c, 'dimensions');
    const ms = list(c, 'measures');
    if (dims.length === 0 || ms.length === 0) return false;
    ms[0]!.name = dims[0]!.name;
  }),
  onView('view includes an unknown member', (v) => {
    const entries = v.body.cubes as Entry[];
    entries[0]!.includes = ['no_such_member'];
    delete entries[0]!.excludes;
    delete v.body.folders;
  }),
  onView('view join path to an unknown cube', (v) => {
    const entries = v.body.cubes as Entry[];
    entries.push({ join_path: path('no_such_cube'), includes: '*' });
  }),
  onView('view join path along a missing join', (v, spec) => {
    const names = cubes(spec).map((c) => c.name);
    if (names.length < 2) return false;
    (v.body.cubes as Entry[]).push({ join_path: path(`${names[1]}.${names[0]}`), includes: '*', prefix: true });
  }),
  onView('view entry key unknown', (v) => void ((v.body.cubes as Entry[])[0]!.include = '*')),
  onView('view folder includes a non-member', (v) => void (v.body.folders = [{ name: 'Main', includes: ['no_such_member'] }])),
  onView('view without cubes', (v) => {
    delete v.body.cubes;
    delete v.body.folders;
  }),
  onView('view exposes the same name twice', (v, spec) => {
    const root = cubes(spec)[0]!;
    const entries = v.body.cubes as Entry[];
    entries.push({ join_path: path(root.name), includes: ['id'] });
  }),
];

