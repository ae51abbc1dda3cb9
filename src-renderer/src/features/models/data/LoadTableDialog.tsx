import { useState } from 'react';
import { getDeploymentSettings } from '../../../../../src-shared/api/deployments';
import { importTable, inspectTableFile, listDataSourceSchemas, MAX_TABLE_FILE_BYTES, type DataSourceSchemas, type EmulatorTable } from '../../../../../src-shared/api/queries';
import { api } from '../../../app/session';
import { toShownError, type ShownError } from '../../../lib/errors';
import { DataTable } from '../../../lib/DataTable';
import { SchemaPicker } from '../../../lib/SchemaPicker';
import { Button, Dialog, ProblemBanner, Spinner } from '../../../lib/ui';
import { useQuery } from '../../../lib/useQuery';
import { plural } from '../../../lib/plural';

type Inspected = Awaited<ReturnType<typeof inspectFile>>;

async function inspectFile(deploymentId: number, dataSource: string, file: File) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return api.call(inspectTableFile, { params: { deploymentId, dataSource }, body: { fileName: file.name, contentBase64: btoa(binary) } });
}

/**
 * Loads a CSV or Parquet file into a local emulator: the file is inspected first (columns, inferred
 * types, first rows), then imported under a schema and name — all rows or none.
 */
export function LoadTableDialog({ open, deploymentId, onClose }: { open: boolean; deploymentId: number; onClose: () => void }) {
  const settings = useQuery((signal) => (open ? api.call(getDeploymentSettings, { params: { deploymentId }, signal }) : Promise.resolve(null)), [open, deploymentId], 'Loading data sources');
  const sources = (settings.data?.dataSources ?? []).filter((d) => d.connector === 'emulator' && d.kind !== 'other');
  const [dataSource, setDataSource] = useState('');
  const [inspected, setInspected] = useState<Inspected | null>(null);
  const [schema, setSchema] = useState('uploads');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [done, setDone] = useState<EmulatorTable | null>(null);
  const source = dataSource || sources[0]?.name || '';
  // The schemas already in the emulator, asked once a file is inspected (a new name is fine: the import creates it).
  const schemas = useQuery(
    (signal) => (open && source && inspected ? api.call(listDataSourceSchemas, { params: { deploymentId, dataSource: source }, signal }) : new Promise<DataSourceSchemas>(() => undefined)),
    [open, deploymentId, source, inspected !== null],
    'Listing the schemas',
  );

  const reset = () => {
    setInspected(null);
    setError(null);
    setDone(null);
    setName('');
  };
  const close = () => {
    reset();
    onClose();
  };
  const pickFile = async (file: File | undefined) => {
    reset();
    if (!file) return;
    if (file.size > MAX_TABLE_FILE_BYTES) {
      setError({ title: 'File too large', detail: `${file.name} has ${file.size.toLocaleString()} bytes; at most ${MAX_TABLE_FILE_BYTES.toLocaleString()} can be loaded.`, code: null, status: null, fields: [] });
      return;
    }
    setBusy('Reading the file…');
    try {
      const result = await inspectFile(deploymentId, source, file);
      setInspected(result);
      setName(result.suggestedName);
    } catch (e) {
      setError(toShownError(e, `Reading ${file.name}`));
    } finally {
      setBusy(null);
    }
  };
  const load = async () => {
    if (!inspected) return;
    setBusy('Importing…');
    setError(null);
    try {
      setDone(await api.call(importTable, { params: { deploymentId, dataSource: source }, body: { fileId: inspected.fileId, schema, name } }));
      setInspected(null);
    } catch (e) {
      setError(toShownError(e, 'Importing the table'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog
      title="Load a table into a local emulator"
      open={open}
      onClose={close}
      footer={
        <>
          <Button onClick={close}>{done ? 'Close' : 'Cancel'}</Button>
          {inspected && (
            <Button variant="primary" busy={busy !== null} onClick={() => void load()} disabled={!schema || !name}>
              Import {plural(inspected.rowCount, 'row')}
            </Button>
          )}
        </>
      }
    >
      {settings.error && <ProblemBanner error={settings.error} />}
      {open && !settings.data && !settings.error && <Spinner label="Loading data sources…" />}
      {settings.data && sources.length === 0 && <p>This deployment has no data source on a local emulator.</p>}
      {sources.length > 0 && (
        <div className="load-table">
          <label className="inline-field">
            Data source
            <select aria-label="Data source" value={source} onChange={(e) => (setDataSource(e.target.value), reset())}>
              {sources.map((d) => (
                <option key={d.name} value={d.name}>
                  {d.name} ({d.kind === 'warehouse' ? 'local warehouse' : 'local lakehouse'})
                </option>
              ))}
            </select>
          </label>
          <label className="inline-field">
            CSV or Parquet file
            <input type="file" aria-label="Table file" accept=".csv,.tsv,.txt,.parquet,.pq" onChange={(e) => void pickFile(e.target.files?.[0])} />
          </label>
          {busy && <Spinner label={busy} />}
          <ProblemBanner error={error} />
          {inspected && (
            <>
              <p className="small">
                {inspected.fileName}: {plural(inspected.rowCount, 'row')}, {plural(inspected.columns.length, 'column')}. Types as the table will have them:
              </p>
              <div className="load-preview">
                <DataTable
                  label="Columns to import"
                  rows={inspected.sampleRows}
                  rowKey={(_, i) => i}
                  columns={inspected.columns.map((c, k) => ({
                    header: (
                      <>
                        {c.name}
                        <div className="muted small mono">{c.type}</div>
                      </>
                    ),
                    cell: (row: (typeof inspected.sampleRows)[number]) => (row[k] === null ? '∅' : String(row[k])),
                  }))}
                />
              </div>
              <div className="filter-row">
                <div className="inline-field load-schema">
                  <label htmlFor="load-schema">Schema</label>
                  <div>
                    <SchemaPicker id="load-schema" value={schema} onChange={setSchema} schemas={schemas} placeholder="Choose or type a schema" created="The import creates it." />
                  </div>
                </div>
                <label className="inline-field">
                  Table <input aria-label="Table name" value={name} onChange={(e) => setName(e.target.value)} pattern="[A-Za-z_][A-Za-z0-9_$]*" />
                </label>
              </div>
            </>
          )}
          {done && (
            <p role="status">
              Imported {plural(done.rowCount, 'row')} into <code>{done.schema}.{done.name}</code>. Use it in a cube with <code>sql_table: {done.schema.toLowerCase()}.{done.name.toLowerCase()}</code>.
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
