import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { runDataSourceSql } from '../../../../../src-shared/api/queries';
import type { MetaEntity } from '../../../../../src-shared/model/query';
import { compareResults, planModelComparison, sameObjectName, vendorSqlTarget, type ComparedView, type ComparisonOutcome, type ComparisonPlan } from '../../../../../src-shared/model/query';
import { ApiProblem } from '../../../../../src-shared/api/client';
import { api } from '../../../app/session';
import { toShownError, type ShownError } from '../../../lib/errors';
import { QueryChart } from '../../../lib/charts/QueryChart';
import { SideSplit } from '../layout/SideSplit';
import { Badge, Button, EmptyState, ProblemBanner, Spinner } from '../../../lib/ui';
import { useQuery } from '../../../lib/useQuery';
import { ComparisonReport } from './ComparisonReport';
import { ResultTable } from './ResultTable';
import { runQuery } from './runs';
import { vendorColumns } from './vendorResult';
import { DevLabel } from '../../../lib/DevLabel';
import { loadVendorTargets, type PushedTarget, type VendorDataSource } from './vendorTargets';
import { plural } from '../../../lib/plural';

const CodeEditor = lazy(() => import('../../../lib/editor/CodeEditor'));

type Answer = { columns: string[]; rows: Record<string, unknown>[]; rowCount: number; truncated: boolean; durationMs: number; engine: string; sql: string };

/** A first statement over a pushed view, in its vendor's own form. */
function templateFor(target: PushedTarget, entity: MetaEntity | undefined): string {
  const short = (name: string) => name.slice(name.indexOf('.') + 1);
  if (target.kind === 'warehouse') {
    const metric = target.metrics[0];
    const dimension = target.dimensions[0];
    return `SELECT * FROM SEMANTIC_VIEW(\n  ${target.target}${metric ? `\n  METRICS ${metric}` : ''}${dimension ? `\n  DIMENSIONS ${dimension}` : ''}\n)`;
  }
  const measure = entity?.measures[0];
  const dimension = entity?.dimensions.find((d) => d.type !== 'time') ?? entity?.dimensions[0];
  const select = [dimension ? short(dimension.name) : null, measure ? `MEASURE(${short(measure.name)})` : null].filter(Boolean).join(', ');
  return `SELECT ${select || '*'}\nFROM ${target.target}\nGROUP BY ALL`;
}

/** A refusal of the data source, in words: what went wrong, then the vendor's own message. */
function vendorProblem(error: unknown, ds: VendorDataSource): ShownError {
  const shown = toShownError(error, 'Running the statement');
  if (!(error instanceof ApiProblem)) return shown;
  const vendorCode = typeof error.problem?.vendorCode === 'string' ? error.problem.vendorCode : null;
  const where = `${ds.name} (${ds.label})`;
  const title =
    error.code === 'SQL_INVALID'
      ? `${where} refused the statement`
      : error.code === 'SQL_ACCESS_DENIED'
        ? `${where} does not let you run this statement`
        : error.code === 'QUERY_FAILED'
          ? `${where} could not run the statement`
          : shown.title;
  return { ...shown, title, detail: vendorCode ? `${error.detail} (vendor error ${vendorCode})` : error.detail };
}

/**
 * Models > Data in the vendors' own SQL: a SEMANTIC_VIEW(...) statement on a Snowflake data source or
 * a MEASURE() statement on a Databricks one (the local emulators answer offline), its answer in the
 * same table and chart as model queries, and "Compare with model": the equivalent model query over
 * the model view the target was pushed from, row by row.
 */
export function VendorSql({ deploymentId, branch, entities, modeSwitch }: { deploymentId: number; branch: string | null; entities: MetaEntity[]; modeSwitch: ReactNode }) {
  const targets = useQuery((signal) => loadVendorTargets(deploymentId, signal), [deploymentId], 'Loading the data sources');
  const [dataSource, setDataSource] = useState<string | null>(null);
  const [sql, setSqlState] = useState('');
  // What `run` sends: Ctrl+Enter can arrive before React has re-rendered after the editor's change
  // event, and the key handler of the previous render would then send the previous statement.
  const latestSql = useRef('');
  const setSql = (value: string) => {
    latestSql.current = value;
    setSqlState(value);
  };
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [running, setRunning] = useState<{ since: number } | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const [view, setView] = useState<'table' | 'chart'>('table');
  const [comparing, setComparing] = useState(false);
  const [comparison, setComparison] = useState<{ plan: ComparisonPlan; outcome: ComparisonOutcome; viewName: string } | { problem: string } | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setElapsed(Date.now() - running.since), 250);
    return () => clearInterval(timer);
  }, [running]);

  const sources = targets.data?.dataSources ?? [];
  const ds = sources.find((s) => s.name === dataSource) ?? sources[0];
  const pushed = (targets.data?.targets ?? []).filter((t) => t.dataSource.toLowerCase() === ds?.name.toLowerCase());
  const entityOf = (viewName: string) => entities.find((e) => e.name === viewName);

  const run = async () => {
    const statement = latestSql.current;
    if (!ds || !statement.trim() || running) return;
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setError(null);
    setComparison(null);
    setElapsed(0);
    setRunning({ since: Date.now() });
    try {
      const res = await api.call(runDataSourceSql, { params: { deploymentId, dataSource: ds.name }, body: { sql: statement }, signal: abort.signal });
      setAnswer({ ...res, sql: statement });
    } catch (e) {
      if (!abort.signal.aborted) {
        setError(vendorProblem(e, ds));
        setAnswer(null);
      }
    } finally {
      if (controller.current === abort) setRunning(null);
    }
  };
  // Going away cancels the statement on the service (the request is aborted; the engine is interrupted).
  const cancel = () => {
    controller.current?.abort();
    setRunning(null);
    setError({ title: 'Cancelled', detail: 'The statement was cancelled; the data source stopped it.', code: 'QUERY_CANCELLED', status: null, fields: [] });
  };

  const compare = async () => {
    if (!answer || !ds) return;
    const written = vendorSqlTarget(answer.sql);
    const target = written ? pushed.find((t) => sameObjectName(written, t.target)) : undefined;
    if (!target) {
      setComparison({ problem: written ? `The statement reads ${written}, which is not a view Drydock pushed or published to ${ds.name}; compare needs one of the pushed views listed on the left.` : 'The statement names no view to compare.' });
      return;
    }
    const entity = entityOf(target.viewName);
    if (!entity) {
      setComparison({ problem: `${target.target} was made from model view ${target.viewName}, which the model of this branch does not have (or you may not query).` });
      return;
    }
    const short = (name: string) => name.slice(entity.name.length + 1);
    const modelView: ComparedView = {
      name: entity.name,
      members: [...entity.measures.map((m) => ({ name: short(m.name), kind: 'measure' as const, type: m.type })), ...entity.dimensions.map((d) => ({ name: short(d.name), kind: 'dimension' as const, type: d.type }))],
    };
    const plan = planModelComparison({ sql: answer.sql, columns: answer.columns, view: modelView });
    if ('problem' in plan) {
      setComparison(plan);
      return;
    }
    controller.current?.abort();
    const abort = new AbortController();
    controller.current = abort;
    setComparing(true);
    try {
      const done = await runQuery(deploymentId, branch, plan.query, () => undefined, abort.signal);
      if (done.status !== 'COMPLETED' || !done.result) {
        setComparison({ problem: `The model query failed: ${done.error?.message ?? done.status}` });
        return;
      }
      setComparison({ plan, outcome: compareResults(plan, answer.rows, done.result.data), viewName: target.viewName });
    } catch (e) {
      if (!abort.signal.aborted) setComparison({ problem: `The model query failed: ${toShownError(e).detail}` });
    } finally {
      setComparing(false);
    }
  };

  if (targets.error && !targets.data) return <ProblemBanner error={targets.error} />;
  if (!targets.data) return <Spinner label="Loading the data sources…" />;

  const mapped = comparison && 'plan' in comparison ? comparison.plan.columns : undefined;
  const columns = answer ? vendorColumns(answer.columns, answer.rows, mapped) : [];

  return (
    <SideSplit
      className="data-preview"
      side={
      <aside className="data-picker vendor-targets" aria-label="Targets">
        <label className="vendor-field">
          Data source
          <select
            aria-label="Data source"
            value={ds?.name ?? ''}
            onChange={(e) => {
              setDataSource(e.target.value);
              setAnswer(null);
              setComparison(null);
              setError(null);
            }}
          >
            {sources.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name} — {s.label}
              </option>
            ))}
          </select>
        </label>
        <div className="picker-group">{ds?.kind === 'lakehouse' ? 'Published metric views' : 'Pushed semantic views'}</div>
        {pushed.length === 0 && (
          <p className="muted small">
            Nothing {ds?.kind === 'lakehouse' ? 'published' : 'pushed'} to {ds?.name ?? 'this data source'} yet: {ds?.kind === 'lakehouse' ? 'publish metric views' : 'push semantic views'} in Syncs, or query its tables.
          </p>
        )}
        <ul className="vendor-list" aria-label="Pushed views">
          {pushed.map((t) => (
            <li key={t.target}>
              <button type="button" className="vendor-target" title={`Start a statement over ${t.target}`} onClick={() => setSql(templateFor(t, entityOf(t.viewName)))}>
                <span className="member-name">{t.target}</span>
                <span className="muted small">
                  {t.devOf ? <DevLabel userTag={t.devOf} /> : <span className="dev-label dev-label-prod">production</span>} from {t.viewName}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {targets.data.notes.map((n) => (
          <p key={n} className="muted small">
            {n}
          </p>
        ))}
      </aside>
      }
    >
      <div className="data-main">
        <div className="data-bar">
          {modeSwitch}
          <Button variant="primary" onClick={() => void run()} disabled={!!running || !sql.trim() || !ds} title="Run the statement (Ctrl+Enter)">
            Run SQL
          </Button>
          {running && (
            <>
              <Button onClick={cancel}>Cancel</Button>
              <span className="data-progress" role="status" aria-label="Statement progress">
                <progress /> running on {ds?.name}… {(elapsed / 1000).toFixed(1)} s
              </span>
            </>
          )}
          {answer && !running && (
            <span className="muted small" role="status">
              {plural(answer.rowCount, 'row')} in {answer.durationMs} ms · {answer.engine}
              {answer.truncated && ' (first 10,000 shown)'}
            </span>
          )}
          <span className="grow" />
          <Button onClick={() => void compare()} disabled={!answer || !!running || comparing} title="Run the equivalent model query and compare the numbers">
            {comparing ? 'Comparing…' : 'Compare with model'}
          </Button>
        </div>
        <div
          className="vendor-editor"
          onKeyDownCapture={(e) => {
            if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
              e.preventDefault();
              e.stopPropagation();
              void run();
            }
          }}
        >
          <Suspense fallback={<textarea className="data-json" aria-label="Vendor SQL" value={sql} onChange={(e) => setSql(e.target.value)} rows={6} />}>
            <CodeEditor value={sql} language="sql" onChange={setSql} height={150} ariaLabel="Vendor SQL" />
          </Suspense>
        </div>
        <ProblemBanner error={error} onDismiss={() => setError(null)} />
        {comparison && <ComparisonReport comparison={comparison} />}
        <div className="data-result">
          <div className="data-tabs">
            <div role="tablist" aria-label="Result views">
              {(['table', 'chart'] as const).map((v) => (
                <button key={v} type="button" role="tab" aria-selected={view === v} className={`data-tab ${view === v ? 'active' : ''}`} onClick={() => setView(v)}>
                  {v === 'table' ? 'Table' : 'Chart'}
                </button>
              ))}
            </div>
            {answer?.truncated && <Badge tone="warn">truncated</Badge>}
          </div>
          {!answer && !running && !error && (
            <EmptyState title="No answer yet">Pick a pushed view on the left (or write a SELECT over the data source&apos;s tables), then run it.</EmptyState>
          )}
          {running && <Spinner label="Running…" />}
          {answer && view === 'table' && <ResultTable columns={columns} data={answer.rows} />}
          {answer && view === 'chart' && (
            <div className="data-chart">
              <QueryChart kind={columns.some((c) => c.kind === 'timeDimension') ? 'line' : 'bar'} columns={columns} data={answer.rows} label="Statement result" />
            </div>
          )}
        </div>
      </div>
    </SideSplit>
  );
}
