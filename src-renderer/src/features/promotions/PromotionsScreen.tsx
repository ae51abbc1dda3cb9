import { useCallback, useEffect, useState } from 'react';
import type { Deployment } from '../../../../src-shared/api/deployments';
import type { PromotionPreview, WorkbookPromotion } from '../../../../src-shared/api/promotions';
import { getWorkbook } from '../../../../src-shared/api/workbooks';
import { navigate } from '../../app/router';
import { api } from '../../app/session';
import type { ScreenProps } from '../../app/screen-props';
import { Badge, Button, EmptyState, Field, NameOptions, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { deploymentLabel, useDebounced, useDeploymentList, useWorkbookList } from '../workbooks/data';
import { HashChip } from '../workbooks/HashChip';
import { AppLink, idOf, promotionPath, workbookPath } from '../workbooks/links';
import { ProvenancePanel } from '../workbooks/Provenance';
import { PromotionSummary } from '../workbooks/PromotionSummary';
import { usePromotionFlow, type PromotionFlow, type StalePreview } from './flow';
import { PromotionHistory } from './PromotionHistory';
import { PromotionPreviewView } from './PromotionPreview';
import { RemoteOrigins } from './RemoteOrigins';
import { WorkbookOptions } from './RemoteWorkbookPromotion';
import { useProfile } from '../../app/profile';
import './promotions.css';
import { plural } from '../../lib/plural';

/** `/promotions[/:sourceDeploymentId[/:workbookId]]`: pick a workbook, a target, preview, apply. */
export default function PromotionsScreen({ subpath }: ScreenProps) {
  const deploymentId = idOf(subpath[0]);
  const workbookId = idOf(subpath[1]);
  const deployments = useDeploymentList();
  // Bumped after each promotion: lists, histories and provenance reload.
  const [version, setVersion] = useState(0);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);

  useEffect(() => {
    if (deploymentId === null && deployments.data && deployments.data.length > 0) navigate(promotionPath(deployments.data[0].id), { replace: true });
  }, [deploymentId, deployments.data]);

  return (
    <section className="page">
      <header className="page-head">
        <div>
          <h1>Promotions</h1>
          <p className="muted promo-lede">Copy a workbook’s dashboards to another deployment after seeing exactly what would change there.</p>
        </div>
      </header>
      <ProblemBanner error={deployments.error} />
      {deployments.data && deployments.data.length === 0 ? (
        <EmptyState title="No deployments yet">
          Promotions copy workbooks between deployments. <AppLink to="/deployments">Create two deployments first.</AppLink>
        </EmptyState>
      ) : (
        <div className="promo-layout">
          <SourcePicker deploymentId={deploymentId} workbookId={workbookId} deployments={deployments.data} version={version} />
          <div className="promo-main">
            {deploymentId !== null && workbookId !== null ? (
              <Workbench
                key={`${deploymentId}-${workbookId}`}
                sourceDeploymentId={deploymentId}
                sourceWorkbookId={workbookId}
                deployments={deployments.data}
                version={version}
                onApplied={refresh}
                onChanged={refresh}
              />
            ) : (
              <EmptyState title="Choose a workbook to promote">
                Pick the source deployment and one of its workbooks under <strong>1 Source workbook</strong>. You will then choose where it goes and see a preview before
                anything changes.
              </EmptyState>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

// ---- 1. source ------------------------------------------------------------------------------------

function SourcePicker({ deploymentId, workbookId, deployments, version }: { deploymentId: number | null; workbookId: number | null; deployments: Deployment[] | null; version: number }) {
  const [search, setSearch] = useState('');
  const settled = useDebounced(search);
  const workbooks = useWorkbookList(deploymentId, settled, version);
  return (
    <aside className="panel promo-source" aria-label="Source">
      <h2>
        <span className="promo-step">1</span> Source workbook
      </h2>
      <Field label="Source deployment" htmlFor="promo-source-deployment">
        <select id="promo-source-deployment" value={deploymentId ?? ''} onChange={(e) => navigate(promotionPath(Number(e.target.value)))} disabled={!deployments}>
          {deploymentId === null && <option value="">{deployments ? 'Choose a deployment' : 'Loading…'}</option>}
          <NameOptions items={deployments} />
        </select>
      </Field>
      <Field label="Search workbooks" htmlFor="promo-search">
        <input id="promo-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Name or slug" autoComplete="off" disabled={deploymentId === null} />
      </Field>
      <ProblemBanner error={workbooks.error} />
      {deploymentId === null ? null : !workbooks.data ? (
        workbooks.loading && <Spinner label="Loading workbooks…" />
      ) : workbooks.data.length === 0 ? (
        <p className="muted promo-none">{settled.trim() ? `No workbook matches “${settled.trim()}”.` : 'This deployment has no workbooks.'}</p>
      ) : (
        <ul className="promo-wb-list" aria-label="Workbooks">
          {workbooks.data.map((wb) => (
            <li key={wb.id}>
              <AppLink to={promotionPath(deploymentId, wb.id)} className={`promo-wb ${wb.id === workbookId ? 'active' : ''}`}>
                <span className="promo-wb-name">{wb.name}</span>
                <span className="promo-wb-meta">
                  <code>{wb.slug}</code>
                  {wb.folderPath !== '/' && <span>{wb.folderPath}</span>}
                  {!wb.publishedAt && <Badge>draft only</Badge>}
                  {wb.promotion && <PromotionSummary workbook={wb} deployments={deployments} />}
                </span>
              </AppLink>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}

// ---- 2. target, preview, apply ------------------------------------------------------------------

function Workbench({
  sourceDeploymentId,
  sourceWorkbookId,
  deployments,
  version,
  onApplied,
  onChanged,
}: {
  sourceDeploymentId: number;
  sourceWorkbookId: number;
  deployments: Deployment[] | null;
  version: number;
  onApplied: (promotion: WorkbookPromotion) => void;
  onChanged: () => void;
}) {
  const source = useQuery(
    (signal) => api.call(getWorkbook, { params: { deploymentId: sourceDeploymentId, workbookId: sourceWorkbookId }, signal }),
    [sourceDeploymentId, sourceWorkbookId, version],
    'Loading the source workbook',
  );
  const [targetDeploymentId, setTargetDeploymentId] = useState<number | null>(null);
  const [targetWorkbookId, setTargetWorkbookId] = useState<number | null>(null);
  const targets = useWorkbookList(targetDeploymentId, '', version);

  // Default target: the first other deployment (a promotion goes somewhere else).
  useEffect(() => {
    if (targetDeploymentId === null && deployments) setTargetDeploymentId(deployments.find((d) => d.id !== sourceDeploymentId)?.id ?? null);
  }, [deployments, sourceDeploymentId, targetDeploymentId]);

  const flow = usePromotionFlow(
    { sourceDeploymentId, sourceWorkbookId, targetDeploymentId, targetWorkbookId },
    useCallback((promotion: WorkbookPromotion) => onApplied(promotion), [onApplied]),
    // A stale preview means a workbook changed: its provenance (drift flags) is stale too.
    useCallback(() => onChanged(), [onChanged]),
  );
  const targetCandidates = (targets.data ?? []).filter((wb) => !(targetDeploymentId === sourceDeploymentId && wb.id === sourceWorkbookId));
  const knownTargetId = flow.result?.target.workbookId ?? flow.preview?.target.workbookId ?? targetWorkbookId;
  const knownTargetDeployment = flow.result?.target.deploymentId ?? flow.preview?.target.deploymentId ?? targetDeploymentId;
  const sameDeployment = targetDeploymentId === sourceDeploymentId;
  // Promotion to another profile starts from this computer's workbooks.
  const isLocal = useProfile((s) => s.active) === 'local';

  return (
    <>
      <ProblemBanner error={source.error} />
      <section className="panel promo-route-panel" aria-label="Promotion">
        <div className="promo-ends">
          <div className="promo-end">
            <div className="promo-end-label">From</div>
            {source.data ? (
              <>
                <div className="promo-end-name">
                  <AppLink to={workbookPath(sourceDeploymentId, sourceWorkbookId)} className="strong" title="Open the workbook">
                    {source.data.name}
                  </AppLink>
                </div>
                <div className="promo-end-meta">
                  {deploymentLabel(deployments, sourceDeploymentId)} · <code>{source.data.slug}</code>
                </div>
                <div className="promo-end-meta">
                  {source.data.dashboardPublished ? <>published <Time value={source.data.publishedAt} /></> : 'not published'} · {plural((source.data.dashboardDraft?.widgets ?? []).length, 'draft widget')}
                </div>
              </>
            ) : (
              <Spinner label="Loading…" />
            )}
          </div>
          <div className="promo-ends-arrow" aria-hidden="true">
            →
          </div>
          <div className="promo-end promo-target-form">
            <div className="promo-end-label">
              <span className="promo-step">2</span> To
            </div>
            <div className="form-row">
              <Field label="Target deployment" htmlFor="promo-target-deployment">
                <select
                  id="promo-target-deployment"
                  value={targetDeploymentId ?? ''}
                  onChange={(e) => {
                    setTargetDeploymentId(Number(e.target.value));
                    setTargetWorkbookId(null);
                  }}
                  disabled={!deployments}
                >
                  {targetDeploymentId === null && <option value="">Choose…</option>}
                  {(deployments ?? []).map((d) => (
                    <option key={d.id} value={d.id}>
                      {d.name}
                      {d.id === sourceDeploymentId ? ' (same as source)' : ''}
                    </option>
                  ))}
                </select>
              </Field>
              <Field
                label="Target workbook"
                htmlFor="promo-target-workbook"
                hint={targetWorkbookId === null ? (sameDeployment ? 'Within one deployment, name the workbook to overwrite.' : 'The workbook last promoted to, else the same slug, else a new one.') : undefined}
              >
                <select id="promo-target-workbook" value={targetWorkbookId ?? ''} onChange={(e) => setTargetWorkbookId(e.target.value ? Number(e.target.value) : null)} disabled={targetDeploymentId === null}>
                  <option value="">Automatic</option>
                  <WorkbookOptions workbooks={targetCandidates} />
                </select>
              </Field>
            </div>
          </div>
          <div className="promo-ends-action">
            <Button variant={flow.preview ? 'default' : 'primary'} onClick={() => void flow.runPreview()} busy={flow.previewing} disabled={targetDeploymentId === null}>
              {flow.preview ? 'Preview again' : 'Preview'}
            </Button>
          </div>
        </div>
      </section>

      <ProblemBanner error={flow.error} onDismiss={flow.dismissError} />
      {flow.stale && flow.preview && <StaleExplanation stale={flow.stale} preview={flow.preview} busy={flow.previewing} onPreviewAgain={() => void flow.runPreview()} />}
      {flow.result && <PromotionResult promotion={flow.result} deployments={deployments} />}
      {flow.preview && <PromotionPreviewView preview={flow.preview} deployments={deployments} stale={flow.stale !== null} actions={<ApplyButton flow={flow} />} />}
      {!flow.preview && !flow.previewing && !flow.error && (
        <div className="promo-hint">
          Choose the target and press <strong>Preview</strong>: nothing changes until you apply, and the apply is refused if either workbook changes in between.
          {isLocal && (
            <>
              {' '}
              To send it to another service instead: <AppLink to={`/promotions/profiles/workbook/${sourceDeploymentId}/${sourceWorkbookId}`}>promote to another profile</AppLink>.
            </>
          )}
        </div>
      )}

      <div className="promo-sides">
        <div className="promo-side">
          <RemoteOrigins deploymentId={sourceDeploymentId} workbookId={sourceWorkbookId} version={version} />
          <ProvenancePanel
            deploymentId={sourceDeploymentId}
            workbookId={sourceWorkbookId}
            deployments={deployments}
            version={version}
            heading={`Source · ${source.data?.name ?? `#${sourceWorkbookId}`}`}
            label="Source provenance"
          />
          <section className="panel" aria-label="Source promotion history">
            <h2>History</h2>
            <PromotionHistory deploymentId={sourceDeploymentId} workbookId={sourceWorkbookId} deployments={deployments} version={version} highlightId={flow.result?.id ?? null} label="Source promotions" />
          </section>
        </div>
        <div className="promo-side">
          {knownTargetId !== null && knownTargetDeployment !== null ? (
            <>
              <ProvenancePanel
                deploymentId={knownTargetDeployment}
                workbookId={knownTargetId}
                deployments={deployments}
                version={version}
                heading={`Target · ${flow.result?.target.name ?? flow.preview?.target.name ?? `#${knownTargetId}`}`}
                label="Target provenance"
              />
              <section className="panel" aria-label="Target promotion history">
                <h2>History</h2>
                <PromotionHistory deploymentId={knownTargetDeployment} workbookId={knownTargetId} deployments={deployments} version={version} highlightId={flow.result?.id ?? null} label="Target promotions" />
              </section>
            </>
          ) : (
            <section className="panel">
              <h2>Target</h2>
              <p className="muted">
                {flow.preview?.operation === 'CREATE'
                  ? 'The target workbook does not exist yet; its provenance appears once the promotion is applied.'
                  : 'Preview to see which workbook in the target deployment this promotion would write to.'}
              </p>
            </section>
          )}
        </div>
      </div>
    </>
  );
}

function ApplyButton({ flow }: { flow: PromotionFlow }) {
  if (!flow.preview) return null;
  if (flow.result) return <Badge tone="good">applied as #{flow.result.id}</Badge>;
  const identical = flow.preview.changes.identical;
  return (
    <Button
      variant="primary"
      onClick={() => void flow.apply()}
      busy={flow.applying}
      disabled={flow.stale !== null}
      title={flow.stale ? 'This preview is out of date: preview again first.' : identical ? 'Records a promotion; the content is already the same.' : undefined}
    >
      {flow.preview.operation === 'CREATE' ? 'Apply: create workbook' : 'Apply: update workbook'}
    </Button>
  );
}

const short = (hash: string | null) => (hash ? `${hash.slice(0, 12)}…` : 'none');

/** A 409 on apply, explained: which side changed, from which hash to which, and the way on. */
function StaleExplanation({ stale, preview, busy, onPreviewAgain }: { stale: StalePreview; preview: PromotionPreview; busy: boolean; onPreviewAgain: () => void }) {
  const hashes = (
    <>
      (hash <code title={stale.previewHash ?? undefined}>{short(stale.previewHash)}</code> → <code title={stale.currentHash ?? undefined}>{short(stale.currentHash)}</code>)
    </>
  );
  const sentence =
    stale.side === 'source' ? (
      <>The source workbook changed after this preview {hashes}.</>
    ) : stale.currentHash === null ? (
      <>The target workbook this preview would update no longer exists {hashes}.</>
    ) : stale.previewHash === null ? (
      <>
        A workbook “{preview.target.slug}” appeared in the target deployment after this preview, which would have created it {hashes}.
      </>
    ) : (
      <>The target workbook changed after this preview {hashes}.</>
    );
  return (
    <section className="promo-stale" role="alert" aria-label="Stale preview">
      <div className="promo-stale-icon" aria-hidden="true">
        !
      </div>
      <div className="promo-stale-body">
        <strong>Nothing was promoted: this preview is out of date</strong>
        <p>{sentence} Preview again to see the current changes.</p>
        <div className="prov-line prov-meta">
          <span>Previewed</span> <HashChip hash={stale.previewHash} label="previewed hash" /> <span>now</span> <HashChip hash={stale.currentHash} label="current hash" />
        </div>
      </div>
      <Button variant="primary" onClick={onPreviewAgain} busy={busy}>
        Preview again
      </Button>
    </section>
  );
}

function PromotionResult({ promotion: p, deployments }: { promotion: WorkbookPromotion; deployments: Deployment[] | null }) {
  return (
    <section className="panel promo-result" role="status" aria-label="Promotion applied">
      <div className="promo-result-head">
        <span className="promo-result-icon" aria-hidden="true">
          ✓
        </span>
        <div>
          <h2>
            Promoted as #{p.id} <Badge tone={p.operation === 'CREATE' ? 'good' : 'info'}>{p.operation}</Badge>
          </h2>
          <div className="muted">
            {p.source.name} ({deploymentLabel(deployments, p.source.deploymentId)}) →{' '}
            {p.target.workbookId !== null ? <AppLink to={workbookPath(p.target.deploymentId, p.target.workbookId)}>{p.target.name}</AppLink> : p.target.name} (
            {deploymentLabel(deployments, p.target.deploymentId)})
          </div>
        </div>
        {p.target.workbookId !== null && (
          <AppLink to={workbookPath(p.target.deploymentId, p.target.workbookId)} className="btn btn-default">
            Open target workbook
          </AppLink>
        )}
      </div>
      <dl className="promo-hashes">
        <div>
          <dt>Source hash</dt>
          <dd>
            <HashChip hash={p.sourceHash} label="source hash" />
          </dd>
        </div>
        <div>
          <dt>Target before</dt>
          <dd>{p.targetHashBefore ? <HashChip hash={p.targetHashBefore} label="target hash before" /> : <span className="muted">none (created)</span>}</dd>
        </div>
        <div>
          <dt>Target after</dt>
          <dd>
            <HashChip hash={p.targetHashAfter} label="target hash after" />
          </dd>
        </div>
        <div>
          <dt>By</dt>
          <dd>
            {p.promotedBy?.name ?? <span className="muted">API key</span>} · <Time value={p.createdAt} />
          </dd>
        </div>
      </dl>
      {/* For whoever checks the record through the API; analysts need not read it (issue 24). */}
      <details className="promo-technical">
        <summary>Technical details</summary>
        <dl className="promo-hashes">
          <div>
            <dt>Idempotency key</dt>
            <dd>
              <code className="promo-key">{p.idempotencyKey ?? '—'}</code>
            </dd>
          </div>
        </dl>
      </details>
    </section>
  );
}
