// Stage 3: resolve one entity against the others: `extends` chains (members merged by name, child wins),
// views' `cubes` (join paths, includes/excludes, prefix, alias, split), folders, primary keys.
// Everything another entity is read through `ResolveEnv`, which records the dependency for incremental runs.

import { byName, extendsChain, mergeCommon, type ResolveEnv } from './resolve-extends';
import type { CubeDef } from './schema';
import type { CompiledCube, Diagnostic } from './types';
import { dict } from './dict';

export type { ResolveEnv, ResolvedView } from './resolve-extends';
export { levelDimension, resolveView } from './resolve-view';

export function resolveCube(def: CubeDef, env: ResolveEnv): { cube: CompiledCube; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const cube: CompiledCube = {
    kind: 'cube',
    name: def.name,
    file: def.file,
    loc: def.loc,
    format: def.format,
    dataSource: 'default',
    public: true,
    extendsChain: [],
    joins: [],
    dimensions: dict(),
    measures: dict(),
    segments: dict(),
    hierarchies: dict(),
    preAggregations: dict(),
    accessPolicy: [],
    primaryKeys: [],
    templated: def.templated,
    dynamic: def.dynamic,
    opaqueSections: [...def.opaqueSections],
    props: dict(),
  };
  if (def.extends) cube.extends = def.extends.name;
  const chain = extendsChain(def, env, diagnostics);
  // The parent's resolved shape already folds in its own ancestors.
  const parent = chain.length > 1 ? env.cube(chain[chain.length - 2]!.name) : undefined;
  if (parent) {
    cube.extendsChain = [parent.name, ...parent.extendsChain];
    cube.sql = parent.sql;
    cube.sqlLoc = parent.sqlLoc;
    cube.sqlTable = parent.sqlTable;
    cube.sqlAlias = parent.sqlAlias;
    cube.dataSource = parent.dataSource;
    cube.title = parent.title;
    cube.description = parent.description;
    cube.public = parent.public;
    cube.meta = parent.meta;
    cube.refreshKey = parent.refreshKey;
    cube.joins = [...parent.joins];
    cube.dimensions = dict(parent.dimensions);
    cube.measures = dict(parent.measures);
    cube.segments = dict(parent.segments);
    cube.hierarchies = dict(parent.hierarchies);
    cube.preAggregations = dict(parent.preAggregations);
    cube.accessPolicy = parent.accessPolicy;
    cube.templated ||= parent.templated;
    cube.dynamic ||= parent.dynamic;
    for (const s of parent.opaqueSections) if (!cube.opaqueSections.includes(s)) cube.opaqueSections.push(s);
    cube.props = dict(parent.props);
  }
  mergeCommon(cube, def);
  if (def.present.has('sql')) {
    cube.sql = def.sql;
    cube.sqlLoc = def.sqlLoc;
  }
  if (def.present.has('sql_table')) cube.sqlTable = def.sqlTable;
  if (def.present.has('sql_alias')) cube.sqlAlias = def.sqlAlias;
  if (def.present.has('data_source')) cube.dataSource = def.dataSource ?? 'default';
  if (def.present.has('refresh_key')) cube.refreshKey = def.refreshKey;
  if (def.accessPolicy) cube.accessPolicy = def.accessPolicy;
  for (const join of def.joins) {
    const i = cube.joins.findIndex((j) => j.name === join.name);
    if (i >= 0) cube.joins[i] = join;
    else cube.joins.push(join);
  }
  byName(cube.dimensions, def.dimensions);
  byName(cube.measures, def.measures);
  byName(cube.segments, def.segments);
  byName(cube.hierarchies, def.hierarchies);
  byName(cube.preAggregations, def.preAggregations);
  const dims = Object.values(cube.dimensions);
  for (let i = 0; i < dims.length; i++) if (dims[i]!.primaryKey) cube.primaryKeys.push(dims[i]!.name);
  if (cube.primaryKeys.length === 1) cube.primaryKey = cube.primaryKeys[0];
  return { cube, diagnostics };
}
