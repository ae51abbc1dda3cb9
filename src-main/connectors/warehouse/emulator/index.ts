export {
  WarehouseEmulator,
  EmulatorSession,
  DEFAULT_EMULATOR_SEED,
  SYSTEM_ROLE,
  type EmulatorSeed,
  type WarehouseEmulatorOptions,
  type EmulatorPrivilege,
  type GrantTarget,
  type Grant,
  type TableColumn,
  type SessionContext,
  type StatementResult,
} from './emulator';
export { LocalWarehouseConnector, type LocalWarehouseConnectorOptions } from './local-connector';
export {
  tokenize,
  parseStatements,
  parseStatement,
  parseSemanticViewDdl,
  parseExpression,
  parseQualifiedNameText,
  type Token,
  type Statement,
  type CreateSemanticViewStatement,
  type CreateViewStatement,
  type SemanticExpressionNode,
  type LogicalTableNode,
  type RelationshipNode,
  type ExpressionNode,
  type Identifier,
  type QualifiedName,
} from './ddl-parser';
export { describeRows, renderSemanticViewDdl, type SemanticViewDefinition, type SemanticViewTable, type SemanticViewRelationship, type SemanticViewMember } from './definition';
export { buildSemanticView, AGGREGATE_FUNCTIONS, type BaseRelation, type ColumnInfo, type SemanticViewBuildContext } from './semantic-validator';
export { normalizeDataType } from './data-types';
export { runWarehouseSelect, warehouseSelectSql, type WarehouseSelectOptions } from './select';
export { compileSemanticViewQueries, hasSemanticViewClause, type SemanticQueryHost } from './semantic-query';
