import { useEffect, useRef, useState } from 'react';
import type { QueryRun } from '../../../../../src-shared/api/queries';
import { shownJobError, toShownError, type ShownError } from '../../../lib/errors';
import { QueryChart, type ChartKind } from '../../../lib/charts/QueryChart';
import { Badge, Button, EmptyState, ProblemBanner, Spinner } from '../../../lib/ui';
import { useQuery } from '../../../lib/useQuery';
import { EMPTY_PICK, loadCatalog, toQuery, type PickedQuery } from './catalog';
import { LoadTableDialog } from './LoadTableDialog';
import { MemberPicker } from './MemberPicker';
import { QueryFilters } from './QueryFilters';
import { ResultTable } from './ResultTable';
import { runQuery } from './runs';
import { VendorSql } from './VendorSql';
import { plural } from '../../../lib/plural';
import { SideSplit } from '../layout/SideSplit';
import './data.css';

type View = 'table' | 'chart' | 'sql';
type Mode = 'model' | 'vendor';

/** Model query (members of the model) or vendor SQL (the data source's own statements). */
function ModeSwitch({ mode, onChange }: { mode: Mode; onChange: (mode: Mode) => void }) {
  return (
    <span className="data-modes" role="group" aria-label="Query with">
      <button type="button" aria-pressed={mode === 'model'} className={mode === 'model' ? 'active' : ''} onClick={() => onChange('model')}>
        Model
      </button>
      <button type="button" aria-pressed={mode === 'vendor'} className={mode === 'vendor' ? 'active' : ''} onClick={() => onChange('vendor')} title="Snowflake SEMANTIC_VIEW or Databricks MEASURE() statements on a data source">
        Vendor SQL
      </button>
    </span>
  );
}

/**
 * The data preview of Models: pick members of the branch's compiled model (or write the query as
 * JSON), run it on the service (cancellable, with progress), and read the rows, a chart and the SQL.
 */
export function DataPreview({ deploymentId, branch, isDeployBranch, canLoadTables }: { deploymentId: number; branch: string | null; isDeployBranch: boolean; canLoadTables: boolean }) {
  const catalog = useQuery((signal) => loadCatalog(deploymentId, branch, isDeployBranch, signal), [deploymentId, branch, isDeployBranch], 'Loading the model');
  const [pick, setPick] = useState<PickedQuery>(EMPTY_PICK);
  const [jsonMode, setJsonMode] = useState(false);
  const [jsonText, setJsonText] = useState('');
  const [run, setRun] = useState<QueryRun | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [view, setView] = useState<View>('table');
  const [chartKind, setChartKind] = useState<ChartKind | 'auto'>('auto');
  const [loading, setLoading] = useState(false);
  const [mode, setMode] = useState<Mode>('model');
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const dims = (catalog.data?.entities ?? []).flatMap((e) => e.dimensions);
  const running = run?.status === 'RUNNING';

  const start = async () => {
    let query: unknown;
    if (jsonMode) {
      try {
        query = JSON.parse(jsonText);
      } catch (e) {
        setError({ title: 'The query is not valid JSON', detail: e instanceof Error ? e.message : String(e), code: null, status: null, fields: [] });
        return;
      }
    } else query = toQuery(pick);
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setError(null);
    setRun(null);
    try {
      const done = await runQuery(deploymentId, branch, query, setRun, abort.signal);
      if (done.status === 'FAILED') setError(shownJobError(done.error, 'The query failed'));
    } catch (e) {
      if (!abort.signal.aborted) setError(toShownError(e, 'Running the query'));
    }
  };
  const cancel = () => {
    controller.current?.abort();
    setRun((r) => (r && r.status === 'RUNNING' ? { ...r, status: 'CANCELLED', error: { code: 'QUERY_CANCELLED', message: 'The query was cancelled.' } } : r));
  };
  const toggleJson = () => {
    if (!jsonMode) setJsonText(JSON.stringify(toQuery(pick), null, 2));
    setJsonMode(!jsonMode);
  };

  if (catalog.error && !catalog.data) return <ProblemBanner error={catalog.error} />;
  if (!catalog.data) return <Spinner label="Loading the model's members…" />;

  // Vendor SQL runs on the data source as its users would: for admins and developers, like loading tables.
  const modeSwitch = canLoadTables ? <ModeSwitch mode={mode} onChange={setMode} /> : null;
  if (mode === 'vendor') return <VendorSql deploymentId={deploymentId} branch={branch} entities={catalog.data.entities} modeSwitch={modeSwitch} />;

  const result = run?.status === 'COMPLETED' ? run.result : undefined;
  const hasTime = result?.columns.some((c) => c.kind === 'timeDimension') ?? false;
  const kind: ChartKind = chartKind === 'auto' ? (hasTime ? 'line' : 'bar') : chartKind;
  const empty = !jsonMode && pick.measures.length + pick.dimensions.length === 0 && !pick.time;

  return (
    <>
    <SideSplit className="data-preview" side={<MemberPicker entities={catalog.data.entities} hidden={catalog.data.hidden} pick={pick} onChange={setPick} />}>
      <div className="data-main">
        <div className="data-bar">
          {modeSwitch}
          <Button variant="primary" onClick={() => void start()} disabled={running || empty} title={isDeployBranch ? 'Run on the deploy branch' : `Run on ${branch} (saved edits included)`}>
            Run query
          </Button>
          {running && (
            <>
              <Button onClick={cancel}>Cancel</Button>
              <span className="data-progress" role="status" aria-label="Query progress">
                <progress max={100} value={run.progress.percentComplete} /> {run.progress.stage}… {run.progress.percentComplete}%
              </span>
            </>
          )}
          {run?.status === 'CANCELLED' && <Badge tone="warn">cancelled</Badge>}
          {result && (
            <span className="muted small" role="status">
              {plural(result.rowCount, 'row')} in {run!.durationMs} ms · {run!.sql?.dialect === 'duckdb' ? 'local emulator' : run!.sql?.dialect}
            </span>
          )}
          <span className="grow" />
          {!jsonMode && (
            <label className="inline-field">
              Limit <input type="number" min={1} max={50000} value={pick.limit} onChange={(e) => setPick({ ...pick, limit: Math.max(1, Math.min(50000, Number(e.target.value) || 1)) })} aria-label="Row limit" />
            </label>
          )}
          <Button className="btn-small" variant="ghost" onClick={toggleJson} aria-pressed={jsonMode}>
            {jsonMode ? 'Use the picker' : 'Edit as JSON'}
          </Button>
          {canLoadTables && (
            <Button className="btn-small" onClick={() => setLoading(true)}>
              Load table…
            </Button>
          )}
        </div>

        {jsonMode ? (
          <textarea className="data-json" aria-label="Query JSON" spellCheck={false} value={jsonText} onChange={(e) => setJsonText(e.target.value)} rows={8} />
        ) : (
          <QueryFilters pick={pick} onChange={setPick} dimensions={dims} />
        )}

        <ProblemBanner error={error} onDismiss={() => setError(null)} />

        <div className="data-result">
          <div className="data-tabs">
            <div role="tablist" aria-label="Result views">
              {(['table', 'chart', 'sql'] as View[]).map((v) => (
                <button key={v} type="button" role="tab" aria-selected={view === v} className={`data-tab ${view === v ? 'active' : ''}`} onClick={() => setView(v)}>
                  {v === 'table' ? 'Table' : v === 'chart' ? 'Chart' : 'SQL'}
                </button>
              ))}
            </div>
            {view === 'chart' && (
              <select aria-label="Chart type" className="chart-kind" value={chartKind} onChange={(e) => setChartKind(e.target.value as ChartKind | 'auto')}>
                <option value="auto">auto</option>
                <option value="bar">bar</option>
                <option value="line">line</option>
                <option value="pie">pie</option>
              </select>
            )}
          </div>
          {!run && !error && <EmptyState title="No result yet">Pick measures and dimensions on the left, then run the query.</EmptyState>}
          {running && <Spinner label="Running…" />}
          {view === 'table' && result && <ResultTable columns={result.columns} data={result.data} />}
          {view === 'chart' && result && (
            <div className="data-chart">
              <QueryChart kind={kind} columns={result.columns} data={result.data} label="Query result" />
            </div>
          )}
          {view === 'sql' && run?.sql && (
            <div className="data-sql">
              <div className="muted small">
                {run.sql.dialect} on data source {run.sql.dataSource}
                {run.sql.params.length > 0 && <> · parameters {JSON.stringify(run.sql.params)}</>}
              </div>
              <pre aria-label="Generated SQL">{run.sql.sql}</pre>
            </div>
          )}
        </div>
      </div>
    </SideSplit>
    <LoadTableDialog open={loading} deploymentId={deploymentId} onClose={() => setLoading(false)} />
    </>
  );
}
