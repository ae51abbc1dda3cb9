/**
 * Snowflake through snowflake-sdk. The driver is reached only through `createConnection`, which
 * tests replace with a fake connection of the same shape; by default it is snowflake-sdk's own,
 * loaded on first connect. The password or private key comes from `getSecret` (the SecretStore)
 * at connect time and is handed to the driver only: never kept, logged or put in an error.
 */
import { SqlWarehouseConnector } from './statements';
import { WarehouseError, WarehouseErrorCodes, type WarehouseConnector, type WarehouseErrorCode } from './types';

export interface SnowflakeConnectorConfig {
  /** Account identifier, e.g. `myorg-myaccount`. */
  account: string;
  username: string;
  warehouse: string;
  role?: string;
  database?: string;
  schema?: string;
  /** `SNOWFLAKE`: password; `SNOWFLAKE_JWT`: key pair (the secret is the PEM private key). */
  authenticator: 'SNOWFLAKE' | 'SNOWFLAKE_JWT';
  /**
   * When false, DDL (CREATE, ALTER, DROP, ...) is refused before it reaches Snowflake, mirroring
   * the deployment setting that gates DDL. Default true.
   */
  ddlEnabled?: boolean;
}

/** The options handed to snowflake-sdk's createConnection. */
export interface SnowflakeConnectionOptions {
  account: string;
  username: string;
  warehouse: string;
  role?: string;
  database?: string;
  schema?: string;
  authenticator: 'SNOWFLAKE' | 'SNOWFLAKE_JWT';
  password?: string;
  privateKey?: string;
  privateKeyPass?: string;
  application: string;
}

/** The error shape snowflake-sdk reports (server errors carry Snowflake's code, e.g. `'002003'`). */
export interface SnowflakeDriverError {
  message: string;
  code?: unknown;
  sqlState?: unknown;
}

/** The part of snowflake-sdk's Connection this connector uses. */
export interface SnowflakeDriverConnection {
  connect(callback: (error: SnowflakeDriverError | undefined, connection: unknown) => void): unknown;
  execute(options: {
    sqlText: string;
    /** Values of the statement's `?` markers. */
    binds?: unknown[];
    complete: (error: SnowflakeDriverError | undefined, statement: unknown, rows?: unknown[]) => void;
  }): unknown;
  destroy(callback: (error: SnowflakeDriverError | undefined, connection: unknown) => void): void;
}

export type CreateSnowflakeConnection = (options: SnowflakeConnectionOptions) => SnowflakeDriverConnection | Promise<SnowflakeDriverConnection>;

export interface SnowflakeConnectorDependencies {
  /** The password (SNOWFLAKE) or PEM private key (SNOWFLAKE_JWT), read from the SecretStore. */
  getSecret: () => Promise<string>;
  /** Passphrase of an encrypted private key, if any. */
  getPrivateKeyPassphrase?: () => Promise<string | null>;
  createConnection?: CreateSnowflakeConnection;
}

const APPLICATION = 'Drydock';

/** snowflake-sdk's own createConnection, loaded lazily (it is large, and CommonJS). */
export const createSnowflakeSdkConnection: CreateSnowflakeConnection = async (options) => {
  const loaded = (await import('snowflake-sdk')) as unknown as { default?: unknown };
  const sdk = (loaded.default ?? loaded) as {
    configure(options: { logLevel: string }): void;
    createConnection(options: SnowflakeConnectionOptions): SnowflakeDriverConnection;
  };
  // Errors reach Drydock through callbacks; the driver's own log file is not wanted.
  sdk.configure({ logLevel: 'OFF' });
  return sdk.createConnection(options);
};

/** Maps Snowflake error numbers (and SQL states) to WarehouseError codes. */
export function classifySnowflakeError(vendorCode: string | undefined, sqlState: string | undefined): WarehouseErrorCode {
  switch (vendorCode) {
    case '003001':
      return WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES;
    case '002003':
    case '002043':
    case '002203':
      return WarehouseErrorCodes.OBJECT_NOT_FOUND;
    case '002002':
      return WarehouseErrorCodes.OBJECT_EXISTS;
    case '000904':
      return WarehouseErrorCodes.INVALID_IDENTIFIER;
    case '000606':
      return WarehouseErrorCodes.NO_ACTIVE_WAREHOUSE;
    case '090105':
      return WarehouseErrorCodes.NO_CURRENT_SCHEMA;
    case '000008':
      return WarehouseErrorCodes.STATEMENT_COUNT;
    default:
      break;
  }
  if (vendorCode) {
    if (vendorCode.startsWith('003')) return WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES; // access control errors
    if (vendorCode.startsWith('001')) return WarehouseErrorCodes.SYNTAX_ERROR; // parser errors
    if (vendorCode.startsWith('390')) return WarehouseErrorCodes.AUTHENTICATION_FAILED; // login failures
    if (/^40[1-2]/.test(vendorCode) || vendorCode.startsWith('404') || vendorCode.startsWith('405')) return WarehouseErrorCodes.CONNECTION_FAILED; // driver-side
  }
  switch (sqlState) {
    case '42501':
      return WarehouseErrorCodes.INSUFFICIENT_PRIVILEGES;
    case '02000':
    case '42S02':
      return WarehouseErrorCodes.OBJECT_NOT_FOUND;
    case '42710':
      return WarehouseErrorCodes.OBJECT_EXISTS;
    case '28000':
    case '08004':
      return WarehouseErrorCodes.AUTHENTICATION_FAILED;
    case '08001':
    case '08006':
      return WarehouseErrorCodes.CONNECTION_FAILED;
    default:
      return WarehouseErrorCodes.ERROR;
  }
}

/** Snowflake codes are six-digit strings; the driver's own are numbers. */
function vendorCodeOf(code: unknown): string | undefined {
  if (typeof code === 'number' && Number.isFinite(code)) return String(code).padStart(6, '0');
  if (typeof code === 'string' && code.trim() !== '') return /^\d+$/.test(code) ? code.padStart(6, '0') : code;
  return undefined;
}

export function mapSnowflakeError(error: unknown): WarehouseError {
  if (error instanceof WarehouseError) return error;
  const driverError = (error ?? {}) as Partial<SnowflakeDriverError>;
  const vendorCode = vendorCodeOf(driverError.code);
  const sqlState = typeof driverError.sqlState === 'string' ? driverError.sqlState : undefined;
  const message = typeof driverError.message === 'string' && driverError.message !== '' ? driverError.message : 'Snowflake request failed.';
  return new WarehouseError(classifySnowflakeError(vendorCode, sqlState), message, {
    ...(sqlState !== undefined ? { sqlState } : {}),
    ...(vendorCode !== undefined ? { vendorCode } : {}),
  });
}

const DDL_VERBS = new Set(['CREATE', 'ALTER', 'DROP', 'UNDROP', 'TRUNCATE', 'COMMENT', 'GRANT', 'REVOKE']);

/** The statement's first keyword, past whitespace and comments. */
function firstKeyword(sql: string): string {
  const stripped = sql.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\/[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, '');
  return (/^[A-Za-z_]+/.exec(stripped)?.[0] ?? '').toUpperCase();
}

export class SnowflakeWarehouseConnector extends SqlWarehouseConnector implements WarehouseConnector {
  private connection: Promise<SnowflakeDriverConnection> | null = null;
  private closed = false;

  constructor(
    private readonly config: SnowflakeConnectorConfig,
    private readonly dependencies: SnowflakeConnectorDependencies,
  ) {
    super();
  }

  private async connectionOptions(): Promise<SnowflakeConnectionOptions> {
    const { account, username, warehouse, role, database, schema, authenticator } = this.config;
    const options: SnowflakeConnectionOptions = { account, username, warehouse, authenticator, application: APPLICATION };
    if (role) options.role = role;
    if (database) options.database = database;
    if (schema) options.schema = schema;
    const secret = await this.dependencies.getSecret();
    if (authenticator === 'SNOWFLAKE_JWT') {
      options.privateKey = secret;
      const passphrase = await this.dependencies.getPrivateKeyPassphrase?.();
      if (passphrase) options.privateKeyPass = passphrase;
    } else {
      options.password = secret;
    }
    return options;
  }

  private connect(): Promise<SnowflakeDriverConnection> {
    if (this.closed) return Promise.reject(new WarehouseError(WarehouseErrorCodes.CONNECTION_CLOSED, 'The warehouse connection is closed.'));
    if (!this.connection) {
      const attempt = (async () => {
        const create = this.dependencies.createConnection ?? createSnowflakeSdkConnection;
        const connection = await create(await this.connectionOptions());
        await new Promise<void>((resolve, reject) => {
          connection.connect((error) => (error ? reject(mapSnowflakeError(error)) : resolve()));
        });
        return connection;
      })();
      // A failed login is not cached: the next call tries again (e.g. after the secret is fixed).
      attempt.catch(() => {
        if (this.connection === attempt) this.connection = null;
      });
      this.connection = attempt;
    }
    return this.connection;
  }

  async execute(sql: string): Promise<{ rows: Record<string, unknown>[] }> {
    if (this.config.ddlEnabled === false && DDL_VERBS.has(firstKeyword(sql))) {
      throw new WarehouseError(
        WarehouseErrorCodes.DDL_DISABLED,
        'DDL statements are disabled for this data source. Enable DDL operations in the deployment configuration to run CREATE and DROP statements.',
      );
    }
    const connection = await this.connect();
    return new Promise((resolve, reject) => {
      connection.execute({
        sqlText: sql,
        complete: (error, _statement, rows) => {
          if (error) reject(mapSnowflakeError(error));
          else resolve({ rows: (rows ?? []) as Record<string, unknown>[] });
        },
      });
    });
  }

  /**
   * Runs a query with `?` binds (a model query's SQL, or a SEMANTIC_VIEW query) and returns its
   * rows; aborting `signal` cancels the statement (the driver's `statement.cancel`).
   */
  async query(sql: string, binds: unknown[] = [], signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    signal?.throwIfAborted();
    const connection = await this.connect();
    return new Promise((resolve, reject) => {
      let cancel: (() => void) | null = null;
      const statement = connection.execute({
        sqlText: sql,
        ...(binds.length ? { binds } : {}),
        complete: (error, _statement, rows) => {
          if (cancel) signal?.removeEventListener('abort', cancel);
          if (error) reject(mapSnowflakeError(error));
          else resolve((rows ?? []) as Record<string, unknown>[]);
        },
      }) as { cancel?: (callback: (error?: unknown) => void) => void } | undefined;
      if (signal && typeof statement?.cancel === 'function') {
        cancel = () => statement.cancel!(() => undefined);
        signal.addEventListener('abort', cancel, { once: true });
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending = this.connection;
    this.connection = null;
    if (!pending) return;
    let connection: SnowflakeDriverConnection;
    try {
      connection = await pending;
    } catch {
      return; // never connected
    }
    await new Promise<void>((resolve, reject) => {
      connection.destroy((error) => (error ? reject(mapSnowflakeError(error)) : resolve()));
    });
  }
}
