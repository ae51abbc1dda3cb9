// The typed records stage 2 produces from one raw definition: cubes, views (with their cube
// entries and folders) and view groups, plus the identifier rule every name must follow. Later
// stages (resolve, check, compile) read only these.

import type { AccessPolicy, Dimension, Hierarchy, Join, Measure, ModelFormat, PlainValue, PreAggregation, Segment, SourceLocation, ViewCubeInclude } from '../types';

export const IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/**
 * `IDENTIFIER.test(name)` without the regular expression: a test allocates (about 56 bytes in V8)
 * and this runs for every member of every cube (issue 28).
 */
export function isIdentifier(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
    if (!letter && (i === 0 || c < 48 || c > 57)) return false;
  }
  return true;
}

export interface EntityCommon {
  name: string;
  file: string;
  loc: SourceLocation;
  index: number;
  format: ModelFormat;
  templated: boolean;
  dynamic: boolean;
  /** Keys written in the definition (snake_case), to apply `extends` overrides. */
  present: Set<string>;
  props: Record<string, PlainValue>;
  title?: string;
  description?: string;
  public?: boolean;
  meta?: PlainValue;
  extends?: { name: string; loc: SourceLocation };
  accessPolicy?: AccessPolicy[];
  dimensions: Dimension[];
  measures: Measure[];
  segments: Segment[];
  hierarchies: Hierarchy[];
  opaqueSections: string[];
  /** The whole definition is dynamic: nothing is known but the name. */
  opaque: boolean;
}

export interface CubeDef extends EntityCommon {
  kind: 'cube';
  sql?: string;
  sqlLoc?: SourceLocation;
  sqlTable?: string;
  sqlAlias?: string;
  dataSource?: string;
  refreshKey?: PlainValue;
  joins: Join[];
  preAggregations: PreAggregation[];
}

export interface ViewCubeDef {
  joinPath: string[];
  joinPathLoc: SourceLocation;
  alias?: string;
  prefix: boolean;
  split: boolean;
  includes: '*' | ViewCubeInclude[];
  excludes: { name: string; loc: SourceLocation }[];
  loc: SourceLocation;
  dynamic: boolean;
}

export interface FolderDef {
  name: string;
  loc: SourceLocation;
  includes: '*' | (FolderDef | { name: string; loc: SourceLocation })[];
}

export interface ViewDef extends EntityCommon {
  kind: 'view';
  cubes: ViewCubeDef[];
  folders?: FolderDef[];
  viewGroups: string[];
}

export interface ViewGroupDef {
  kind: 'view_group';
  name: string;
  file: string;
  loc: SourceLocation;
  index: number;
  title?: string;
  description?: string;
  views: { name: string; loc: SourceLocation }[];
}

export type EntityDef = CubeDef | ViewDef | ViewGroupDef;
