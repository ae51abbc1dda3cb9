/**
 * Tables of the local emulators' data plane, and loading a user's CSV or Parquet file as one:
 * first the file is inspected (the columns and types DuckDB infers, a few rows, the row count),
 * then imported under a chosen name. An import is all rows or none: the table is created in an
 * open DuckDB transaction, registered in the emulator's catalog (so semantic views and metric
 * views can be built on it), and only then committed; a failure on the way rolls everything back.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TABLE_FILE_BYTES, QueryErrorCodes as Codes, type EmulatorTable } from '../../../src-shared/api/queries';
import { quoteIdent, type DuckDbEngine } from '../../connectors/duckdb/engine';
import { defaultEmulatorFile, LakehouseEmulator } from '../../connectors/lakehouse';
import { DEFAULT_EMULATOR_SEED } from '../../connectors/warehouse';
import type { ServiceContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/problem';
import { getDataSource, type DataSource } from '../deployments';
import { getLocalWarehouse } from '../warehouse-sync';
import { emulatorData, type EmulatorKind } from './engines';
import { lakehouseType, warehouseType } from './table-types';

const FILE_LIFETIME_MS = 30 * 60 * 1000;

interface PendingFile {
  id: string;
  path: string;
  format: 'csv' | 'parquet';
  /** A CSV's delimiter when the sniffer's guess had to be overruled (see `csvDelimiter`). */
  delimiter?: string;
  fileName: string;
  deploymentId: number;
  dataSource: string;
  userId: number | null;
  expiresAt: number;
}

const filesDir = (ctx: ServiceContext) => join(ctx.dataDir, 'table-files');

function pending(ctx: ServiceContext): Map<string, PendingFile> {
  let map = ctx.services.pendingTableFiles as Map<string, PendingFile> | undefined;
  if (!map) {
    map = new Map();
    ctx.services.pendingTableFiles = map;
  }
  const now = ctx.clock.now().getTime();
  for (const [id, f] of map) {
    if (f.expiresAt <= now) {
      rmSync(f.path, { force: true });
      map.delete(id);
    }
  }
  return map;
}

/** Files left behind by an earlier run of the service (their ids died with it). */
function sweepOrphans(ctx: ServiceContext): void {
  const dir = filesDir(ctx);
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const known = new Set([...pending(ctx).values()].map((f) => f.path));
  const cutoff = ctx.clock.now().getTime() - FILE_LIFETIME_MS;
  for (const name of names) {
    const path = join(dir, name);
    if (!known.has(path) && statSync(path).mtimeMs < cutoff) rmSync(path, { force: true });
  }
}

function emulatorSource(ctx: ServiceContext, deploymentId: number, name: string): { ds: DataSource; kind: EmulatorKind } {
  const ds = getDataSource(ctx, deploymentId, name);
  if (ds.connector !== 'emulator' || ds.kind === 'other') {
    throw new ApiError(422, Codes.DATA_SOURCE_UNSUPPORTED, `Data source "${ds.name}" is not a local emulator; load tables into ${ds.kind === 'other' ? 'it' : 'the warehouse'} with its own tools.`);
  }
  return { ds, kind: ds.kind };
}

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

const reader = (file: { path: string; format: 'csv' | 'parquet'; delimiter?: string }) => {
  const path = literal(file.path);
  if (file.format === 'parquet') return `read_parquet(${path})`;
  return `read_csv(${path}, auto_detect = true, sample_size = -1, strict_mode = true${file.delimiter ? `, delim = ${literal(file.delimiter)}` : ''})`;
};

/**
 * DuckDB's sniffer reads a file whose rows it cannot split as one text column. When the header
 * line has a usual delimiter, that delimiter is imposed instead, so ragged rows fail loudly rather
 * than import as one column of text.
 */
async function csvDelimiter(engine: DuckDbEngine, path: string, bytes: Buffer): Promise<string | undefined> {
  const sniffed = await engine.query(`SELECT len(Columns) FROM sniff_csv(${literal(path)}, sample_size = -1)`);
  if (Number(sniffed.rows[0]?.[0] ?? 0) > 1) return undefined;
  const header = bytes.subarray(0, Math.min(bytes.length, 64 * 1024)).toString('utf8').split(/\r?\n/, 1)[0] ?? '';
  return [',', ';', '\t', '|'].find((d) => header.includes(d));
}

function fileProblem(error: unknown, fileName: string, format: string): ApiError {
  const first = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.replace(/'[^']*table-files[^']*'/g, `'${fileName}'`);
  return new ApiError(400, Codes.TABLE_FILE_INVALID, `${fileName} is not a readable ${format.toUpperCase()} file: ${first}`);
}

/** Column names as the emulator stores them: the warehouse upper-cases plain names (unquoted identifiers). */
const storedName = (kind: EmulatorKind, name: string) => (kind === 'warehouse' && /^[A-Za-z_][A-Za-z0-9_$]*$/.test(name) ? name.toUpperCase() : kind === 'lakehouse' ? name.toLowerCase() : name);

const typeFor = (kind: EmulatorKind, duckType: string) => (kind === 'warehouse' ? warehouseType(duckType) : lakehouseType(duckType));

export async function inspectTableFile(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  dataSource: string,
  input: { fileName: string; format?: 'csv' | 'parquet'; contentBase64: string },
) {
  const { ds, kind } = emulatorSource(ctx, deploymentId, dataSource);
  const format = input.format ?? (/\.(parquet|pq)$/i.test(input.fileName) ? 'parquet' : /\.(csv|tsv|txt)$/i.test(input.fileName) ? 'csv' : null);
  if (!format) throw new ApiError(400, Codes.TABLE_FILE_INVALID, `${input.fileName}: say whether it is csv or parquet (format), or name it .csv or .parquet.`);
  const bytes = Buffer.from(input.contentBase64, 'base64');
  if (bytes.length === 0) throw new ApiError(400, Codes.TABLE_FILE_INVALID, `${input.fileName} is empty.`);
  if (bytes.length > MAX_TABLE_FILE_BYTES) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `${input.fileName} has ${bytes.length} bytes; at most ${MAX_TABLE_FILE_BYTES} can be loaded.`);
  sweepOrphans(ctx);
  mkdirSync(filesDir(ctx), { recursive: true, mode: 0o700 });
  const id = randomUUID();
  const path = join(filesDir(ctx), `${id}.${format}`);
  writeFileSync(path, bytes, { mode: 0o600 });
  const file: PendingFile = { id, path, format, fileName: input.fileName, deploymentId, dataSource: ds.name, userId: principal.userId, expiresAt: ctx.clock.now().getTime() + FILE_LIFETIME_MS };
  try {
    const engine = await emulatorData(ctx, kind).engine();
    if (format === 'csv') file.delimiter = await csvDelimiter(engine, path, bytes);
    const described = await engine.query(`DESCRIBE SELECT * FROM ${reader(file)}`);
    const sample = await engine.query(`SELECT * FROM ${reader(file)} LIMIT 10`);
    const count = await engine.query(`SELECT count(*) FROM ${reader(file)}`);
    const columns = described.rows.map((r) => ({ name: storedName(kind, String(r[0])), type: typeFor(kind, String(r[1])) }));
    if (columns.length === 0) throw new Error('it has no columns');
    if (new Set(columns.map((c) => c.name.toLowerCase())).size !== columns.length) throw new Error('two columns have the same name');
    pending(ctx).set(id, file);
    const base = input.fileName.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9_]+/g, '_').replace(/^([^A-Za-z_])/, '_$1') || 'imported';
    return {
      fileId: id,
      fileName: input.fileName,
      format,
      columns,
      sampleRows: sample.rows,
      rowCount: Number(count.rows[0]?.[0] ?? 0),
      suggestedName: storedName(kind, base),
      expiresAt: new Date(file.expiresAt).toISOString(),
    };
  } catch (error) {
    rmSync(path, { force: true });
    throw error instanceof ApiError ? error : fileProblem(error, input.fileName, format);
  }
}

async function tableRows(engine: DuckDbEngine, schema: string, name: string): Promise<number> {
  const { rows } = await engine.query(`SELECT count(*) FROM ${quoteIdent(schema)}.${quoteIdent(name)}`);
  return Number(rows[0]?.[0] ?? 0);
}

export async function listEmulatorTables(ctx: ServiceContext, deploymentId: number, dataSource: string): Promise<{ items: EmulatorTable[] }> {
  const { kind } = emulatorSource(ctx, deploymentId, dataSource);
  const engine = await emulatorData(ctx, kind).engine();
  const { rows } = await engine.query(
    `SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns WHERE table_catalog = ? ORDER BY table_schema, table_name, ordinal_position`,
    { params: [engine.catalog] },
  );
  const tables = new Map<string, EmulatorTable>();
  for (const [schema, table, column, type] of rows as string[][]) {
    const key = `${schema}.${table}`;
    const entry = tables.get(key) ?? { schema: schema!, name: table!, columns: [], rowCount: 0 };
    entry.columns.push({ name: column!, type: typeFor(kind, type!) });
    tables.set(key, entry);
  }
  for (const t of tables.values()) t.rowCount = await tableRows(engine, t.schema, t.name);
  return { items: [...tables.values()] };
}

export async function importTable(
  ctx: ServiceContext,
  deploymentId: number,
  principal: Principal,
  dataSource: string,
  input: { fileId: string; schema: string; name: string; replace?: boolean },
): Promise<EmulatorTable> {
  const { ds, kind } = emulatorSource(ctx, deploymentId, dataSource);
  const file = pending(ctx).get(input.fileId);
  if (!file || file.deploymentId !== deploymentId || file.dataSource !== ds.name || file.userId !== principal.userId) {
    throw new ApiError(404, Codes.TABLE_FILE_NOT_FOUND, `No inspected file ${input.fileId} for data source "${ds.name}" (files are kept 30 minutes after inspection).`);
  }
  const schema = storedName(kind, input.schema);
  const name = storedName(kind, input.name);
  const engine = await emulatorData(ctx, kind).engine();
  const table = await engine.write(async (connection) => {
    const exists = await connection.runAndReadAll(`SELECT count(*) FROM information_schema.tables WHERE table_catalog = ? AND lower(table_schema) = lower(?) AND lower(table_name) = lower(?)`, [engine.catalog, schema, name]);
    if (Number(exists.getRows()[0]?.[0]) > 0 && !input.replace) {
      throw new ApiError(409, Codes.TABLE_EXISTS, `Table ${schema}.${name} already exists in data source "${ds.name}"; pass replace: true to replace it.`);
    }
    const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${reader(file)}`).catch((error: unknown) => {
      throw fileProblem(error, file.fileName, file.format);
    });
    const source = described.getRows().map((r) => String(r[0]));
    const columns = described.getRows().map((r) => ({ name: storedName(kind, String(r[0])), type: typeFor(kind, String(r[1])) }));
    const select = source.map((c, i) => `${quoteIdent(c)} AS ${quoteIdent(columns[i]!.name)}`).join(', ');
    await connection.run('BEGIN TRANSACTION');
    try {
      await connection.run(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await connection.run(`CREATE OR REPLACE TABLE ${quoteIdent(schema)}.${quoteIdent(name)} AS SELECT ${select} FROM ${reader(file)}`).catch((error: unknown) => {
        throw fileProblem(error, file.fileName, file.format);
      });
      registerInCatalog(ctx, kind, ds, schema, name, columns);
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK').catch(() => undefined);
      throw error;
    }
    return { schema, name, columns, rowCount: 0 };
  });
  table.rowCount = await tableRows(engine, schema, name);
  pending(ctx).delete(file.id);
  rmSync(file.path, { force: true });
  return table;
}

/** The table in the emulator's catalog, readable by the role (warehouse) or principal (lakehouse) Drydock uses. */
function registerInCatalog(ctx: ServiceContext, kind: EmulatorKind, ds: DataSource, schema: string, name: string, columns: { name: string; type: string }[]): void {
  if (kind === 'warehouse') {
    const emulator = getLocalWarehouse(ctx);
    const database = DEFAULT_EMULATOR_SEED.database;
    const role = ds.role ?? emulator.seed.role;
    emulator.createSchema(database, schema);
    emulator.createTable(database, schema, name, columns, { orReplace: true, comment: 'Loaded from a file' });
    emulator.grant(role, 'USAGE', { type: 'SCHEMA', database, schema });
    emulator.grant(role, 'SELECT', { type: 'ALL TABLES IN SCHEMA', database, schema });
    return;
  }
  const emulator = LakehouseEmulator.open(defaultEmulatorFile(ctx.dataDir), { clock: ctx.clock });
  try {
    const catalog = ds.catalog ?? 'main';
    if (!emulator.listSchemas(catalog).includes(schema)) emulator.createSchema(catalog, schema);
    emulator.dropObject(catalog, schema, name);
    emulator.createTable(catalog, schema, name, columns, { comment: 'Loaded from a file' });
    for (const privilege of ['USE SCHEMA', 'SELECT'] as const) emulator.grant(emulator.defaultPrincipal, privilege, [catalog, schema]);
  } finally {
    emulator.close();
  }
}
