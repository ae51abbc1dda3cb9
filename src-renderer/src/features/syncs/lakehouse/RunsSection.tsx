import { useEffect, useState, type ReactNode } from 'react';
import {
  cancelLakehouseMetricViewSync,
  getLakehouseMetricViewSync,
  listLakehouseMetricViewSyncs,
  type Run,
  type RunSummary,
  type RunView,
} from '../../../../../src-shared/api/lakehouse';
import { navigate } from '../../../app/router';
import { api } from '../../../app/session';
import { shownJobError, toShownError, type ShownError } from '../../../lib/errors';
import { controlsColumn, DataTable, type Column } from '../../../lib/DataTable';
import { Badge, Button, EmptyState, ProblemBanner, Spinner, Time } from '../../../lib/ui';
import { useQuery } from '../../../lib/useQuery';
import { durationText, elapsedMs, shortCommit, shortId } from '../data';
import { AppLink, lakehousePath } from '../links';
import { isActiveStatus, ProgressBar, Segmented, Stat, StatusBadge } from '../parts';
import { useGroupActive, useTick } from '../tracker';
import { OutcomeChart } from './OutcomeChart';
import { outcomeSummary, RUN_OUTCOME_INFO } from './outcomes';
import { IssueList } from './PreviewSection';
import { runsGroup, trackRun } from './runs';
import { RetryRunButton } from './RetryRunButton';
import { liveJobOf } from '../../../lib/live';
import { plural } from '../../../lib/plural';
import { FailureSummary } from '../../../lib/plain/FailureSummary';

const PAGE = 50;

export function RunsSection({
  deploymentId,
  dataSource,
  runId,
  canPublish,
  currentVersion,
}: {
  deploymentId: number;
  dataSource: string;
  runId: string | null;
  canPublish: boolean;
  /** The saved settings' version (null: none saved): only runs of it can be retried. */
  currentVersion: number | null;
}) {
  const group = runsGroup(deploymentId, dataSource);
  const tick = useTick(group);
  const live = useGroupActive(group);
  const [manual, setManual] = useState(0);
  const [limit, setLimit] = useState(PAGE);
  const [cancelError, setCancelError] = useState<ShownError | null>(null);
  const runs = useQuery(
    (signal) => api.call(listLakehouseMetricViewSyncs, { params: { deploymentId, dataSourceName: dataSource }, query: { first: limit }, signal }),
    [deploymentId, dataSource, limit, tick, manual],
    'Loading publication runs',
    liveJobOf(deploymentId),
  );
  const items = runs.data?.items ?? [];

  useEffect(() => {
    runs.data?.items.forEach((r) => trackRun(deploymentId, dataSource, r.runId, r.status));
  }, [runs.data, deploymentId, dataSource]);

  const cancel = async (id: string) => {
    setCancelError(null);
    try {
      await api.call(cancelLakehouseMetricViewSync, { params: { deploymentId, dataSourceName: dataSource, runId: id } });
      setManual((n) => n + 1);
    } catch (e) {
      setCancelError(toShownError(e, 'Cancelling the run'));
    }
  };
  const open = (id: string) => navigate(lakehousePath(deploymentId, dataSource, 'runs', id));

  return (
    <div className="sy-section">
      <ProblemBanner error={runs.error} />
      <ProblemBanner error={cancelError} onDismiss={() => setCancelError(null)} />
      {!runs.data && runs.loading ? (
        <Spinner label="Loading publication runs…" />
      ) : items.length === 0 ? (
        <EmptyState title="No publication runs yet">
          {canPublish ? 'Use “Publish now” to publish the views in scope from the latest deployed build.' : 'Save the publication settings, then publish.'} Runs never start by themselves after a
          deploy.
        </EmptyState>
      ) : (
        <>
          <section className="panel" aria-label="Outcomes of recent runs">
            <div className="panel-head">
              <h2>Outcomes of recent runs</h2>
              <span className="muted">views per outcome, oldest → newest</span>
            </div>
            <OutcomeChart runs={items} selected={runId} onSelect={open} />
          </section>
          <div className="sy-list-head">
            <h2>Runs</h2>
            <span className="sy-live muted" aria-live="polite">
              {live && (
                <>
                  <span className="sy-pulse" aria-hidden="true" /> Live
                </>
              )}
            </span>
            <Button className="btn-small" onClick={() => setManual((n) => n + 1)} busy={runs.loading && !live}>
              Refresh
            </Button>
          </div>
          <div className="sy-scroll">
            <DataTable
              label="Publication runs"
              className="table-hover sy-runs"
              rows={items}
              rowKey={(run) => run.runId}
              selection={{ isSelected: (run) => run.runId === runId, onSelect: (run) => open(run.runId) }}
              rowProps={(run) => ({ 'data-run-id': run.runId })}
              columns={runColumns({
                open,
                cancel: (id) => void cancel(id),
                retry: (run) => <RetryRunButton deploymentId={deploymentId} dataSource={dataSource} run={run} currentVersion={currentVersion} compact />,
              })}
            />
          </div>
          {runs.data?.pageInfo.hasNextPage && (
            <div className="more">
              <Button onClick={() => setLimit((n) => Math.min(1000, n + PAGE))} busy={runs.loading}>
                Load more
              </Button>
            </div>
          )}
        </>
      )}
      {runId && <RunDetail key={runId} deploymentId={deploymentId} dataSource={dataSource} runId={runId} tick={tick} onCancel={() => void cancel(runId)} currentVersion={currentVersion} />}
    </div>
  );
}

function OutcomeChips({ counts }: { counts: Record<string, number> }) {
  const list = outcomeSummary(counts);
  if (list.length === 0) return <span className="muted">—</span>;
  return (
    <span className="sy-outcome-chips">
      {list.map(({ outcome, count }) => (
        <Badge key={outcome} tone={RUN_OUTCOME_INFO[outcome].tone}>
          {count} {RUN_OUTCOME_INFO[outcome].label}
        </Badge>
      ))}
    </span>
  );
}

/** The columns of the run list; a row opens the run (the run's button in its first cell does the same for the keyboard). */
function runColumns({ open, cancel, retry }: { open: (runId: string) => void; cancel: (runId: string) => void; retry: (run: RunSummary) => ReactNode }): Column<RunSummary>[] {
  return [
    {
      header: 'Run',
      cell: (run) => (
        <button type="button" className="link strong" onClick={(e) => (e.stopPropagation(), open(run.runId))} aria-label={`Run ${shortId(run.runId)}`}>
          <code>{shortId(run.runId)}</code>
        </button>
      ),
    },
    { header: 'Status', cell: (run) => <StatusBadge status={run.status} /> },
    {
      header: 'Progress',
      className: 'sy-col-progress',
      cell: (run) => (
        <>
          <ProgressBar percent={run.progress.percentComplete} status={run.status} compact label={`Progress of run ${shortId(run.runId)}`} />
          <div className="sy-stage">
            {isActiveStatus(run.status) ? run.progress.stage : run.error ? <FailureSummary error={run.error} compact /> : run.incompleteViewCount > 0 ? `${run.incompleteViewCount} incomplete` : ''}
          </div>
        </>
      ),
    },
    { header: 'Outcomes', cell: (run) => <OutcomeChips counts={run.outcomeCounts} /> },
    { header: 'Views', priority: 3, className: 'num', cell: (run) => run.viewCount },
    {
      header: 'Build',
      cell: (run) => (
        <>
          {run.commit ? <code title={run.commit}>{shortCommit(run.commit)}</code> : <span className="muted">—</span>}
          {run.devTarget && (
            <>
              {' '}
              <span title={`Dev branch ${run.branchName}: published to ${run.devTarget.mode === 'schema-suffix' ? `schema ${run.devTarget.schema}` : `prefix ${run.devTarget.prefix}`}`}>
                <Badge tone="info">dev · {run.devTarget.userTag}</Badge>
              </span>
            </>
          )}
        </>
      ),
    },
    { header: 'Settings', priority: 4, className: 'num', cell: (run) => `v${run.configurationVersion}` },
    { header: 'Started', priority: 1, cell: (run) => <Time value={run.startedAt ?? run.createdAt} /> },
    { header: 'Duration', priority: 2, className: 'num', cell: (run) => durationText(elapsedMs(run.startedAt ?? run.createdAt, run.finishedAt)) },
    controlsColumn((run) => (
      <>
        {isActiveStatus(run.status) && (
          <Button className="btn-small danger-text" onClick={(e) => (e.stopPropagation(), cancel(run.runId))} disabled={run.status === 'CANCELLING'} aria-label={`Cancel run ${shortId(run.runId)}`}>
            {run.status === 'CANCELLING' ? 'Cancelling…' : 'Cancel'}
          </Button>
        )}
        {retry(run)}
      </>
    )),
  ];
}

type ViewFilter = 'all' | 'failed' | 'published';

function RunDetail({
  deploymentId,
  dataSource,
  runId,
  tick,
  onCancel,
  currentVersion,
}: {
  deploymentId: number;
  dataSource: string;
  runId: string;
  tick: number;
  onCancel: () => void;
  currentVersion: number | null;
}) {
  const [filter, setFilter] = useState<ViewFilter>('all');
  const run = useQuery(
    (signal) => api.call(getLakehouseMetricViewSync, { params: { deploymentId, dataSourceName: dataSource, runId }, signal }),
    [deploymentId, dataSource, runId, tick],
    'Loading the run',
    (e) => e.type === 'job' && e.job.id === runId,
  );
  useEffect(() => {
    if (run.data) trackRun(deploymentId, dataSource, run.data.runId, run.data.status);
  }, [run.data, deploymentId, dataSource]);
  const data = run.data;
  if (!data) return run.error ? <ProblemBanner error={run.error} /> : <Spinner label="Loading the run…" />;
  const views = data.views.filter((v) => (filter === 'all' ? true : filter === 'failed' ? !RUN_OUTCOME_INFO[v.outcome]?.success : RUN_OUTCOME_INFO[v.outcome]?.success));
  const pending = data.viewNames.filter((name) => !data.views.some((v) => v.viewName === name));
  return (
    <section className="panel sy-run-detail" aria-label={`Run ${shortId(data.runId)}`}>
      <div className="panel-head">
        <h2>
          Run <code>{shortId(data.runId)}</code> <StatusBadge status={data.status} />
        </h2>
        <div className="actions">
          {isActiveStatus(data.status) && (
            <Button className="btn-small danger-text" onClick={onCancel} disabled={data.status === 'CANCELLING'}>
              Cancel run
            </Button>
          )}
          <RetryRunButton key={data.runId} deploymentId={deploymentId} dataSource={dataSource} run={data} currentVersion={currentVersion} />
          <AppLink to={lakehousePath(deploymentId, dataSource, 'runs')} className="btn btn-ghost btn-small" ariaLabel="Close run">
            Close
          </AppLink>
        </div>
      </div>
      {isActiveStatus(data.status) && <ProgressBar percent={data.progress.percentComplete} status={data.status} label="Run progress" />}
      <RunStatusLine run={data} />
      {data.devTarget && (
        <p className="notice sy-push-target sy-push-target-dev" role="note" aria-label="Dev target">
          <Badge tone="info">dev · {data.devTarget.userTag}</Badge> From dev branch <code>{data.branchName}</code> to the per-user{' '}
          {data.devTarget.mode === 'schema-suffix' ? (
            <>
              schema <code>{data.devTarget.schema}</code>
            </>
          ) : (
            <>
              name prefix <code>{data.devTarget.prefix}</code> in <code>{data.devTarget.schema}</code>
            </>
          )}
          ; the production metric views in <code>{data.devTarget.requestedSchema}</code> were not touched.
        </p>
      )}
      <div className="sy-stats">
        <Stat label="views planned">{data.viewNames.length}</Stat>
        <Stat label="published">{data.views.filter((v) => RUN_OUTCOME_INFO[v.outcome]?.success).length}</Stat>
        <Stat label="not published">{data.views.filter((v) => !RUN_OUTCOME_INFO[v.outcome]?.success).length}</Stat>
        <Stat label="incomplete (withheld members)">{data.incompleteViewCount}</Stat>
        <Stat label="build" hint={data.commit}>
          <code>{shortCommit(data.commit)}</code>
        </Stat>
        <Stat label="duration">{durationText(elapsedMs(data.startedAt ?? data.createdAt, data.finishedAt))}</Stat>
      </div>
      {data.error && (
        <ProblemBanner error={shownJobError(data.error, `The run ${data.status === 'CANCELLED' ? 'was cancelled' : 'failed'}`)} />
      )}
      <div className="sy-list-head">
        <h3 className="sy-subtitle">Per-view outcomes</h3>
        <Segmented
          label="Views"
          value={filter}
          onChange={setFilter}
          options={[
            { id: 'all', title: `All ${data.views.length}` },
            { id: 'published', title: 'Published' },
            { id: 'failed', title: 'Not published' },
          ]}
        />
      </div>
      {data.views.length === 0 && pending.length === 0 ? (
        <p className="muted">The scope had no views.</p>
      ) : (
        <div className="sy-scroll">
          <DataTable
            label="Per-view outcomes"
            className="sy-run-views"
            rows={[...views.map((view) => ({ name: view.viewName, view })), ...(filter === 'all' ? pending.map((name) => ({ name, view: null })) : [])]}
            rowKey={(r) => r.name}
            rowClassName={(r) => (r.view ? 'sy-top' : undefined)}
            columns={runViewColumns(deploymentId, isActiveStatus(data.status))}
          />
        </div>
      )}
    </section>
  );
}

function RunStatusLine({ run }: { run: Run }) {
  const text =
    run.status === 'COMPLETED'
      ? run.incompleteViewCount > 0
        ? `Every view published; ${run.incompleteViewCount} without their fan-out-unsafe members.`
        : 'Every view in scope published.'
      : run.status === 'PARTIAL'
        ? 'Some views did not publish. Views that failed keep their previous definition.'
        : run.status === 'CANCELLED'
          ? 'Cancelled: writes already done stay; nothing is undone.'
          : run.status === 'FAILED'
            ? 'The run failed before publishing.'
            : `${run.progress.stage} (${run.progress.percentComplete}%)`;
  return (
    <p className="sy-run-line">
      {text}{' '}
      <span className="muted">
        Started <Time value={run.startedAt ?? run.createdAt} />
        {run.finishedAt && (
          <>
            , finished <Time value={run.finishedAt} />
          </>
        )}{' '}
        · settings v{run.configurationVersion}
      </span>
    </p>
  );
}

/** A row per view of the run; views the run has not reached (yet) have only their name and whether they are pending. */
type RunViewLine = { name: string; view: RunView | null };

const NONE = <span className="muted">—</span>;

function runViewColumns(deploymentId: number, active: boolean): Column<RunViewLine>[] {
  return [
    { header: 'View', cellClassName: 'strong', cell: (r) => r.name },
    { header: 'Target', cell: ({ view }) => (view?.target ? <code>{view.target}</code> : NONE) },
    {
      header: 'Outcome',
      cell: ({ view }) => {
        if (!view) return active ? <Badge tone="info">pending</Badge> : <Badge>not reached</Badge>;
        const info = RUN_OUTCOME_INFO[view.outcome];
        return (
          <>
            <Badge tone={info?.tone ?? 'neutral'}>{info?.label ?? view.outcome}</Badge>
            {view.definitionWritten && !info?.success && (
              <div className="field-hint" title="The definition was replaced but a later step (its properties) failed">
                definition written
              </div>
            )}
          </>
        );
      },
    },
    {
      header: 'Reasons and warnings',
      cellClassName: 'sy-wrap sy-issue-cell',
      cell: ({ view }) =>
        !view || (view.reasons.length === 0 && view.warnings.length === 0) ? (
          NONE
        ) : (
          <>
            <IssueList title="" issues={view.reasons} tone="bad" deploymentId={deploymentId} />
            {view.warnings.length > 0 && (
              <details className="sy-warn-details">
                <summary>{plural(view.warnings.length, 'warning')}</summary>
                <IssueList title="" issues={view.warnings} tone="warn" />
              </details>
            )}
          </>
        ),
    },
    { header: 'Withheld members', cellClassName: 'sy-wrap', cell: ({ view }) => (view?.withheldMembers.length ? view.withheldMembers.map((m) => <code key={m}>{m}</code>) : NONE) },
  ];
}
