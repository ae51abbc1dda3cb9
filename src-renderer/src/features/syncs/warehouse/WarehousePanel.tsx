import { useEffect, useState } from 'react';
import { listWarehouseSemanticViewSyncJobs, SYNC_DIRECTIONS, type SyncDirection, type SyncJob } from '../../../../../src-shared/api/warehouse-sync';
import { navigate } from '../../../app/router';
import { api } from '../../../app/session';
import { DataTable, type Column } from '../../../lib/DataTable';
import { Badge, Button, EmptyState, ProblemBanner, Spinner, Time } from '../../../lib/ui';
import { useQuery } from '../../../lib/useQuery';
import { durationText, elapsedMs, shortId, useBranches, type Settings } from '../data';
import { RetryJobButton } from './RetryButton';
import { offersRetry } from '../retry';
import { AppLink, warehouseJobPath } from '../links';
import { isActiveStatus, ProgressBar, Segmented, StatusBadge } from '../parts';
import { useGroupActive, useTick } from '../tracker';
import { isTerminal, requestOf, stageLabel, STATUS_FILTERS, statusesOf, trackerGroup, trackJob, type StatusFilter } from './jobs';
import { PullDialog } from './PullDialog';
import { PushDialog } from './PushDialog';
import { liveJobOf } from '../../../lib/live';
import { FailureSummary } from '../../../lib/plain/FailureSummary';
import { plural } from '../../../lib/plural';

const PAGE = 50;

/** Remembered while the app runs, so coming back from a job's detail keeps the filters. */
const remembered: { filter: StatusFilter; direction: SyncDirection | 'any' } = { filter: 'all', direction: 'any' };

export function WarehousePanel({ deploymentId, settings }: { deploymentId: number; settings: Settings }) {
  const [filter, setFilter] = useState<StatusFilter>(remembered.filter);
  const [direction, setDirection] = useState<SyncDirection | 'any'>(remembered.direction);
  const [limit, setLimit] = useState(PAGE);
  const [dialog, setDialog] = useState<SyncDirection | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const group = trackerGroup(deploymentId);
  const tick = useTick(group);
  const polling = useGroupActive(group);
  const [manual, setManual] = useState(0);

  useEffect(() => {
    remembered.filter = filter;
    remembered.direction = direction;
  }, [filter, direction]);

  // Jobs still running that the current filter may hide: watch them too.
  useEffect(() => {
    const controller = new AbortController();
    api
      .call(listWarehouseSemanticViewSyncJobs, { params: { deploymentId }, query: { status: statusesOf('active'), first: 100 }, signal: controller.signal })
      .then((page) => page.items.forEach((job) => trackJob(deploymentId, job)))
      .catch(() => {
        // The list below shows the error.
      });
    return () => controller.abort();
  }, [deploymentId, manual]);

  const jobs = useQuery(
    (signal) => {
      const statuses = statusesOf(filter);
      return api.call(listWarehouseSemanticViewSyncJobs, {
        params: { deploymentId },
        query: { first: limit, ...(statuses.length ? { status: statuses } : {}), ...(direction !== 'any' ? { direction } : {}) },
        signal,
      });
    },
    [deploymentId, filter, direction, limit, tick, manual],
    'Loading sync jobs',
    liveJobOf(deploymentId),
  );

  useEffect(() => {
    jobs.data?.items.forEach((job) => trackJob(deploymentId, job));
  }, [jobs.data, deploymentId]);

  const branches = useBranches(deploymentId);
  const branchNames = branches.data ? new Set(branches.data.map((b) => b.branchName)) : null;
  const branchExists = (name: string) => branchNames?.has(name);
  const warehouses = settings.dataSources.filter((d) => d.kind === 'warehouse');
  const items = jobs.data?.items ?? [];
  const started = (job: Pick<SyncJob, 'syncJobId' | 'direction' | 'status'>) => {
    setDialog(null);
    setFresh(job.syncJobId);
    trackJob(deploymentId, job);
    setManual((n) => n + 1);
  };

  return (
    <div className="sy-panel">
      <div className="sy-toolbar">
        <Segmented label="Status" options={STATUS_FILTERS.map((f) => ({ id: f.id, title: f.title }))} value={filter} onChange={(v) => (setFilter(v), setLimit(PAGE))} />
        <Segmented
          label="Direction"
          options={[{ id: 'any' as const, title: 'Push and pull' }, ...SYNC_DIRECTIONS.map((d) => ({ id: d, title: d === 'push' ? 'Pushes' : 'Pulls' }))]}
          value={direction}
          onChange={(v) => (setDirection(v), setLimit(PAGE))}
        />
        <span className="sy-live muted" aria-live="polite">
          {polling ? (
            <>
              <span className="sy-pulse" aria-hidden="true" /> Live
            </>
          ) : null}
        </span>
        <div className="sy-toolbar-end">
          <Button onClick={() => setManual((n) => n + 1)} busy={jobs.loading && jobs.data !== null && !polling} aria-label="Refresh jobs">
            Refresh
          </Button>
          <Button onClick={() => setDialog('pull')} disabled={warehouses.length === 0}>
            Pull from warehouse…
          </Button>
          <Button variant="primary" onClick={() => setDialog('push')} disabled={warehouses.length === 0}>
            Push to warehouse…
          </Button>
        </div>
      </div>

      {warehouses.length === 0 && (
        <div className="notice sy-notice">This deployment has no warehouse data source (a Snowflake connection), so there is nothing to push to or pull from.</div>
      )}
      {!settings.sqlRunnerDdlEnabled && (
        <div className="notice sy-notice">
          DDL operations are disabled for this deployment: pushes will fail with <code>SQL_RUNNER_DDL_DISABLED</code>. Turn on “Allow DDL in the SQL Runner” in{' '}
          <AppLink to={`/deployments/${deploymentId}`}>the deployment’s settings</AppLink> to push.
        </div>
      )}
      <ProblemBanner error={jobs.error} />

      {!jobs.data && jobs.loading ? (
        <Spinner label="Loading sync jobs…" />
      ) : items.length === 0 ? (
        filter === 'all' && direction === 'any' ? (
          <EmptyState title="No sync jobs yet">
            Push model views to the warehouse as semantic views, or pull the warehouse’s semantic views into model files.
            <div className="sy-empty-actions">
              <Button onClick={() => setDialog('push')} disabled={warehouses.length === 0}>
                Push your first views…
              </Button>
            </div>
          </EmptyState>
        ) : (
          <EmptyState title="No job matches these filters" />
        )
      ) : (
        <div className="sy-scroll">
          <DataTable
            label="Sync jobs"
            className="table-hover sy-jobs"
            rows={items}
            rowKey={(job) => job.syncJobId}
            onRowClick={(job) => navigate(warehouseJobPath(deploymentId, job.direction, job.syncJobId))}
            rowClassName={(job) => (job.syncJobId === fresh ? 'sy-fresh' : undefined)}
            rowProps={(job) => ({ 'data-job-id': job.syncJobId })}
            columns={jobColumns(deploymentId, branchExists)}
          />
        </div>
      )}
      {jobs.data?.pageInfo.hasNextPage && (
        <div className="more">
          <Button onClick={() => setLimit((n) => Math.min(n + PAGE, 1000))} busy={jobs.loading}>
            Load more
          </Button>
        </div>
      )}

      {dialog === 'push' && <PushDialog deploymentId={deploymentId} settings={settings} onClose={() => setDialog(null)} onStarted={started} />}
      {dialog === 'pull' && <PullDialog deploymentId={deploymentId} settings={settings} onClose={() => setDialog(null)} onStarted={started} />}
    </div>
  );
}

/** The columns of the job list; a row opens the job (the link in its first cell does the same for the keyboard). */
function jobColumns(deploymentId: number, branchExists: (name: string) => boolean | undefined): Column<SyncJob>[] {
  return [
    { header: 'Job', cell: (job) => <JobLink deploymentId={deploymentId} job={job} /> },
    {
      header: 'Views',
      cellClassName: 'sy-views-cell',
      cellTitle: (job) => requestOf(job).viewNames.join(', '),
      cell: (job) => {
        const names = requestOf(job).viewNames;
        return names.length === 0 ? (
          <span className="muted">every semantic view</span>
        ) : (
          <>
            <code>{names[0]}</code>
            {names.length > 1 && <span className="muted"> +{names.length - 1}</span>}
          </>
        );
      },
    },
    {
      header: 'Warehouse',
      priority: 3,
      cell: (job) => {
        const request = requestOf(job);
        return (
          <>
            <code>{request.schema ?? '—'}</code>
            {job.direction === 'push' && request.prefix ? <span className="muted"> · prefix {request.prefix}</span> : null}
            {job.direction === 'pull' && request.outputPath ? <span className="muted"> → {request.outputPath}</span> : null}
          </>
        );
      },
    },
    { header: 'Branch', priority: 4, cell: (job) => <code>{job.branchName}</code> },
    {
      header: 'Status',
      cell: (job) => (
        <>
          <StatusBadge status={job.status} />
          {job.warningCount ? (
            <>
              {' '}
              <Badge tone="warn">{plural(job.warningCount, 'warning')}</Badge>
            </>
          ) : null}
        </>
      ),
    },
    {
      header: 'Progress',
      className: 'sy-col-progress',
      cell: (job) => (
        <>
          <ProgressBar percent={job.progress.percentComplete} status={job.status} compact label={`Progress of ${job.direction} ${shortId(job.syncJobId)}`} />
          {isActiveStatus(job.status) ? (
            <div className="sy-stage">{stageLabel(job.progress.stage)}</div>
          ) : job.error ? (
            <div className="sy-stage">
              <FailureSummary error={job.error} compact />
            </div>
          ) : null}
          {offersRetry(job.status) && (
            <div className="sy-row-retry">
              <RetryJobButton deploymentId={deploymentId} job={job} branchExists={branchExists} compact />
            </div>
          )}
        </>
      ),
    },
    { header: 'Started', priority: 1, cell: (job) => <Time value={job.startedAt ?? job.createdAt} /> },
    {
      header: 'Duration',
      priority: 2,
      className: 'num',
      cell: (job) => (isTerminal(job.status) || job.startedAt ? durationText(elapsedMs(job.startedAt ?? job.createdAt, job.finishedAt)) : <Badge>waiting</Badge>),
    },
  ];
}

function JobLink({ deploymentId, job }: { deploymentId: number; job: SyncJob }) {
  const path = warehouseJobPath(deploymentId, job.direction, job.syncJobId);
  return (
    <a
      href={path}
      className="sy-job-link"
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey) return;
        e.preventDefault();
        e.stopPropagation();
        navigate(path);
      }}
    >
      <span className={`sy-dir sy-dir-${job.direction}`} aria-hidden="true">
        {job.direction === 'push' ? '↑' : '↓'}
      </span>
      <span className="strong">{job.direction === 'push' ? 'Push' : 'Pull'}</span>
      <code className="muted">{shortId(job.syncJobId)}</code>
    </a>
  );
}
