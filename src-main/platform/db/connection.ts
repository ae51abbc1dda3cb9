import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS, type Migration } from './migrations';
import { SqliteDatabase, sqliteNativeBinding } from './native-binding';

export type Db = Database.Database;

/** Raised when the data file was written by a newer Drydock than this one. */
export class DatabaseTooNewError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `The database ${file} has schema version ${found}, but this Drydock only knows versions up to ${known}. ` +
        `It was written by a newer Drydock: upgrade Drydock, or start with another --data-dir.`,
    );
    this.name = 'DatabaseTooNewError';
  }
}

export interface OpenOptions {
  migrations?: readonly Migration[];
  readonly?: boolean;
  /** Keep up to this many prepared statements, keyed by their SQL (see `cacheStatements`); 0 = none. */
  statementCache?: number;
}

/**
 * Opens (creating if needed) a SQLite file with the settings every Drydock database uses:
 * WAL so readers never block the one writer, foreign keys on, a busy timeout so a second
 * process waits instead of failing, and all pending migrations applied in one transaction.
 */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new SqliteDatabase(file, { readonly: options.readonly ?? false, nativeBinding: sqliteNativeBinding() });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    migrate(db, file, options.migrations ?? MIGRATIONS);
    if (options.statementCache) cacheStatements(db, options.statementCache);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Makes `db.prepare(sql)` return the statement prepared before for the same SQL (the least
 * recently used ones are dropped past `max`). Compiling SQL costs more than running most of the
 * service's queries, and code reads best with the SQL where it is used, so the cache sits here
 * rather than in every caller. A statement's row mode (`pluck`, `expand`, `raw`) is reset on
 * reuse. Not for `iterate()` over a statement whose SQL is prepared again inside the loop (the
 * statement would be busy); nothing in the service does that.
 */
export function cacheStatements(db: Db, max: number): void {
  const cache = new LRUCache<string, Database.Statement>({ max });
  const prepare = db.prepare.bind(db) as (sql: string) => Database.Statement;
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = prepare(sql);
      cache.set(sql, statement);
    } else if (statement.reader) {
      statement.pluck(false).expand(false).raw(false);
    }
    return statement;
  }) as Db['prepare'];
}

/** Applies every migration newer than `user_version`, all in one transaction. */
export function migrate(db: Db, file: string, migrations: readonly Migration[]): void {
  const known = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > known) throw new DatabaseTooNewError(file, current, known);
  const pending = [...migrations].filter((m) => m.version > current).sort((a, b) => a.version - b.version);
  if (pending.length === 0) return;
  db.transaction(() => {
    for (const migration of pending) {
      if (typeof migration.up === 'string') db.exec(migration.up);
      else migration.up(db);
    }
    // PRAGMA takes no bound parameters; the value is an integer we control.
    db.pragma(`user_version = ${Math.trunc(known)}`);
  })();
}

/** Runs `fn` in a transaction (nested calls become savepoints). */
export function tx<T>(db: Db, fn: () => T): T {
  return db.transaction(fn)();
}
