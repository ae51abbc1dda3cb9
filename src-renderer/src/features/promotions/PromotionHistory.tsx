import { useEffect, useState } from 'react';
import type { Deployment } from '../../../../src-shared/api/deployments';
import { listWorkbookPromotions, type DashboardDiff, type WorkbookPromotion } from '../../../../src-shared/api/promotions';
import { api } from '../../app/session';
import { toShownError, type ShownError } from '../../lib/errors';
import { Badge, Button, ProblemBanner, Spinner, Time } from '../../lib/ui';
import { useQuery } from '../../lib/useQuery';
import { deploymentLabel } from '../workbooks/data';
import { HashChip } from '../workbooks/HashChip';
import { AppLink, workbookPath } from '../workbooks/links';
import { changeCounts } from './diff';
import { liveWorkbookWrite } from '../../lib/live';
import { plural } from '../../lib/plural';

const PAGE = 20;

/** Promotions from and to one workbook, newest first, a page at a time. */
export function PromotionHistory({
  deploymentId,
  workbookId,
  deployments,
  version = 0,
  label = 'Promotion history',
  highlightId = null,
}: {
  deploymentId: number;
  workbookId: number;
  deployments: Deployment[] | null;
  version?: number;
  label?: string;
  highlightId?: number | null;
}) {
  const first = useQuery(
    (signal) => api.call(listWorkbookPromotions, { params: { deploymentId, workbookId }, query: { first: PAGE }, signal }),
    [deploymentId, workbookId, version],
    'Loading the promotion history',
    liveWorkbookWrite(deploymentId, workbookId),
  );
  const [items, setItems] = useState<WorkbookPromotion[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);

  useEffect(() => {
    if (!first.data) return;
    setItems(first.data.items);
    setCursor(first.data.pageInfo.hasNextPage ? first.data.pageInfo.endCursor : null);
  }, [first.data]);

  const loadMore = async () => {
    if (!cursor) return;
    setMore(true);
    try {
      const page = await api.call(listWorkbookPromotions, { params: { deploymentId, workbookId }, query: { first: PAGE, after: cursor } });
      setItems((list) => [...(list ?? []), ...page.items]);
      setCursor(page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null);
    } catch (failure) {
      setError(toShownError(failure, 'Loading more promotions'));
    } finally {
      setMore(false);
    }
  };

  return (
    <div className="promo-history">
      <ProblemBanner error={first.error ?? error} />
      {!items ? (
        first.loading && <Spinner label="Loading history…" />
      ) : items.length === 0 ? (
        <p className="muted">No promotions yet.</p>
      ) : (
        <ol className="promo-history-list" aria-label={label}>
          {items.map((p) => (
            <HistoryItem key={p.id} promotion={p} workbookId={workbookId} deployments={deployments} highlight={p.id === highlightId} />
          ))}
        </ol>
      )}
      {cursor && (
        <div className="more">
          <Button className="btn-small" onClick={() => void loadMore()} busy={more}>
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}

function HistoryItem({ promotion: p, workbookId, deployments, highlight }: { promotion: WorkbookPromotion; workbookId: number; deployments: Deployment[] | null; highlight: boolean }) {
  const outgoing = p.source.workbookId === workbookId;
  const side = (s: WorkbookPromotion['source']) =>
    s.workbookId !== null ? (
      <AppLink to={workbookPath(s.deploymentId, s.workbookId)}>{s.name}</AppLink>
    ) : (
      <span>
        {s.name} <Badge tone="bad">deleted</Badge>
      </span>
    );
  return (
    <li className={highlight ? 'is-new' : undefined} aria-label={`Promotion ${p.id}`}>
      <div className="prov-line">
        <span className="strong">#{p.id}</span>
        <Badge tone={p.operation === 'CREATE' ? 'good' : 'info'}>{p.operation}</Badge>
        <Badge>{outgoing ? 'outgoing' : 'incoming'}</Badge>
        <span className="prov-meta">
          <Time value={p.createdAt} />
          {p.promotedBy ? ` · ${p.promotedBy.name}` : ''}
        </span>
      </div>
      <div className="prov-line">
        {side(p.source)} <span className="muted">({deploymentLabel(deployments, p.source.deploymentId)})</span>
        <span aria-hidden="true">→</span>
        {side(p.target)} <span className="muted">({deploymentLabel(deployments, p.target.deploymentId)})</span>
      </div>
      <div className="prov-line prov-meta">
        <ChangeSummary promotion={p} />
        <span>·</span>
        <HashChip hash={p.targetHashAfter} label="written hash" length={8} />
      </div>
    </li>
  );
}

function Counts({ diff }: { diff: DashboardDiff }) {
  const c = changeCounts(diff);
  return (
    <span className="promo-tab-counts">
      {c.added > 0 && <span className="c-added">+{c.added}</span>}
      {c.removed > 0 && <span className="c-removed">−{c.removed}</span>}
      {c.moved > 0 && <span className="c-moved">↔{c.moved}</span>}
      {c.changed > 0 && <span className="c-changed">~{c.changed}</span>}
    </span>
  );
}

/** One line of what a promotion changed: widget counts per dashboard, then theme, layout, fields. */
function ChangeSummary({ promotion: p }: { promotion: WorkbookPromotion }) {
  const { dashboardPublished: published, dashboardDraft: draft } = p.changes;
  if (p.changes.identical) return <span>no content change</span>;
  if (p.operation === 'CREATE') {
    const widgets = Math.max(published.widgetsAdded.length, draft.widgetsAdded.length);
    return <span>new workbook · {plural(widgets, 'widget')}</span>;
  }
  const extras = [
    (published.themeChanged || draft.themeChanged) && 'theme',
    (published.layoutChanged || draft.layoutChanged) && 'layout',
    ...p.changes.fieldsChanged,
  ].filter(Boolean);
  return (
    <>
      {published.changed && (
        <span>
          published <Counts diff={published} />
        </span>
      )}
      {draft.changed && (
        <span>
          draft <Counts diff={draft} />
        </span>
      )}
      {extras.length > 0 && <span>{extras.join(' · ')}</span>}
    </>
  );
}
