/**
 * The local warehouse: a catalog of databases, schemas, tables, helper views and semantic views
 * kept in its own SQLite file (`catalog.ts`), executing the SQL Drydock sends to a warehouse and
 * enforcing the privileges and settings a real account would (DDL enabled, usage, select, create
 * privileges, ownership, the quoted-identifiers-ignore-case setting), so every failure path can be
 * rehearsed offline. This module opens sessions and dispatches each parsed statement to the module
 * that executes its kind (`execute-ddl.ts`, `describe-show.ts`). Privileges and settings are
 * administered through methods, not SQL.
 */
import { WarehouseError, WarehouseErrorCodes } from '../types';
import { WarehouseCatalog } from './catalog';
import type { SessionContext, StatementResult } from './catalog-types';
import { parseStatements, type Statement } from './ddl-parser';
import { describe, getDdl, show, showDatabases, showSchemas } from './describe-show';
import { statementCount } from './errors';
import { createSchema, createSemanticView, createView, dropSemanticView, dropView, use } from './execute-ddl';

export {
  DEFAULT_EMULATOR_SEED,
  SYSTEM_ROLE,
  type EmulatorPrivilege,
  type EmulatorSeed,
  type Grant,
  type GrantTarget,
  type SessionContext,
  type StatementResult,
  type TableColumn,
  type WarehouseEmulatorOptions,
} from './catalog-types';

export class WarehouseEmulator extends WarehouseCatalog {
  /**
   * Validates a session context (the role must exist), as a Snowflake login does. The context's
   * database, schema and warehouse are checked when statements use them.
   */
  openSession(context: Partial<SessionContext> = {}): EmulatorSession {
    const defaults = this.defaultContext();
    const full: SessionContext = {
      role: context.role ?? defaults.role,
      warehouse: context.warehouse === undefined ? defaults.warehouse : context.warehouse,
      database: context.database === undefined ? defaults.database : context.database,
      schema: context.schema === undefined ? defaults.schema : context.schema,
    };
    if (!this.roleExists(full.role)) {
      throw new WarehouseError(
        WarehouseErrorCodes.AUTHENTICATION_FAILED,
        `Role '${full.role}' specified in the connect string does not exist or not authorized. Contact your local system administrator, or attempt to login with another role, e.g. PUBLIC.`,
        { sqlState: '08004', vendorCode: '390189' },
      );
    }
    return new EmulatorSession(this, full);
  }

  /** Runs exactly one statement in `context` (a USE statement updates `context`). */
  execute(sql: string, context: SessionContext): StatementResult {
    const statements = parseStatements(sql);
    if (statements.length === 0) {
      throw new WarehouseError(WarehouseErrorCodes.SYNTAX_ERROR, 'Empty SQL statement.', { sqlState: '42000', vendorCode: '000900' });
    }
    if (statements.length > 1) throw statementCount(statements.length);
    return this.run(statements[0].statement, context);
  }

  private run(statement: Statement, context: SessionContext): StatementResult {
    switch (statement.type) {
      case 'create_schema':
        return createSchema(this, statement, context);
      case 'create_semantic_view':
        return createSemanticView(this, statement, context);
      case 'create_view':
        return createView(this, statement, context);
      case 'drop_semantic_view':
        return dropSemanticView(this, statement, context);
      case 'drop_view':
        return dropView(this, statement, context);
      case 'describe_semantic_view':
        return { rows: describe(this, statement, context) as unknown as Record<string, unknown>[] };
      case 'show_semantic_views':
        return { rows: show(this, statement, context) };
      case 'show_schemas':
        return { rows: showSchemas(this, statement, context) };
      case 'show_databases':
        return { rows: showDatabases(this, statement, context) };
      case 'get_ddl':
        return { rows: getDdl(this, statement, context) };
      case 'use':
        return use(this, statement, context);
    }
  }
}

/** One connection's worth of context (role, warehouse, current database and schema). */
export class EmulatorSession {
  constructor(
    private readonly emulator: WarehouseEmulator,
    private readonly sessionContext: SessionContext,
  ) {}

  get context(): Readonly<SessionContext> {
    return { ...this.sessionContext };
  }

  execute(sql: string): StatementResult {
    return this.emulator.execute(sql, this.sessionContext);
  }
}
