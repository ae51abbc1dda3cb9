/**
 * Executes the statements that change the local warehouse: CREATE [OR REPLACE] SEMANTIC VIEW
 * (validated by the semantic validator against the base tables the role may read), CREATE VIEW
 * (the helper views of SQL-defined cubes, with their columns derived where the query allows),
 * DROP SEMANTIC VIEW, DROP VIEW, and USE (which changes the session context). Each checks DDL
 * enabled, usage, the create privilege, the warehouse and ownership the way Snowflake does.
 */
import { formatIdentifier, formatQualifiedName } from '../identifiers';
import type { WarehouseCatalog } from './catalog';
import { key, status, type ObjectName, type SessionContext, type StatementResult } from './catalog-types';
import type { CreateSchemaStatement, CreateSemanticViewStatement, CreateViewStatement, DropStatement, UseStatement } from './ddl-parser';
import { alreadyExists, invalidDefinition, noCurrent, objectNotFound, wrongObjectType } from './errors';
import { buildSemanticView, type BaseRelation, type ColumnInfo } from './semantic-validator';
import { analyzeViewQuery } from './view-query';

/**
 * CREATE SCHEMA: needs DDL enabled, usage on the database and CREATE SCHEMA on it (or owning it);
 * the creating role owns the new schema, so it may create semantic views and views in it.
 */
export function createSchema(catalog: WarehouseCatalog, statement: CreateSchemaStatement, context: SessionContext): StatementResult {
  catalog.requireDdl();
  const parts = statement.name.parts.map((part) => catalog.ident(part));
  const database = parts.length === 2 ? parts[0] : context.database;
  if (!database) throw noCurrent('database', 'CREATE SCHEMA');
  const schema = parts[parts.length - 1];
  catalog.requireDatabase(context, database);
  if (catalog.schemaRow(database, schema)) {
    if (statement.ifNotExists) return status(`${formatIdentifier(schema)} already exists, statement succeeded.`);
    throw alreadyExists(formatQualifiedName(database, schema));
  }
  if (catalog.databaseRow(database)?.owner !== context.role && !catalog.hasGrant(context.role, 'CREATE SCHEMA', 'DATABASE', key(database))) {
    throw catalog.denied(context, 'CREATE SCHEMA', 'DATABASE', formatIdentifier(database), database);
  }
  catalog.createSchema(database, schema, { owner: context.role });
  return status(`Schema ${formatIdentifier(schema)} successfully created.`);
}

export function createSemanticView(catalog: WarehouseCatalog, statement: CreateSemanticViewStatement, context: SessionContext): StatementResult {
  catalog.requireDdl();
  const target = catalog.objectName(statement.name, context, 'CREATE SEMANTIC VIEW');
  catalog.requireSchema(context, target.database, target.schema);
  catalog.requireSchemaPrivilege(context, target.database, target.schema, 'CREATE SEMANTIC VIEW');
  catalog.requireWarehouse(context);
  const existing = catalog.semanticViewRow(target);
  if (existing) {
    if (statement.ifNotExists) return status(`${formatIdentifier(target.name)} already exists, statement succeeded.`);
    if (!statement.orReplace) throw alreadyExists(formatIdentifier(target.name));
    catalog.requireOwnership(context, existing.owner, 'SEMANTIC VIEW', target);
  }
  const definition = buildSemanticView(statement, target, {
    resolveIdentifier: (identifier) => catalog.ident(identifier),
    baseRelation: (name): BaseRelation => {
      const object = catalog.objectName(name, context, 'CREATE SEMANTIC VIEW');
      const row = catalog.requireReadableRelation(context, object, 'Table');
      return { ...object, columns: row.columns_json ? (JSON.parse(row.columns_json) as ColumnInfo[]) : null };
    },
  });
  catalog.storeSemanticView(target, context.role, definition);
  return status(`Semantic view ${formatIdentifier(target.name)} successfully created.`);
}

export function createView(catalog: WarehouseCatalog, statement: CreateViewStatement, context: SessionContext): StatementResult {
  catalog.requireDdl();
  const target = catalog.objectName(statement.name, context, 'CREATE VIEW');
  catalog.requireSchema(context, target.database, target.schema);
  catalog.requireSchemaPrivilege(context, target.database, target.schema, 'CREATE VIEW');
  catalog.requireWarehouse(context);
  const existing = catalog.relationRow(target.database, target.schema, target.name);
  if (existing) {
    const display = formatQualifiedName(target.database, target.schema, target.name);
    if (existing.kind !== 'VIEW') {
      if (statement.ifNotExists) return status(`${formatIdentifier(target.name)} already exists, statement succeeded.`);
      throw statement.orReplace ? wrongObjectType(display, existing.kind, 'VIEW') : alreadyExists(formatIdentifier(target.name));
    }
    if (statement.ifNotExists) return status(`${formatIdentifier(target.name)} already exists, statement succeeded.`);
    if (!statement.orReplace) throw alreadyExists(formatIdentifier(target.name));
    catalog.requireOwnership(context, existing.owner, 'VIEW', target);
  }

  const analysis = analyzeViewQuery(statement.queryTokens);
  const read = new Map<string, { object: ObjectName; columns: ColumnInfo[] | null }>();
  for (const parts of analysis.tableRefs) {
    const object = catalog.objectName({ parts, pos: parts[0].pos }, context, 'CREATE VIEW');
    const row = catalog.requireReadableRelation(context, object);
    read.set(key(object.database, object.schema, object.name), { object, columns: row.columns_json ? (JSON.parse(row.columns_json) as ColumnInfo[]) : null });
  }
  let columns = viewColumns(catalog, analysis, context, read);
  if (statement.columns) {
    const declared = statement.columns.map((column) => catalog.ident(column));
    if (columns && columns.length !== declared.length) {
      throw invalidDefinition(`View definition for '${formatQualifiedName(target.database, target.schema, target.name)}' declared ${declared.length} column(s), but view query produces ${columns.length} column(s).`);
    }
    columns = declared.map((name, index) => ({ name, type: columns?.[index]?.type ?? null }));
  }
  catalog.storeView(target, context.role, { comment: statement.comment, columns, queryText: statement.queryText });
  return status(`View ${formatIdentifier(target.name)} successfully created.`);
}

/** The output columns of a view query when they can be derived, else null. */
function viewColumns(
  catalog: WarehouseCatalog,
  analysis: ReturnType<typeof analyzeViewQuery>,
  context: SessionContext,
  read: Map<string, { object: ObjectName; columns: ColumnInfo[] | null }>,
): ColumnInfo[] | null {
  if (!analysis.outputs) return null;
  const from = analysis.topLevelFrom.map((item) => {
    const object = catalog.objectName({ parts: item.table, pos: item.table[0].pos }, context, 'CREATE VIEW');
    const columns = read.get(key(object.database, object.schema, object.name))?.columns ?? null;
    return { qualifier: catalog.ident(item.alias ?? item.table[item.table.length - 1]), columns };
  });
  const sourceColumns = (qualifier: string | null): ColumnInfo[] | null => {
    const candidates = qualifier === null ? from : from.filter((item) => item.qualifier === qualifier);
    if (candidates.length !== 1) return null;
    return candidates[0].columns;
  };
  const result: ColumnInfo[] = [];
  for (const output of analysis.outputs) {
    if (output.kind === 'star') {
      const columns = sourceColumns(output.qualifier ? catalog.ident(output.qualifier) : null);
      if (!columns) return null;
      result.push(...columns);
      continue;
    }
    let type: string | null = null;
    if (output.source && output.source.length <= 2) {
      const qualifier = output.source.length === 2 ? catalog.ident(output.source[0]) : null;
      const column = catalog.ident(output.source[output.source.length - 1]);
      type = sourceColumns(qualifier)?.find((candidate) => candidate.name === column)?.type ?? null;
    }
    result.push({ name: catalog.ident(output.name), type });
  }
  const names = new Set(result.map((column) => column.name));
  return names.size === result.length ? result : null;
}

export function dropSemanticView(catalog: WarehouseCatalog, statement: DropStatement, context: SessionContext): StatementResult {
  catalog.requireDdl();
  const target = catalog.objectName(statement.name, context, 'DROP SEMANTIC VIEW');
  catalog.requireSchema(context, target.database, target.schema);
  const existing = catalog.semanticViewRow(target);
  if (!existing) {
    if (statement.ifExists) return status(`Drop statement executed successfully (${formatIdentifier(target.name)} already dropped).`);
    throw objectNotFound('Semantic view', formatQualifiedName(target.database, target.schema, target.name));
  }
  catalog.requireOwnership(context, existing.owner, 'SEMANTIC VIEW', target);
  catalog.deleteSemanticView(target);
  return status(`${formatIdentifier(target.name)} successfully dropped.`);
}

export function dropView(catalog: WarehouseCatalog, statement: DropStatement, context: SessionContext): StatementResult {
  catalog.requireDdl();
  const target = catalog.objectName(statement.name, context, 'DROP VIEW');
  catalog.requireSchema(context, target.database, target.schema);
  const existing = catalog.relationRow(target.database, target.schema, target.name);
  const display = formatQualifiedName(target.database, target.schema, target.name);
  if (!existing) {
    if (statement.ifExists) return status(`Drop statement executed successfully (${formatIdentifier(target.name)} already dropped).`);
    throw objectNotFound('View', display);
  }
  if (existing.kind !== 'VIEW') throw wrongObjectType(display, existing.kind, 'VIEW');
  catalog.requireOwnership(context, existing.owner, 'VIEW', target);
  catalog.deleteRelation(target);
  return status(`${formatIdentifier(target.name)} successfully dropped.`);
}

export function use(catalog: WarehouseCatalog, statement: UseStatement, context: SessionContext): StatementResult {
  const parts = statement.name.parts.map((part) => catalog.ident(part));
  switch (statement.objectKind) {
    case 'ROLE':
      if (!catalog.roleExists(parts[0])) throw objectNotFound('Role', formatIdentifier(parts[0]));
      context.role = parts[0];
      break;
    case 'WAREHOUSE': {
      const row = catalog.warehouseRow(parts[0]);
      if (!row) throw objectNotFound('Warehouse', formatIdentifier(parts[0]));
      if (row.owner !== context.role && !catalog.hasGrant(context.role, 'USAGE', 'WAREHOUSE', key(parts[0]))) {
        throw catalog.denied(context, 'USAGE', 'WAREHOUSE', formatIdentifier(parts[0]), parts[0]);
      }
      context.warehouse = parts[0];
      break;
    }
    case 'DATABASE':
      catalog.requireDatabase(context, parts[0]);
      context.database = parts[0];
      context.schema = 'PUBLIC';
      if (!catalog.schemaRow(parts[0], 'PUBLIC')) context.schema = null;
      break;
    case 'SCHEMA': {
      const database = parts.length === 2 ? parts[0] : context.database;
      if (!database) throw noCurrent('database', 'USE SCHEMA');
      catalog.requireSchema(context, database, parts[parts.length - 1]);
      context.database = database;
      context.schema = parts[parts.length - 1];
      break;
    }
  }
  return status('Statement executed successfully.');
}
