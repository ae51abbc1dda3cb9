// `drydock load-table <file> --schema S`: a CSV or Parquet file into a table of a local emulator
// data source (the same two steps as the app's Load table dialog: inspect, then import all rows or
// none). The inferred columns are printed before the import, so a wrong type is seen at once.
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { MAX_TABLE_FILE_BYTES, queryRoutes } from '../../../src-shared/api/queries';
import type { ConnectionOptions } from '../api/connection';
import { CliError, ExitCodes } from '../output';
import { withDeployment } from './common';

export interface LoadTableOptions extends ConnectionOptions {
  schema: string;
  name?: string;
  dataSource: string;
  format?: 'csv' | 'parquet';
  replace?: boolean;
}

async function readTableFile(file: string): Promise<Buffer> {
  const size = await stat(file).then(
    (s) => (s.isFile() ? s.size : -1),
    () => -1,
  );
  if (size < 0) throw new CliError('FILE_NOT_FOUND', `${file} is not a readable file.`, ExitCodes.UNREADABLE);
  if (size > MAX_TABLE_FILE_BYTES) {
    throw new CliError('FILE_TOO_LARGE', `${file} has ${size} bytes; a table file may have at most ${MAX_TABLE_FILE_BYTES}.`, ExitCodes.UNREADABLE);
  }
  return readFile(file);
}

export default async function loadTable(options: LoadTableOptions, file: string): Promise<number> {
  const content = await readTableFile(file);
  const { conn, out, deployment } = await withDeployment(options);
  const params = { deploymentId: deployment.id, dataSource: options.dataSource };
  const inspected = await conn.client.call(queryRoutes.inspectTableFile, {
    params,
    body: { fileName: basename(file), ...(options.format ? { format: options.format } : {}), contentBase64: content.toString('base64') },
  });
  out.note(`${inspected.fileName}: ${inspected.rowCount} row${inspected.rowCount === 1 ? '' : 's'}, read as ${inspected.format}:`);
  if (!out.json) out.table(inspected.columns, [
    { key: 'name', title: 'COLUMN' },
    { key: 'type', title: 'TYPE' },
  ]);
  const table = await conn.client.call(queryRoutes.importTable, {
    params,
    body: { fileId: inspected.fileId, schema: options.schema, name: options.name ?? inspected.suggestedName, ...(options.replace ? { replace: true } : {}) },
  });
  out.result(table);
  out.line(`Loaded ${table.rowCount} row${table.rowCount === 1 ? '' : 's'} into ${table.schema}.${table.name} of data source ${options.dataSource}.`);
  return 0;
}
