import { useMemo, useState, type ReactNode } from 'react';
import type { Deployment } from '../../../../src-shared/api/deployments';
import type { PromotionPreview } from '../../../../src-shared/api/promotions';
import type { DashboardConfig } from '../../../../src-shared/api/workbooks';
import { DataTable, type Column } from '../../lib/DataTable';
import { TabBar } from '../../lib/tabs';
import { Badge } from '../../lib/ui';
import { DashboardGrid, type GridGhost } from '../workbooks/DashboardGrid';
import { formatPosition, parentOf, widgetTitle, widgetTypeLabel } from '../workbooks/dashboard';
import { deploymentLabel } from '../workbooks/data';
import { HashChip } from '../workbooks/HashChip';
import { AppLink, workbookPath } from '../workbooks/links';
import {
  changeCounts,
  formatValue,
  looksLikeColor,
  promotionDetail,
  widgetMarks,
  type DashboardChangeDetail,
  type DashboardSide,
  type ValueChange,
  type WidgetChange,
  type WidgetChangeKind,
} from './diff';
import './promotions.css';
import { plural } from '../../lib/plural';

const SIDES: { id: DashboardSide; title: string }[] = [
  { id: 'dashboardPublished', title: 'Published dashboard' },
  { id: 'dashboardDraft', title: 'Draft dashboard' },
];

const KIND_TONES: Record<WidgetChangeKind, 'good' | 'bad' | 'info' | 'warn'> = { added: 'good', removed: 'bad', moved: 'info', changed: 'warn' };

/** What a promotion would do: the operation, both hashes, and a visual diff of each dashboard. */
export function PromotionPreviewView({
  preview,
  deployments,
  stale,
  actions,
  where,
}: {
  preview: PromotionPreview;
  deployments: Deployment[] | null;
  stale: boolean;
  actions?: ReactNode;
  /** Labels of both deployments when they live on different services (ids may collide); no link to the target then. */
  where?: { source: string; target: string };
}) {
  const detail = useMemo(() => promotionDetail(preview), [preview]);
  const label = (id: number, end: 'source' | 'target') => where?.[end] ?? deploymentLabel(deployments, id);
  const firstChanged = SIDES.find((s) => preview.changes[s.id].changed)?.id ?? 'dashboardPublished';
  const [side, setSide] = useState<DashboardSide>(firstChanged);
  const dashboard = detail.dashboards[side];
  const { source, target } = preview;

  return (
    <section className={`panel promo-preview ${stale ? 'is-stale' : ''}`} aria-label="Promotion preview">
      <header className="promo-preview-head">
        <div className="promo-preview-title">
          <h2>
            Preview {stale && <Badge tone="warn">out of date</Badge>}
          </h2>
          <div className="promo-route">
            <Badge tone={preview.operation === 'CREATE' ? 'good' : 'info'}>{preview.operation}</Badge>
            <span>
              <span className="strong">{source.name}</span> <span className="muted">in {label(source.deploymentId, 'source')}</span>
            </span>
            <span className="promo-arrow" aria-hidden="true">
              →
            </span>
            <span>
              {target.workbookId !== null && !where ? (
                <AppLink to={workbookPath(target.deploymentId, target.workbookId)} className="strong">
                  {target.name}
                </AppLink>
              ) : target.workbookId !== null ? (
                <span className="strong">{target.name}</span>
              ) : (
                <span className="strong">new workbook “{target.slug}”</span>
              )}{' '}
              <span className="muted">in {label(target.deploymentId, 'target')}</span>
            </span>
          </div>
        </div>
        {actions && <div className="actions">{actions}</div>}
      </header>

      <dl className="promo-hashes">
        <div>
          <dt>Source hash</dt>
          <dd>
            <HashChip hash={preview.sourceHash} label="source hash" />
          </dd>
        </div>
        <div>
          <dt>Target hash</dt>
          <dd>{preview.targetHash ? <HashChip hash={preview.targetHash} label="target hash" /> : <span className="muted">none — the workbook will be created</span>}</dd>
        </div>
        <div>
          <dt>Operation</dt>
          <dd>{preview.operation === 'CREATE' ? `Creates “${target.slug}” in ${label(target.deploymentId, 'target')}` : `Overwrites workbook #${target.workbookId}`}</dd>
        </div>
      </dl>

      {preview.changes.identical && (
        <div className="promo-note promo-note-good" role="status">
          The target already has exactly this content. Applying would only record another promotion.
        </div>
      )}
      {detail.fields.length > 0 && (
        <div className="promo-block">
          <h3 className="block-title">Workbook</h3>
          <ChangeList changes={detail.fields} label="Workbook field changes" />
        </div>
      )}

      <TabBar
        className="promo-side-tabs"
        label="Dashboard"
        current={side}
        onSelect={(id) => setSide(id as typeof side)}
        tabs={SIDES.map((s) => ({ id: s.id, title: s.title, extra: <SideCounts changes={preview.changes[s.id]} /> }))}
      />
      <div role="tabpanel" aria-label={SIDES.find((s) => s.id === side)?.title}>
        <DashboardDiffView
          key={side}
          detail={dashboard}
          source={side === 'dashboardDraft' ? preview.sourceContent.dashboardDraft : preview.sourceContent.dashboardPublished}
          target={preview.targetContent ? (side === 'dashboardDraft' ? preview.targetContent.dashboardDraft : preview.targetContent.dashboardPublished) : null}
          creating={preview.operation === 'CREATE'}
        />
      </div>
    </section>
  );
}

/** A side's tab note: its counts of added, removed, moved and changed widgets, or “no changes”. */
function SideCounts({ changes }: { changes: PromotionPreview['changes'][DashboardSide] }) {
  if (!changes.changed) return <span className="muted"> (no changes)</span>;
  const counts = changeCounts(changes);
  return (
    <span className="promo-tab-counts">
      {counts.added > 0 && <span className="c-added">+{counts.added}</span>}
      {counts.removed > 0 && <span className="c-removed">−{counts.removed}</span>}
      {counts.moved > 0 && <span className="c-moved">↔{counts.moved}</span>}
      {counts.changed > 0 && <span className="c-changed">~{counts.changed}</span>}
      {counts.added + counts.removed + counts.moved + counts.changed === 0 && <span className="c-changed">•</span>}
    </span>
  );
}

function DashboardDiffView({ detail, source, target, creating }: { detail: DashboardChangeDetail; source: DashboardConfig | null; target: DashboardConfig | null; creating: boolean }) {
  const [focus, setFocus] = useState<string | null>(null);
  const { diff } = detail;
  const marks = widgetMarks(detail);
  const beforeMarks = new Map([...marks].filter(([, kind]) => kind !== 'added'));
  const afterMarks = new Map([...marks].filter(([, kind]) => kind !== 'removed'));
  const ghosts: GridGhost[] = detail.widgets
    .filter((w) => w.move && !w.responsiveOnly)
    .map((w) => ({ id: w.id, position: w.move!.before, label: widgetTitle(w.after ?? w.before!) ?? w.id }));
  const counts = changeCounts(diff);
  // Names of containers, for widgets that sit inside one (their position is within it).
  const names = new Map([...(target?.widgets ?? []), ...(source?.widgets ?? [])].map((w) => [w.id, widgetTitle(w) ?? w.id]));
  const dashboardLevel: { title: string; changes: ValueChange[] }[] = [
    { title: 'Dashboard fields', changes: detail.fields },
    { title: 'Theme', changes: detail.theme },
    { title: 'Layout', changes: detail.layout },
    { title: 'Settings', changes: detail.settings },
    { title: 'App source', changes: detail.app },
  ].filter((group) => group.changes.length > 0 && diff.presence === 'both');

  return (
    <div className="promo-diff">
      <div className="promo-chips" aria-label="Summary of changes">
        {diff.presence === 'added' && <Badge tone="good">{creating ? 'new dashboard' : 'dashboard added to the target'}</Badge>}
        {diff.presence === 'removed' && <Badge tone="bad">the target’s dashboard will be removed</Badge>}
        {diff.presence === 'neither' && <Badge>no dashboard on either side</Badge>}
        {!diff.changed && diff.presence === 'both' && <Badge tone="good">no changes</Badge>}
        {counts.added > 0 && <Badge tone="good">{counts.added} added</Badge>}
        {counts.removed > 0 && <Badge tone="bad">{counts.removed} removed</Badge>}
        {counts.moved > 0 && <Badge tone="info">{counts.moved} moved</Badge>}
        {counts.changed > 0 && <Badge tone="warn">{counts.changed} changed</Badge>}
        {/* On one side only, everything is new or gone: per-part badges would only repeat that. */}
        {diff.presence === 'both' && (
          <>
            {diff.fieldsChanged.length > 0 && <Badge tone="warn">{diff.fieldsChanged.join(', ')} changed</Badge>}
            {diff.themeChanged && <Badge tone="warn">theme changed</Badge>}
            {diff.layoutChanged && <Badge tone="warn">layout changed</Badge>}
            {diff.settingsChanged && <Badge tone="warn">settings changed</Badge>}
            {diff.appChanged && <Badge tone="warn">app source changed</Badge>}
            {detail.orderChanged && <Badge>widget order changed</Badge>}
          </>
        )}
      </div>

      {diff.presence !== 'neither' && (
        <div className="promo-compare">
          <figure>
            <figcaption>
              <span className="strong">Target now</span> <span className="muted">{target ? plural(target.widgets?.length ?? 0, 'widget') : 'no dashboard'}</span>
            </figcaption>
            {target ? (
              <DashboardGrid config={target} label="Target now" marks={beforeMarks} dimUnmarked={diff.changed} compact focusId={focus} onFocus={setFocus} />
            ) : (
              <div className="dash-canvas promo-absent">{creating ? 'The workbook does not exist in the target yet.' : 'The target has no dashboard here.'}</div>
            )}
          </figure>
          <div className="promo-compare-arrow" aria-hidden="true">
            →
          </div>
          <figure>
            <figcaption>
              <span className="strong">After promotion</span> <span className="muted">{source ? plural(source.widgets?.length ?? 0, 'widget') : 'no dashboard'}</span>
            </figcaption>
            {source ? (
              <DashboardGrid config={source} label="After promotion" marks={afterMarks} ghosts={ghosts} dimUnmarked={diff.changed} compact focusId={focus} onFocus={setFocus} />
            ) : (
              <div className="dash-canvas promo-absent">The target’s dashboard is removed.</div>
            )}
          </figure>
        </div>
      )}

      {detail.widgets.length > 0 && (
        <div className="promo-block">
          <h3 className="block-title">Widgets</h3>
          <DataTable
            label="Widget changes"
            className="promo-widget-table"
            rows={detail.widgets}
            rowKey={(w) => w.id}
            rowClassName={(w) => `promo-row-${w.kinds[0]}${focus === w.id ? ' selected' : ''}`}
            rowProps={(w) => ({ onMouseEnter: () => setFocus(w.id), onMouseLeave: () => setFocus(null) })}
            columns={widgetColumns(names)}
          />
        </div>
      )}

      {dashboardLevel.map((group) => (
        <div className="promo-block" key={group.title}>
          <h3 className="block-title">{group.title}</h3>
          <ChangeList changes={group.changes} label={`${group.title} changes`} />
        </div>
      ))}
    </div>
  );
}

/** Where a widget is: `in Overview › Tab ` (its parent's name, as the dashboard shows it). */
function whereOf(widget: WidgetChange['before'], names: Map<string, string>): string {
  const parent = widget ? parentOf(widget) : null;
  return parent ? `in ${names.get(parent.parentId) ?? parent.parentId}${parent.tab ? ` › ${parent.tab}` : ''} ` : '';
}

function widgetColumns(names: Map<string, string>): Column<WidgetChange>[] {
  const widgetOf = (change: WidgetChange) => change.after ?? change.before;
  const titleOf = (change: WidgetChange) => {
    const widget = widgetOf(change);
    return widget ? widgetTitle(widget) : null;
  };
  return [
    {
      header: 'Change',
      cell: (change) => (
        <span className="promo-kinds">
          {change.kinds.map((kind) => (
            <Badge key={kind} tone={KIND_TONES[kind]}>
              {kind}
            </Badge>
          ))}
        </span>
      ),
    },
    {
      header: 'Widget',
      cell: (change) => {
        const widget = widgetOf(change);
        const title = titleOf(change);
        return (
          <div className="promo-widget-name">
            <span className="strong">{title ?? <span className="muted">untitled</span>}</span>
            <span className="muted">
              {widget ? widgetTypeLabel(widget.type) : ''} · <code>{change.id}</code>
            </span>
          </div>
        );
      },
    },
    {
      header: 'Details',
      cellClassName: 'promo-details',
      cell: (change) => {
        const where = whereOf(widgetOf(change), names);
        const title = titleOf(change);
        return (
          <>
            {change.kinds.includes('added') && change.after && <span className="muted">{where}at {formatPosition(change.after.position)}</span>}
            {change.kinds.includes('removed') && change.before && <span className="muted">{where ? `was ${where}` : 'was '}at {formatPosition(change.before.position)}</span>}
            {change.move &&
              (change.responsiveOnly ? (
                <div className="muted">responsive layouts differ (position unchanged)</div>
              ) : (
                <div className="promo-move">
                  <code>{formatPosition(change.move.before)}</code> <span aria-hidden="true">→</span>
                  <span className="sr-only">to</span> <code>{formatPosition(change.move.after)}</code>
                </div>
              ))}
            {change.values.length > 0 && <ChangeList changes={change.values} label={`Changes of ${title ?? change.id}`} compact />}
          </>
        );
      },
    },
  ];
}

/** `path  before → after`, with colour swatches where a value is a colour. */
function ChangeList({ changes, label, compact = false }: { changes: ValueChange[]; label: string; compact?: boolean }) {
  return (
    <ul className={`promo-changes ${compact ? 'compact' : ''}`} aria-label={label}>
      {changes.map((c) => (
        <li key={c.path}>
          <code className="promo-path">{c.path || 'value'}</code>
          <span className="promo-before">
            <Value value={c.before} />
          </span>
          <span className="promo-to" aria-hidden="true">
            →
          </span>
          <span className="sr-only">becomes</span>
          <span className="promo-after">
            <Value value={c.after} />
          </span>
        </li>
      ))}
    </ul>
  );
}

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">(none)</span>;
  return (
    <span className="promo-value" title={typeof value === 'string' ? value : JSON.stringify(value)}>
      {looksLikeColor(value) && <span className="promo-swatch" style={{ background: value }} aria-hidden="true" />}
      <code>{formatValue(value)}</code>
    </span>
  );
}
