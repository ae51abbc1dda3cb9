// Each part of a definition, paired: the platform validator's path (platform-keys.ts) and the set
// of keys Drydock's compiler accepts there (src-shared/model/normalize/keys.ts). The key test and
// the keys table in docs/fidelity.md are built from this list.
import * as K from '../../src-shared/model/normalize/keys';

export interface KeyedPart {
  /** As docs/fidelity.md names it. */
  part: string;
  /** Platform validator path. */
  path: string;
  drydock: Set<string>;
  /** Keys that are not keys of the platform's schema here (the list form's item name). */
  listName?: boolean;
}

export const KEYED_PARTS: KeyedPart[] = [
  { part: 'cube', path: 'cube', drydock: K.CUBE_KEYS },
  { part: 'view', path: 'view', drydock: K.VIEW_KEYS },
  { part: 'view group', path: 'viewGroup', drydock: K.VIEW_GROUP_KEYS },
  { part: 'dimension', path: 'cube.dimensions.*', drydock: K.DIMENSION_KEYS, listName: true },
  { part: 'measure', path: 'cube.measures.*', drydock: K.MEASURE_KEYS, listName: true },
  { part: 'segment', path: 'cube.segments.*', drydock: K.SEGMENT_KEYS, listName: true },
  { part: 'join', path: 'cube.joins[]', drydock: K.JOIN_KEYS },
  { part: 'hierarchy', path: 'cube.hierarchies.*', drydock: K.HIERARCHY_KEYS, listName: true },
  { part: 'granularity', path: 'cube.dimensions.*.granularities.*', drydock: K.GRANULARITY_KEYS, listName: true },
  { part: 'rolling window', path: 'cube.measures.*.rollingWindow', drydock: K.ROLLING_WINDOW_KEYS },
  { part: 'measure filter', path: 'cube.measures.*.filters[]', drydock: K.MEASURE_FILTER_KEYS },
  { part: 'pre-aggregation', path: 'cube.preAggregations.*', drydock: K.PRE_AGGREGATION_KEYS, listName: true },
  { part: 'cube refresh_key', path: 'cube.refreshKey', drydock: K.REFRESH_KEY_KEYS },
  { part: 'pre-aggregation refresh_key', path: 'cube.preAggregations.*.refreshKey', drydock: K.PRE_AGGREGATION_REFRESH_KEY_KEYS },
  { part: 'access policy', path: 'cube.accessPolicy[]', drydock: K.ACCESS_POLICY_KEYS },
  { part: 'member_level', path: 'cube.accessPolicy[].memberLevel', drydock: K.MEMBER_LEVEL_KEYS },
  { part: 'row_level', path: 'cube.accessPolicy[].rowLevel', drydock: K.ROW_LEVEL_KEYS },
  { part: 'view cube (join_path entry)', path: 'view.cubes[]', drydock: K.VIEW_CUBE_KEYS },
  { part: 'view include item', path: 'view.cubes[].includes[]', drydock: K.INCLUDE_KEYS },
  { part: 'view folder', path: 'view.folders[]', drydock: K.FOLDER_KEYS },
];

export const snakeToCamel = (key: string): string => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
export const camelToSnake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Keys the platform's compiler adds to definitions itself (never written by users). */
export const INTERNAL_KEYS = new Set(['fileName', 'allDefinitions', 'rawFolders', 'rawCubes', 'isView']);

/** The table in docs/fidelity.md: per part, the keys accepted (the platform's, which Drydock's equal). */
export function keysTable(platformSnake: (path: string) => Set<string>): string {
  const rows = KEYED_PARTS.map((part) => {
    const keys = [...platformSnake(part.path)].sort();
    return `| ${part.part} | ${keys.length} | ${keys.map((k) => `\`${k}\``).join(' ')} |`;
  });
  return ['| Part | Keys | Accepted by both compilers (YAML spelling; JS takes them in camelCase) |', '| --- | --- | --- |', ...rows].join('\n');
}
