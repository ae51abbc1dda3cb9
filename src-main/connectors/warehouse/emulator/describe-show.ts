/**
 * Executes the statements that read the local warehouse: DESCRIBE SEMANTIC VIEW (the rows
 * Snowflake returns), SHOW [TERSE] SEMANTIC VIEWS with its LIKE, IN, STARTS WITH and LIMIT
 * filters (listing only what the role may use), and SELECT GET_DDL for semantic views and views.
 */
import type { DescribeRow } from '../types';
import { formatIdentifier, formatQualifiedName } from '../identifiers';
import type { WarehouseCatalog } from './catalog';
import { key, type ObjectName, type SessionContext } from './catalog-types';
import { parseQualifiedNameText, type DescribeSemanticViewStatement, type GetDdlStatement, type QualifiedName, type ShowDatabasesStatement, type ShowSchemasStatement, type ShowSemanticViewsStatement } from './ddl-parser';
import { describeRows, renderSemanticViewDdl, type SemanticViewDefinition } from './definition';
import { noCurrent, objectNotFound, syntaxErrorAt, unsupported } from './errors';

/** Snowflake LIKE: case-insensitive, `%` any run, `_` one character, backslash escapes. */
function likeToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i];
    if (ch === '\\' && i + 1 < pattern.length) source += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (ch === '%') source += '[\\s\\S]*';
    else if (ch === '_') source += '[\\s\\S]';
    else source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
  return new RegExp(`^${source}$`, 'i');
}

export function loadSemanticView(catalog: WarehouseCatalog, target: ObjectName, context: SessionContext): SemanticViewDefinition {
  catalog.requireSchema(context, target.database, target.schema);
  const row = catalog.semanticViewRow(target);
  if (!row) throw objectNotFound('Semantic view', formatQualifiedName(target.database, target.schema, target.name));
  return JSON.parse(row.definition_json) as SemanticViewDefinition;
}

export function describe(catalog: WarehouseCatalog, statement: DescribeSemanticViewStatement, context: SessionContext): DescribeRow[] {
  const target = catalog.objectName(statement.name, context, 'DESCRIBE SEMANTIC VIEW');
  return describeRows(loadSemanticView(catalog, target, context));
}

export function show(catalog: WarehouseCatalog, statement: ShowSemanticViewsStatement, context: SessionContext): Record<string, unknown>[] {
  let scope = statement.scope;
  if (!scope) scope = context.database ? { kind: 'DATABASE', name: null } : { kind: 'ACCOUNT' };
  let filter: { database?: string; schema?: string } = {};
  if (scope.kind === 'DATABASE') {
    const database = scope.name ? databaseFrom(catalog, scope.name) : context.database;
    if (!database) throw noCurrent('database', 'SHOW SEMANTIC VIEWS');
    catalog.requireDatabase(context, database);
    filter = { database };
  } else if (scope.kind === 'SCHEMA') {
    let database: string | null;
    let schema: string | null;
    if (scope.name) {
      const parts = scope.name.parts.map((part) => catalog.ident(part));
      if (parts.length > 2) throw syntaxErrorAt(scope.name.parts[2].pos, scope.name.parts[2].text);
      database = parts.length === 2 ? parts[0] : context.database;
      schema = parts[parts.length - 1];
    } else {
      database = context.database;
      schema = context.schema;
    }
    if (!database) throw noCurrent('database', 'SHOW SEMANTIC VIEWS');
    if (!schema) throw noCurrent('schema', 'SHOW SEMANTIC VIEWS');
    catalog.requireSchema(context, database, schema);
    filter = { database, schema };
  }
  const rows = catalog.semanticViewRows(filter);
  const like = statement.like === null ? null : likeToRegExp(statement.like);
  // Only views in schemas the role may use are listed, as SHOW lists only what the role can see.
  let visible = rows.filter((row) => (like ? like.test(row.name) : true) && canUseSchema(catalog, context, row.database_name, row.schema_name));
  if (statement.startsWith !== null) visible = visible.filter((row) => row.name.startsWith(statement.startsWith!));
  if (statement.limitFrom !== null) visible = visible.filter((row) => row.name >= statement.limitFrom!);
  if (statement.limit !== null) visible = visible.slice(0, statement.limit);
  return visible.map((row) =>
    statement.terse
      ? { created_on: row.created_on, name: row.name, kind: 'SEMANTIC_VIEW', database_name: row.database_name, schema_name: row.schema_name }
      : {
          created_on: row.created_on,
          name: row.name,
          database_name: row.database_name,
          schema_name: row.schema_name,
          comment: row.comment,
          owner: row.owner,
          owner_role_type: 'ROLE',
          extension: null,
        },
  );
}

/** SHOW SCHEMAS: the schemas of a database (or the account) that the role may use, as Snowflake lists them. */
export function showSchemas(catalog: WarehouseCatalog, statement: ShowSchemasStatement, context: SessionContext): Record<string, unknown>[] {
  let database: string | null = null;
  if (!statement.account) {
    database = statement.database ? databaseFrom(catalog, statement.database) : context.database;
    if (!database) throw noCurrent('database', 'SHOW SCHEMAS');
    catalog.requireDatabase(context, database);
  }
  return catalog
    .schemaRows(database)
    .filter((row) => canUseSchema(catalog, context, row.database_name, row.name))
    .map((row) =>
      statement.terse
        ? { created_on: row.created_on, name: row.name, kind: null, database_name: row.database_name, schema_name: null }
        : {
            created_on: row.created_on,
            name: row.name,
            is_default: 'N',
            is_current: row.database_name === context.database && row.name === context.schema ? 'Y' : 'N',
            database_name: row.database_name,
            owner: row.owner,
            comment: null,
            options: '',
            retention_time: '1',
            owner_role_type: 'ROLE',
          },
    );
}

/** SHOW DATABASES: the databases the role may use. */
export function showDatabases(catalog: WarehouseCatalog, statement: ShowDatabasesStatement, context: SessionContext): Record<string, unknown>[] {
  return catalog
    .databaseRows()
    .filter((row) => row.owner === context.role || catalog.hasGrant(context.role, 'USAGE', 'DATABASE', key(row.name)))
    .map((row) =>
      statement.terse
        ? { created_on: row.created_on, name: row.name, kind: 'STANDARD', database_name: null, schema_name: null }
        : {
            created_on: row.created_on,
            name: row.name,
            is_default: 'N',
            is_current: row.name === context.database ? 'Y' : 'N',
            origin: '',
            owner: row.owner,
            comment: null,
            options: '',
            retention_time: '1',
            kind: 'STANDARD',
            owner_role_type: 'ROLE',
          },
    );
}

function canUseSchema(catalog: WarehouseCatalog, context: SessionContext, database: string, schema: string): boolean {
  const db = catalog.databaseRow(database);
  const sc = catalog.schemaRow(database, schema);
  if (!db || !sc) return false;
  const usesDatabase = db.owner === context.role || catalog.hasGrant(context.role, 'USAGE', 'DATABASE', key(database));
  const usesSchema = sc.owner === context.role || catalog.hasGrant(context.role, 'USAGE', 'SCHEMA', key(database, schema));
  return usesDatabase && usesSchema;
}

function databaseFrom(catalog: WarehouseCatalog, name: QualifiedName): string {
  if (name.parts.length > 1) throw syntaxErrorAt(name.parts[1].pos, name.parts[1].text);
  return catalog.ident(name.parts[0]);
}

export function getDdl(catalog: WarehouseCatalog, statement: GetDdlStatement, context: SessionContext): Record<string, unknown>[] {
  const objectType = statement.objectType.toUpperCase().replace(/\s+/g, '_');
  const name = parseQualifiedNameText(statement.objectName);
  const column = statement.columnAlias ? catalog.ident(statement.columnAlias) : statement.columnName;
  if (objectType === 'SEMANTIC_VIEW') {
    const target = catalog.objectName(name, context, 'GET_DDL');
    const definition = loadSemanticView(catalog, target, context);
    return [{ [column]: renderSemanticViewDdl(definition, { fullyQualified: statement.fullyQualified }) }];
  }
  if (objectType === 'VIEW') {
    const target = catalog.objectName(name, context, 'GET_DDL');
    catalog.requireSchema(context, target.database, target.schema);
    const row = catalog.relationRow(target.database, target.schema, target.name);
    if (!row || row.kind !== 'VIEW') throw objectNotFound('View', formatQualifiedName(target.database, target.schema, target.name));
    const viewName = statement.fullyQualified ? formatQualifiedName(target.database, target.schema, target.name) : formatIdentifier(target.name);
    return [{ [column]: `create or replace view ${viewName} as ${row.view_query};` }];
  }
  throw unsupported(`GET_DDL for object type '${statement.objectType}' (only 'SEMANTIC_VIEW' and 'VIEW').`);
}
