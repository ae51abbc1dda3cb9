// Types of a change review (issue 26): what a model change is, member by member, and what it
// reaches. Pure data (JSON): computed on a worker thread, stored with the review, drawn by the
// renderer and the command line.

import type { SourceLocation } from '../types';

/** What a change is about. */
export type ChangeTarget =
  | 'cube'
  | 'view'
  | 'dimension'
  | 'measure'
  | 'segment'
  | 'hierarchy'
  | 'pre_aggregation'
  | 'join'
  /** A `cubes:` entry of a view (its join path, includes, excludes, prefix, alias). */
  | 'view_cube'
  /** A member a view exposes (after its includes and prefixes). */
  | 'view_member';

export type ChangeKind = 'added' | 'removed' | 'renamed' | 'changed';

/**
 * What an attribute change can do: move numbers (`numbers`: SQL, type, filters, joins, access
 * policies…), hide or show a member (`visibility`: public/shown, member-level access), or only change
 * how things are described (`metadata`: title, description, format, meta, drill members…).
 */
export type ChangeEffect = 'numbers' | 'visibility' | 'metadata';

export interface AttributeChange {
  /** The model key as written (`sql`, `type`, `filters`, `rolling_window`, `relationship`, `includes`…). */
  attribute: string;
  effect: ChangeEffect;
  /** JSON of the value before and after (null when absent on that side). */
  before: unknown;
  after: unknown;
}

export interface ModelChange {
  kind: ChangeKind;
  target: ChangeTarget;
  /** The cube or view the change belongs to (its head name; the base name when removed). */
  entity: string;
  entityKind: 'cube' | 'view';
  /**
   * The thing changed, qualified: `cube.member`, `view.member`, `cube->joined` for a join,
   * `view[join_path]` for a view's cube entry, the entity's own name for a cube or view.
   */
  name: string;
  /** `renamed`: the qualified name it had. */
  previousName?: string;
  /** `changed` (and `renamed` with other differences): which attributes differ. */
  attributes: AttributeChange[];
  /** The strongest effect of the change (`added`/`removed`/`renamed` count as `numbers` for members). */
  effect: ChangeEffect;
  /** Where it is defined on each side (null on the side it does not exist). */
  base: SourceLocation | null;
  head: SourceLocation | null;
}

/** Why a member is affected by the change. */
export type AffectedReason =
  /** Its own definition changed. */
  | 'changed'
  | 'removed'
  | 'renamed'
  | 'added'
  /** It reads (through SQL, a view, extends) something that changed. */
  | 'depends'
  /** A join on the way to its cube changed. */
  | 'join'
  /** Its cube's or view's own definition changed (SQL, table, data source, access policy). */
  | 'entity';

export interface AffectedMember {
  /** `cube.member` or `view.member`. */
  name: string;
  kind: 'dimension' | 'measure' | 'segment';
  reason: AffectedReason;
  /** What it depends on that changed (qualified names), for `depends`, `join` and `entity`. */
  via: string[];
  /** The member no longer exists (or is no longer public) on the head side: queries naming it break. */
  gone: boolean;
  /** Head-side name of a renamed member. */
  renamedTo?: string;
}

/** One side of a review that did not compile cleanly: what it could not compile. */
export interface SideProblems {
  errorCount: number;
  /** First errors, with file and line. */
  errors: { file: string; line: number; column: number; code: string; message: string }[];
  /** Cubes and views defined in files with errors: reviewed as far as they compiled. */
  entities: string[];
}
