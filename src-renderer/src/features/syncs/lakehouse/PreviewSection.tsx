import { useEffect, useMemo, useState } from 'react';
import { fileOfReason } from '../../../lib/plain/reasons';
import { ReasonHelp } from '../../../lib/plain/ReasonHelp';
import { openInModels } from '../../models/open-in-models';
import {
  cancelLakehouseMetricViewPreview,
  getLakehouseMetricViewPreview,
  getLakehouseMetricViewPreviewResult,
  PREVIEW_VIEW_OUTCOMES,
  startLakehouseMetricViewPreview,
  type PreviewResult,
  type PreviewView,
  type PublicationIssue,
} from '../../../../../src-shared/api/lakehouse';
import { api } from '../../../app/session';
import { shownJobError, toShownError, type ShownError } from '../../../lib/errors';
import { DataTable } from '../../../lib/DataTable';
import { Badge, Button, EmptyState, ProblemBanner, Time } from '../../../lib/ui';
import { useQuery } from '../../../lib/useQuery';
import { ReadOnlyCode } from '../code';
import { shortCommit, useBranches, useDialogBranch } from '../data';
import { BranchSelect } from '../warehouse/BranchSelect';
import { isActiveStatus, ProgressBar, Segmented, StatusBadge, stripViewPrefix } from '../parts';
import { useTick } from '../tracker';
import { previewInputOf, type SettingsForm } from './form';
import { PREVIEW_OUTCOME_INFO } from './outcomes';
import { previewGroup, trackPreview } from './runs';

type OutcomeFilter = 'all' | 'publishable' | 'attention';

export function PreviewSection({
  deploymentId,
  dataSource,
  form,
  dirty,
  previewId,
  onPreviewStarted,
  deployBranch,
}: {
  deploymentId: number;
  dataSource: string;
  deployBranch: string;
  form: SettingsForm;
  dirty: boolean;
  previewId: string | null;
  onPreviewStarted: (previewId: string) => void;
}) {
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<ShownError | null>(null);
  const tick = useTick(previewId ? previewGroup(previewId) : 'none');
  // In dev mode the preview reads the user's own dev branch (and shows their per-user targets).
  const branches = useBranches(deploymentId);
  const publishable = useMemo(() => branches.data?.filter((b) => b.isDeployBranch || b.kind === 'personal') ?? null, [branches.data]);
  const [branch, setBranch] = useDialogBranch(deployBranch, publishable);

  const status = useQuery(
    async (signal) => (previewId ? api.call(getLakehouseMetricViewPreview, { params: { deploymentId, previewId }, signal }) : null),
    [deploymentId, previewId, tick],
    'Loading the preview',
  );
  const current = status.data && status.data.previewId === previewId ? status.data : null;
  const result = useQuery<PreviewResult | null>(
    async (signal) => (previewId && current?.status === 'COMPLETED' ? api.call(getLakehouseMetricViewPreviewResult, { params: { deploymentId, previewId }, signal }) : null),
    [deploymentId, previewId, current?.status],
    'Loading the preview result',
  );

  useEffect(() => {
    if (previewId && current && isActiveStatus(current.status)) trackPreview(deploymentId, previewId);
  }, [deploymentId, previewId, current]);

  const start = async () => {
    setStarting(true);
    setStartError(null);
    try {
      const started = await api.call(startLakehouseMetricViewPreview, { params: { deploymentId }, body: { ...previewInputOf(dataSource, form), ...(branch !== deployBranch ? { branchName: branch } : {}) } });
      trackPreview(deploymentId, started.previewId);
      onPreviewStarted(started.previewId);
    } catch (e) {
      setStartError(toShownError(e, 'Starting the preview'));
    } finally {
      setStarting(false);
    }
  };
  const cancel = async () => {
    if (!previewId) return;
    try {
      await api.call(cancelLakehouseMetricViewPreview, { params: { deploymentId, previewId } });
    } catch (e) {
      setStartError(toShownError(e, 'Cancelling the preview'));
    }
  };
  const running = !!current && isActiveStatus(current.status);

  return (
    <div className="sy-section">
      <div className="panel sy-preview-bar">
        <div>
          <div className="strong">What would a run publish?</div>
          <div className="muted">
            Compiles the latest deployed build (or your dev branch’s head, published to your own target) with the scope and target in the form{dirty ? ' (including your unsaved changes; overrides apply once saved)' : ''} and compares with the lakehouse. Nothing is
            written.
          </div>
        </div>
        <div className="actions">
          <label htmlFor="preview-branch" className="muted">
            Branch
          </label>
          <BranchSelect id="preview-branch" value={branch} onChange={setBranch} branches={publishable} deployBranch={deployBranch} />
          {running && (
            <Button className="danger-text" onClick={() => void cancel()} disabled={current?.status === 'CANCELLING'}>
              Cancel
            </Button>
          )}
          <Button variant="primary" onClick={() => void start()} busy={starting || running}>
            {previewId ? 'Preview again' : 'Run preview'}
          </Button>
        </div>
      </div>
      <ProblemBanner error={startError} onDismiss={() => setStartError(null)} />
      <ProblemBanner error={status.error} />
      {current && running && (
        <div className="panel sy-preview-progress">
          <div className="panel-head">
            <StatusBadge status={current.status} />
            <span className="muted">{current.progress.stage}</span>
          </div>
          <ProgressBar percent={current.progress.percentComplete} status={current.status} label="Preview progress" />
        </div>
      )}
      {current && !running && current.status !== 'COMPLETED' && (
        <ProblemBanner
          error={shownJobError(current.error ?? { code: '', message: 'It has no result.' }, `The preview ended ${current.status.toLowerCase()}`)}
        />
      )}
      <ProblemBanner error={result.error} />
      {result.data ? <PreviewTable deploymentId={deploymentId} result={result.data} expiresAt={current?.expiresAt ?? null} /> : !previewId && <EmptyState title="No preview yet">Run a preview to see each view’s metric view YAML, or why it cannot be published.</EmptyState>}
    </div>
  );
}

function PreviewTable({ result, expiresAt, deploymentId }: { result: PreviewResult; expiresAt: string | null; deploymentId: number }) {
  const [open, setOpen] = useState<string | null>(() => result.views.find((v) => v.outcome === 'blocked' || v.outcome === 'partial')?.viewName ?? result.views[0]?.viewName ?? null);
  const toggle = (viewName: string) => setOpen((current) => (current === viewName ? null : viewName));
  const [filter, setFilter] = useState<OutcomeFilter>('all');
  const needsAttention = (v: PreviewView) => v.outcome === 'blocked' || v.outcome === 'partial' || v.warnings.length > 0;
  const shown = result.views.filter((v) => (filter === 'all' ? true : filter === 'publishable' ? v.outcome !== 'blocked' : needsAttention(v)));
  return (
    <section className="panel" aria-label="Preview result">
      {result.devTarget && (
        <p className="notice sy-push-target sy-push-target-dev" role="note" aria-label="Dev target">
          <Badge tone="info">dev · {result.devTarget.userTag}</Badge> Dev branch <code>{result.branchName}</code>: a run writes to the per-user{' '}
          {result.devTarget.mode === 'schema-suffix' ? (
            <>
              schema <code>{`${result.targetCatalog}.${result.devTarget.schema}`}</code> (created if missing)
            </>
          ) : (
            <>
              name prefix <code>{result.devTarget.prefix}</code>
            </>
          )}
          , never over the production metric views in <code>{`${result.targetCatalog}.${result.devTarget.requestedSchema}`}</code>.
        </p>
      )}
      <div className="panel-head">
        <div className="sy-counts">
          {PREVIEW_VIEW_OUTCOMES.filter((o) => (result.outcomeCounts[o] ?? 0) > 0).map((outcome) => (
            <Badge key={outcome} tone={PREVIEW_OUTCOME_INFO[outcome].tone}>
              {result.outcomeCounts[outcome]} {PREVIEW_OUTCOME_INFO[outcome].label}
            </Badge>
          ))}
          <span className="muted">
            build <code>{shortCommit(result.commit)}</code> · into <code>{result.targetCatalog && result.targetSchema ? `${result.targetCatalog}.${result.targetSchema}` : '—'}</code> · <Time value={result.completedAt} />
            {expiresAt && (
              <>
                {' '}
                · kept until <Time value={expiresAt} />
              </>
            )}
          </span>
        </div>
        <Segmented
          label="Show"
          value={filter}
          onChange={setFilter}
          options={[
            { id: 'all', title: `All ${result.views.length}` },
            { id: 'publishable', title: 'Publishable' },
            { id: 'attention', title: 'Needs attention' },
          ]}
        />
      </div>
      {result.views.length === 0 ? (
        <EmptyState title="The scope has no views">No view of the deployed model is in the scope.</EmptyState>
      ) : (
        <div className="sy-scroll">
          <DataTable
            label="Previewed views"
            className="sy-preview-table"
            rows={shown}
            rowKey={(v) => v.viewName}
            selection={{ isSelected: (v) => open === v.viewName, onSelect: (v) => toggle(v.viewName) }}
            rowProps={(v) => ({ 'aria-expanded': open === v.viewName })}
            rowDetail={{ className: 'sy-detail-row', render: (v) => open === v.viewName && <PreviewViewDetail view={v} deploymentId={deploymentId} /> }}
            columns={[
              { header: null, label: 'Expand', cellClassName: 'sy-expander', cell: (v) => <span aria-hidden="true">{open === v.viewName ? '▾' : '▸'}</span> },
              {
                header: 'View',
                cell: (v) => (
                  <button type="button" className="link strong" aria-expanded={open === v.viewName} onClick={(e) => (e.stopPropagation(), toggle(v.viewName))}>
                    {v.viewName}
                  </button>
                ),
              },
              { header: 'Target', cell: (v) => (v.target ? <code>{v.target}</code> : <span className="muted">—</span>) },
              {
                header: 'Outcome',
                cell: (v) => {
                  const info = PREVIEW_OUTCOME_INFO[v.outcome];
                  return <Badge tone={info?.tone ?? 'neutral'}>{info?.label ?? v.outcome}</Badge>;
                },
              },
              { header: 'Action', priority: 2, cell: (v) => v.action ?? <span className="muted">—</span> },
              {
                header: 'Blocked by',
                cellClassName: 'sy-codes-cell',
                cell: (v) =>
                  v.blockedReasons.length ? (
                    uniqueCodes(v.blockedReasons).map((c) => (
                      <code key={c} className="sy-code-chip sy-code-bad">
                        {c}
                      </code>
                    ))
                  ) : (
                    <span className="muted">—</span>
                  ),
              },
              { header: 'Warnings', className: 'num', cell: (v) => v.warnings.length || <span className="muted">0</span> },
              { header: 'Withheld members', priority: 1, cell: (v) => (v.withheldMembers.length ? <Badge tone="warn">{v.withheldMembers.length} withheld</Badge> : <span className="muted">—</span>) },
            ]}
          />
        </div>
      )}
    </section>
  );
}

const uniqueCodes = (issues: PublicationIssue[]): string[] => [...new Set(issues.map((i) => i.code))];

/**
 * Reasons or warnings of a view. Each reason has its plain explanation behind "Why, and what to do",
 * and, with `deploymentId`, a link that opens the model file it names in Models.
 */
export function IssueList({ title, issues, tone, deploymentId }: { title: string; issues: PublicationIssue[]; tone: 'bad' | 'warn'; deploymentId?: number }) {
  if (issues.length === 0) return null;
  return (
    <div className="sy-issues">
      {title && <h3 className="sy-subtitle">{title}</h3>}
      <ul>
        {issues.map((issue, i) => (
          <li key={i}>
            <code className={`sy-code-chip sy-code-${tone}`}>{issue.code}</code>
            <span>{stripViewPrefix(issue.message)}</span>
            {issue.member && <span className="muted"> · {issue.member}</span>}
            <IssueHelp issue={issue} deploymentId={deploymentId} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function IssueHelp({ issue, deploymentId }: { issue: PublicationIssue; deploymentId?: number }) {
  const file = fileOfReason(issue.message);
  const find = issue.code === 'MODEL_PUBLISH_ACCESS_POLICY' ? 'access_policy' : undefined;
  const action =
    deploymentId !== undefined && file ? (
      <button type="button" className="link" onClick={() => openInModels(deploymentId, file, find)}>
        Open {find ? 'the policy' : file.slice(file.lastIndexOf('/') + 1)} in Models
      </button>
    ) : undefined;
  return <ReasonHelp code={issue.code} action={action} />;
}

function PreviewViewDetail({ view, deploymentId }: { view: PreviewView; deploymentId: number }) {
  return (
    <div className="sy-view-detail">
      <div className="sy-view-detail-text">
        <IssueList title="Blocked because" issues={view.blockedReasons} tone="bad" deploymentId={deploymentId} />
        {view.withheldMembers.length > 0 && (
          <div className="sy-issues">
            <h3 className="sy-subtitle">Withheld members</h3>
            <p className="muted sy-card-text">Not fan-out safe across the view’s joins, so they are left out of the metric view; the rest publishes.</p>
            <div className="sy-chips">
              {view.withheldMembers.map((m) => (
                <code key={m} className="sy-chip">
                  {m}
                </code>
              ))}
            </div>
          </div>
        )}
        <IssueList title="Warnings" issues={view.warnings} tone="warn" />
        {view.blockedReasons.length === 0 && view.warnings.length === 0 && view.withheldMembers.length === 0 && <p className="muted">No issues: the view publishes as shown.</p>}
      </div>
      <div className="sy-view-detail-code">
        <h3 className="sy-subtitle">Metric view YAML</h3>
        {view.yaml ? <ReadOnlyCode value={view.yaml} language="yaml" label={`Metric view YAML of ${view.viewName}`} maxHeight={420} /> : <div className="sy-no-yaml muted">No YAML: the view is blocked.</div>}
      </div>
    </div>
  );
}
