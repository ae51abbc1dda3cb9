// What generating a semantic view takes and gives: the options (target name, database, schema,
// helper schema, the data source's QUOTED_IDENTIFIERS_IGNORE_CASE), the helper views and
// statements to run, what was skipped and warned about, and the error a view that cannot be
// pushed raises with its reasons.

import type { SkippedFeature, WarehousePushAnalysis } from '../../analyze';
import type { SemanticViewSpec } from './definition';

export const HELPER_VIEW_PREFIX = 'MODEL_SV_SRC_';

export interface SemanticViewDdlOptions {
  /** Name of the semantic view to create (the request's prefix + the model view name). */
  name: string;
  /** Database and schema the semantic view is created in (stored names). */
  database: string;
  schema: string;
  /** Schema of the helper views of SQL-defined cubes (default `PUBLIC`), in `database`. */
  helperSchema?: string;
  /** Put before the helper views' names (a dev push's per-user prefix, so production helpers stay untouched). */
  helperNamePrefix?: string;
  /** Schema for one-part `sql_table` names (default: `schema`). */
  defaultSchema?: string;
  /** The data source's QUOTED_IDENTIFIERS_IGNORE_CASE setting (default false). */
  quotedIdentifiersIgnoreCase?: boolean;
  /** The push analysis of the view when the caller already ran it. */
  analysis?: WarehousePushAnalysis;
}

export interface HelperViewDdl {
  /** The cube the helper view stands in for. */
  cube: string;
  /** Stored name of the helper view. */
  name: string;
  ddl: string;
}

export interface SemanticViewDdl {
  /** The model view. */
  view: string;
  /** Stored name of the semantic view (what SHOW SEMANTIC VIEWS will list). */
  name: string;
  database: string;
  schema: string;
  /** Helper views to create first, in order. */
  helperViews: HelperViewDdl[];
  /** The CREATE OR REPLACE SEMANTIC VIEW statement. */
  ddl: string;
  /** Every statement to run, helper views first. */
  statements: string[];
  /** Features of the view the push leaves out (rule 6). */
  skipped: SkippedFeature[];
  skippedDetails: { feature: SkippedFeature; items: string[] }[];
  /** Things that are pushed but change on the way (e.g. names folded by QUOTED_IDENTIFIERS_IGNORE_CASE). */
  warnings: string[];
  spec: SemanticViewSpec;
}

/** A view that cannot be expressed as a semantic view; `reasons` say why (analyzer diagnostics or generator findings). */
export class SemanticViewDdlError extends Error {
  constructor(
    readonly code: 'MODEL_NOT_PUSHABLE' | 'IDENTIFIER_CASE_COLLISION' | 'UNKNOWN_VIEW',
    message: string,
    readonly reasons: { code: string; message: string; member?: string }[] = [],
  ) {
    super(message);
    this.name = 'SemanticViewDdlError';
  }
}
