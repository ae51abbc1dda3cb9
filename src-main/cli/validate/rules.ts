// One-line descriptions of the compiler's diagnostic codes: the rule names code-scanning tools show.
import { DiagnosticCodes as C, type DiagnosticCode } from '../../../src-shared/model';

/** Every code must have one (the type checker sees to it). */
export const RULE_DESCRIPTIONS: Record<DiagnosticCode, string> = {
  [C.YAML_SYNTAX]: 'YAML syntax error in a model file',
  [C.JS_SYNTAX]: 'JavaScript syntax error in a model file',
  [C.DUPLICATE_KEY]: 'The same key appears twice in one mapping',
  [C.UNKNOWN_TOP_LEVEL_KEY]: 'Unknown top-level key (expected cubes, views or view_groups)',
  [C.MEMBERS_NOT_LIST]: 'Members must be written as a list',
  [C.TEMPLATED_UNPARSEABLE]: 'A templated (Jinja) model file could not be read statically',
  [C.TEMPLATED_MODEL]: 'Templated (Jinja) model: parts are checked only after rendering',
  [C.DYNAMIC_MODEL]: 'Dynamic JavaScript model: parts cannot be evaluated statically',
  [C.UNKNOWN_PROPERTY]: 'Unknown property',
  [C.MISSING_PROPERTY]: 'A required property is missing',
  [C.INVALID_VALUE]: 'A property has an invalid value',
  [C.INVALID_IDENTIFIER]: 'A name is not a valid identifier',
  [C.UNKNOWN_MEMBER_TYPE]: 'Unknown dimension or measure type',
  [C.INVALID_RELATIONSHIP]: 'Unknown join relationship',
  [C.INVALID_ROLLING_WINDOW]: 'Invalid rolling window',
  [C.INVALID_GRANULARITY]: 'Invalid custom granularity',
  [C.SQL_REQUIRED]: 'This member needs a sql expression',
  [C.SQL_XOR_SQL_TABLE]: 'A cube needs exactly one of sql and sql_table',
  [C.DUPLICATE_CUBE]: 'Two cubes have the same name',
  [C.DUPLICATE_VIEW]: 'Two views have the same name',
  [C.CUBE_VIEW_NAME_CONFLICT]: 'A cube and a view have the same name',
  [C.DUPLICATE_MEMBER]: 'Two members of a cube or view have the same name',
  [C.DUPLICATE_JOIN]: 'A cube joins the same cube twice',
  [C.DUPLICATE_VIEW_GROUP]: 'Two view groups have the same name',
  [C.UNRESOLVED_REFERENCE]: 'A reference names no member',
  [C.UNKNOWN_CUBE]: 'A reference names an unknown cube',
  [C.UNKNOWN_EXTENDS]: 'extends names an unknown cube or view',
  [C.EXTENDS_CYCLE]: 'extends forms a cycle',
  [C.UNKNOWN_JOIN_CUBE]: 'A join names an unknown cube',
  [C.UNKNOWN_JOIN_PATH_CUBE]: 'A view join path names an unknown cube',
  [C.JOIN_PATH_NOT_FOUND]: 'A view join path does not follow declared joins',
  [C.PRIMARY_KEY_REQUIRED]: 'A cube that is joined needs a primary key',
  [C.HIERARCHY_LEVEL_NOT_DIMENSION]: 'A hierarchy level is not a dimension',
  [C.PRE_AGGREGATION_UNKNOWN_MEMBER]: 'A pre-aggregation names an unknown member',
  [C.UNKNOWN_VIEW_IN_GROUP]: 'A view group names an unknown view',
  [C.VIEW_INCLUDE_UNKNOWN_MEMBER]: 'A view includes an unknown member',
  [C.VIEW_EXCLUDE_UNKNOWN_MEMBER]: 'A view excludes an unknown member',
  [C.VIEW_INCLUDE_PATH]: 'A view include is written as a path',
  [C.VIEW_MEMBER_CONFLICT]: 'Two members of a view end up with the same name',
  [C.VIEW_SPLIT_WITH_PREFIX]: 'split cannot be combined with prefix',
  [C.FOLDER_UNKNOWN_MEMBER]: 'A view folder names an unknown member',
  [C.DUPLICATE_FOLDER]: 'Two folders of a view have the same name',
  [C.NOT_PUSHABLE]: 'The view cannot be pushed as a warehouse semantic view',
  [C.NOT_PUBLISHABLE]: 'The view cannot be published as a lakehouse metric view',
  [C.PUSH_TEMPLATED_SQL]: 'Push: templated SQL cannot be pushed',
  [C.PUSH_PRIMARY_KEY]: 'Push: a cube of the view has no primary key',
  [C.PUSH_JOIN_NOT_EQUI]: 'Push: a join is not an equality of columns',
  [C.PUSH_JOIN_NOT_PRIMARY_KEY]: 'Push: a join does not end on a primary key',
  [C.PUSH_MEASURE_UNSUPPORTED]: 'Push: a measure type has no semantic view equivalent',
  [C.PUBLISH_DYNAMIC_MODEL]: 'Publish: dynamic models cannot be published',
  [C.PUBLISH_UNFLATTENED_EXTENDS]: 'Publish: extends could not be flattened',
  [C.PUBLISH_ACCESS_POLICY]: 'Publish: access policies are not carried over',
  [C.PUBLISH_MIXED_DATA_SOURCES]: 'Publish: the view mixes data sources',
  [C.PUBLISH_AMBIGUOUS_ROOT]: 'Publish: the view has no single root cube',
  [C.PUBLISH_CATALOG_REQUIRED]: 'Publish: the data source needs a catalog',
  [C.PUBLISH_UNSUPPORTED]: 'Publish: a feature has no metric view equivalent',
  [C.VIEW_JOIN_NOT_REPRESENTABLE]: 'A join of the view cannot be represented in the target',
  [C.MEMBER_WITHHELD]: 'A member is left out of the published view',
  [C.METADATA_NOT_REPRESENTABLE]: 'Metadata cannot be represented in the target',
  [C.UNKNOWN_VIEW]: 'Unknown view',
};

/** The rule's description; codes added to the compiler later still get a readable one. */
export function describeCode(code: string): string {
  const known = (RULE_DESCRIPTIONS as Record<string, string>)[code];
  if (known) return known;
  const text = code.replace(/^MODEL_/, '').toLowerCase().split('_').join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
