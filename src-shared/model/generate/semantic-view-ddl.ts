// Model view → warehouse semantic view DDL (Snowflake's CREATE SEMANTIC VIEW grammar).
//
// One model view becomes one semantic view: every cube on the view's join paths is a logical table
// (aliased by the cube name, with its single-column PRIMARY KEY), every join along those paths a
// relationship from the referencing table's column to the referenced table's primary key, every
// exposed dimension a DIMENSION and every exposed measure an aggregate METRIC. Clauses come in the
// fixed order TABLES, RELATIONSHIPS, FACTS, DIMENSIONS, METRICS, COMMENT. A cube defined by plain
// SQL is read through a helper view `MODEL_SV_SRC_<CUBE>` created first (push rule 3).
//
// The work is split under `semantic-view/`: identifiers (`identifiers.ts`), the definition and
// its printer (`definition.ts`), options and results (`result.ts`) and the generator
// (`generator.ts`); this module runs the push analysis and the generator.

import { analyzeWarehousePush } from '../analyze';
import type { CompiledModel } from '../types';
import { Generator } from './semantic-view/generator';
import { SemanticViewDdlError, type SemanticViewDdl, type SemanticViewDdlOptions } from './semantic-view/result';
import { own } from '../dict';

export {
  columnOf,
  modelIdentifier,
  resolvedName,
  SNOWFLAKE_RESERVED,
  splitQualifiedName,
  sqlString,
  storedIdentifier,
  warehouseIdentifier,
  writeIdentifier,
  type SqlIdentifier,
} from './semantic-view/identifiers';
export { renderSemanticView, type LogicalTableSpec, type RelationshipSpec, type SemanticExpressionSpec, type SemanticViewSpec } from './semantic-view/definition';
export { HELPER_VIEW_PREFIX, SemanticViewDdlError, type HelperViewDdl, type SemanticViewDdl, type SemanticViewDdlOptions } from './semantic-view/result';

/**
 * The DDL that pushes `viewName` as a semantic view. Throws `SemanticViewDdlError` with the
 * analyzer's reasons when the view is not pushable.
 */
export function generateSemanticViewDdl(model: CompiledModel, viewName: string, options: SemanticViewDdlOptions): SemanticViewDdl {
  const view = own(model.views, viewName);
  if (!view) throw new SemanticViewDdlError('UNKNOWN_VIEW', `The model has no view named '${viewName}'.`);
  const analysis = options.analysis ?? analyzeWarehousePush(model, viewName);
  if (!analysis.pushable) {
    throw new SemanticViewDdlError(
      'MODEL_NOT_PUSHABLE',
      `View '${viewName}' cannot be pushed as a semantic view: ${analysis.issues.map((i) => i.message).join('; ')}.`,
      analysis.issues.map((i) => ({ code: i.reason ?? i.code, message: i.message, ...(i.member ? { member: i.member } : {}) })),
    );
  }
  const generated = new Generator(model, view, options).run();
  return { ...generated, skipped: analysis.skipped, skippedDetails: analysis.skippedDetails };
}
