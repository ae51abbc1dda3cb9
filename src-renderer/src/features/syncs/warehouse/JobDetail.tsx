import { useEffect, useState, type ReactNode } from 'react';
import {
  cancelWarehouseSemanticViewPull,
  cancelWarehouseSemanticViewSync,
  getWarehouseSemanticViewPull,
  getWarehouseSemanticViewPullResult,
  getWarehouseSemanticViewSync,
  getWarehouseSemanticViewSyncResult,
  type PullResult,
  type PushResult,
  type SyncDirection,
  type SyncJob,
} from '../../../../../src-shared/api/warehouse-sync';
import { api } from '../../../app/session';
import { toShownError, type ShownError } from '../../../lib/errors';
import { plainCode } from '../../../lib/plain/codes';
import { Badge, Button, EmptyState, ProblemBanner, Spinner, Time } from '../../../lib/ui';
import { useQuery } from '../../../lib/useQuery';
import { durationText, elapsedMs, shortId, useBranches } from '../data';
import { AppLink, syncsPath } from '../links';
import { isActiveStatus, ProgressBar, StatusBadge } from '../parts';
import { ReadOnlyCode } from '../code';
import { useTick } from '../tracker';
import { requestOf, stageLabel, stageSteps, trackerGroup, trackJob } from './jobs';
import { RetryJobButton } from './RetryButton';
import { PullResultView, PushResultView } from './JobResults';
import { plural, verb } from '../../../lib/plural';

export function JobDetail({ deploymentId, direction, syncJobId }: { deploymentId: number; direction: SyncDirection; syncJobId: string }) {
  const tick = useTick(trackerGroup(deploymentId));
  const [cancelError, setCancelError] = useState<ShownError | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [version, setVersion] = useState(0);
  const branches = useBranches(deploymentId);
  const params = { deploymentId, syncJobId };
  const job = useQuery(
    (signal) => api.call(direction === 'push' ? getWarehouseSemanticViewSync : getWarehouseSemanticViewPull, { params, signal }),
    [deploymentId, direction, syncJobId, version, tick],
    'Loading the job',
    (e) => e.type === 'job' && e.job.id === syncJobId,
  );
  const data = job.data;
  const status = data?.status;

  useEffect(() => {
    if (data) trackJob(deploymentId, data);
  }, [data, deploymentId]);

  const result = useQuery<PushResult | PullResult | null>(
    async (signal) => {
      if (status !== 'COMPLETED') return null;
      return direction === 'push'
        ? api.call(getWarehouseSemanticViewSyncResult, { params, signal })
        : api.call(getWarehouseSemanticViewPullResult, { params, signal });
    },
    [deploymentId, direction, syncJobId, status],
    'Loading the result',
  );

  const cancel = async () => {
    setCancelling(true);
    setCancelError(null);
    try {
      await api.call(direction === 'push' ? cancelWarehouseSemanticViewSync : cancelWarehouseSemanticViewPull, { params });
      setVersion((v) => v + 1);
    } catch (e) {
      setCancelError(toShownError(e, 'Cancelling the job'));
    } finally {
      setCancelling(false);
    }
  };

  const title = direction === 'push' ? 'Push' : 'Pull';
  const branchNames = branches.data ? new Set(branches.data.map((b) => b.branchName)) : null;
  return (
    <div className="sy-panel">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <AppLink to={syncsPath(deploymentId, 'warehouse')}>Sync jobs</AppLink>
        <span aria-hidden="true">/</span>
        <span>
          {title} {shortId(syncJobId)}
        </span>
      </nav>
      <ProblemBanner error={job.error} />
      {!data ? (
        job.loading && <Spinner label="Loading the job…" />
      ) : (
        <>
          <header className="sy-detail-head">
            <div className="sy-detail-title">
              <span className={`sy-dir sy-dir-${direction} sy-dir-large`} aria-hidden="true">
                {direction === 'push' ? '↑' : '↓'}
              </span>
              <div>
                <h2>
                  {title} {direction === 'push' ? 'to' : 'from'} <code>{data.devTarget?.schema ?? requestOf(data).schema ?? 'the warehouse'}</code>
                  {data.devTarget && (
                    <>
                      {' '}
                      <Badge tone="info">dev · {data.devTarget.userTag}</Badge>
                    </>
                  )}
                </h2>
                <div className="muted sy-detail-sub">
                  {data.direction === 'push' ? 'Model views → semantic views' : 'Semantic views → model files'} · branch <code>{data.branchName}</code>
                </div>
              </div>
              <StatusBadge status={data.status} />
            </div>
            <div className="actions">
              {isActiveStatus(data.status) && (
                <Button variant="default" className="danger-text" onClick={() => void cancel()} busy={cancelling} disabled={data.status === 'CANCELLING'}>
                  {data.status === 'CANCELLING' ? 'Cancelling…' : `Cancel ${direction}`}
                </Button>
              )}
              <RetryJobButton key={data.syncJobId} deploymentId={deploymentId} job={data} branchExists={(name) => branchNames?.has(name)} />
            </div>
          </header>
          <ProblemBanner error={cancelError} onDismiss={() => setCancelError(null)} />
          <div className="two-col sy-detail-grid">
            <div className="sy-detail-main">
              <Progress job={data} />
              {data.error && <JobErrorPanel job={data} />}
              <ProblemBanner error={result.error} />
              {data.status === 'COMPLETED' &&
                (!result.data ? (
                  <Spinner label="Loading the result…" />
                ) : 'views' in result.data ? (
                  <PushResultView result={result.data} />
                ) : (
                  <PullResultView result={result.data} />
                ))}
              {(data.status === 'CANCELLED' || data.status === 'PARTIAL') && !data.error && (
                <EmptyState title={`The ${direction} was ${data.status.toLowerCase()}`}>
                  {data.written && data.written.length > 0
                    ? `${plural(data.written.length, 'semantic view')} ${verb(data.written.length, 'was', 'were')} written before it stopped and stay in the warehouse, each complete: ${data.written.join(', ')}. It has no result.`
                    : 'Views created before it stopped stay in the warehouse; it has no result.'}
                </EmptyState>
              )}
            </div>
            <aside className="side">
              <Facts job={data} />
            </aside>
          </div>
        </>
      )}
    </div>
  );
}

function Progress({ job }: { job: SyncJob }) {
  const { stages, index } = stageSteps(job.direction, job.progress.stage);
  const failed = job.status === 'FAILED' || job.status === 'CANCELLED';
  const shown = stages.filter((s) => s !== 'completed');
  return (
    <section className="panel" aria-label="Progress">
      <div className="panel-head">
        <h2>Progress</h2>
        <span className="muted">
          {stageLabel(job.progress.stage)} · {job.progress.percentComplete}%
        </span>
      </div>
      <ProgressBar percent={job.progress.percentComplete} status={job.status} label={`Progress of the ${job.direction}`} />
      <ol className="sy-stepper">
        {shown.map((stage, i) => {
          const state = job.status === 'COMPLETED' || i < index ? 'done' : i === index ? (failed ? 'failed' : 'current') : 'pending';
          return (
            <li key={stage} className={`sy-step sy-step-${state}`}>
              <span className="sy-step-dot" aria-hidden="true" />
              <span>{stageLabel(stage)}</span>
              <span className="sr-only">({state})</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function JobErrorPanel({ job }: { job: SyncJob }) {
  const error = job.error!;
  const details = (error.details ?? {}) as Record<string, unknown>;
  const statement = typeof details.statement === 'string' ? details.statement : null;
  const pushed = Array.isArray(details.pushed) ? (details.pushed as unknown[]).map(String) : [];
  const rest = Object.entries(details).filter(([k]) => k !== 'statement' && k !== 'pushed');
  // The plain words first; the warehouse's own message and the details stay below for whoever digs.
  const known = plainCode(error.code);
  return (
    <section className="panel sy-error-panel" aria-label="Error">
      <div className="panel-head">
        <h2>Why it {job.status === 'CANCELLED' ? 'stopped' : 'failed'}</h2>
      </div>
      {known && (
        <p className="sy-error-plain">
          <strong>
            {job.status === 'CANCELLED' ? 'It stopped' : 'It failed'}: {known.what}.
          </strong>{' '}
          {known.fix}
        </p>
      )}
      {/* The code and status are for whoever digs (or asks for help): behind "Details", as on every screen. */}
      <details className="problem-technical sy-error-codes">
        <summary>Details</summary>
        <code className="problem-code">{error.code}</code>
        {error.status !== undefined && <Badge tone="bad">{error.status}</Badge>}
      </details>
      <pre className="sy-error-message">{error.message}</pre>
      {rest.length > 0 && (
        <dl className="facts sy-error-facts">
          {rest.map(([key, value]) => (
            <FactRow key={key} label={key}>
              {Array.isArray(value) && value.every((v) => typeof v === 'string') ? (
                (value as string[]).map((v) => <code key={v}>{v}</code>)
              ) : (
                <code>{typeof value === 'string' ? value : JSON.stringify(value)}</code>
              )}
            </FactRow>
          ))}
          {job.direction === 'push' && (
            <FactRow label="already pushed">{pushed.length ? pushed.map((p) => <code key={p}>{p}</code>) : <span className="muted">none</span>}</FactRow>
          )}
        </dl>
      )}
      {statement && (
        <>
          <h3 className="sy-subtitle">Statement that failed</h3>
          <ReadOnlyCode value={statement} language="sql" label="Statement that failed" maxHeight={220} />
        </>
      )}
    </section>
  );
}

function Facts({ job }: { job: SyncJob }) {
  const request = requestOf(job);
  return (
    <section className="panel" aria-label="Details">
      <h2>Details</h2>
      <dl className="facts">
        <FactRow label="Direction">{job.direction === 'push' ? 'Push (model → warehouse)' : 'Pull (warehouse → model)'}</FactRow>
        <FactRow label="Branch">
          <code>{job.branchName}</code>
        </FactRow>
        <FactRow label="Data source">{job.dataSourceName ? <code>{job.dataSourceName}</code> : <span className="muted">from the views</span>}</FactRow>
        <FactRow label="Schema">
          <code>{request.schema ?? '—'}</code>
        </FactRow>
        {job.devTarget && (
          <FactRow label="Dev target">
            {job.devTarget.mode === 'schema-suffix' ? 'per-user schema' : 'per-user name prefix'} <code>{job.devTarget.mode === 'schema-suffix' ? job.devTarget.schema : job.devTarget.prefix}</code>{' '}
            <span className="muted">
              (dev branch of {job.devTarget.userTag}; asked for <code>{job.devTarget.requestedSchema}</code>
              {job.devTarget.requestedPrefix ? (
                <>
                  {' '}
                  with prefix <code>{job.devTarget.requestedPrefix}</code>
                </>
              ) : null}
              )
            </span>
          </FactRow>
        )}
        {job.direction === 'push' && <FactRow label="Prefix">{request.prefix ? <code>{request.prefix}</code> : <span className="muted">none</span>}</FactRow>}
        {request.helperViewSchema && (
          <FactRow label="Helper schema">
            <code>{request.helperViewSchema}</code>
          </FactRow>
        )}
        {job.direction === 'pull' && (
          <FactRow label="Output folder">
            <code>{request.outputPath ?? '—'}</code>
          </FactRow>
        )}
        <FactRow label="Views">
          {request.viewNames.length ? (
            <span className="sy-wrap">
              {request.viewNames.map((n) => (
                <code key={n}>{n}</code>
              ))}
            </span>
          ) : (
            <span className="muted">every view in the schema</span>
          )}
        </FactRow>
        <FactRow label="Created">
          <Time value={job.createdAt} />
        </FactRow>
        <FactRow label="Started">
          <Time value={job.startedAt} />
        </FactRow>
        <FactRow label="Finished">
          <Time value={job.finishedAt} />
        </FactRow>
        <FactRow label="Duration">{durationText(elapsedMs(job.startedAt, job.finishedAt))}</FactRow>
        <FactRow label="Attempts">{job.attempts}</FactRow>
        <FactRow label="Job id">
          <code className="sy-break">{job.syncJobId}</code>
        </FactRow>
        <FactRow label="Workflow id">
          <code className="sy-break">{job.workflowId}</code>
        </FactRow>
      </dl>
    </section>
  );
}

function FactRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}
