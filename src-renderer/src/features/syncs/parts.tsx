import { useMemo, useState, type ReactNode } from 'react';
import { Badge } from '../../lib/ui';
import type { ModelViewInfo } from './modelViews';

export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'info';

/** Job and run statuses shared by syncs, runs and previews. */
export const STATUS_TONE: Record<string, Tone> = {
  QUEUED: 'neutral',
  RUNNING: 'info',
  CANCELLING: 'warn',
  COMPLETED: 'good',
  PARTIAL: 'warn',
  FAILED: 'bad',
  CANCELLED: 'neutral',
};
export const ACTIVE_STATUSES = ['QUEUED', 'RUNNING', 'CANCELLING'] as const;
export const isActiveStatus = (status: string): boolean => (ACTIVE_STATUSES as readonly string[]).includes(status);

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className="sy-status">
      <Badge tone={STATUS_TONE[status] ?? 'neutral'}>
        {isActiveStatus(status) && status !== 'QUEUED' && <span className="sy-pulse" aria-hidden="true" />}
        {status}
      </Badge>
    </span>
  );
}

/** A progress bar whose width eases between polls, so it visibly moves. */
export function ProgressBar({ percent, status, label, compact = false }: { percent: number; status: string; label?: string; compact?: boolean }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  const tone = STATUS_TONE[status] ?? 'neutral';
  return (
    <div className={`sy-progress ${compact ? 'sy-progress-compact' : ''}`}>
      <div
        className={`sy-bar sy-bar-${tone} ${status === 'QUEUED' ? 'sy-bar-waiting' : ''}`}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value}
        aria-label={label ?? 'Progress'}
      >
        <div className="sy-bar-fill" style={{ width: `${status === 'QUEUED' ? Math.max(value, 4) : value}%` }} />
      </div>
      <span className="sy-progress-text">{value}%</span>
    </div>
  );
}

/** Label and number tiles at the top of a result. */
export function Stat({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <div className="sy-stat" title={hint}>
      <div className="sy-stat-value">{children}</div>
      <div className="sy-stat-label">{label}</div>
    </div>
  );
}

/** Segmented control (filters, sub-sections). */
export function Segmented<T extends string>({ label, options, value, onChange }: { label: string; options: { id: T; title: ReactNode }[]; value: T; onChange: (value: T) => void }) {
  return (
    <div className="sy-segmented" role="group" aria-label={label}>
      {options.map((o) => (
        <button key={o.id} type="button" className={o.id === value ? 'active' : ''} aria-pressed={o.id === value} onClick={() => onChange(o.id)}>
          {o.title}
        </button>
      ))}
    </div>
  );
}

/**
 * Pick model views: search, select all, clear. `mode="push"` marks views that cannot become
 * semantic views and keeps "Select all" to the pushable ones.
 */
export function ViewPicker({
  id,
  views,
  selected,
  onChange,
  mode,
  loading,
  emptyText = 'The model has no views on this branch.',
}: {
  id: string;
  views: ModelViewInfo[];
  selected: string[];
  onChange: (names: string[]) => void;
  mode: 'push' | 'publish';
  loading?: boolean;
  emptyText?: string;
}) {
  const [search, setSearch] = useState('');
  const chosen = useMemo(() => new Set(selected), [selected]);
  const shown = useMemo(() => {
    const term = search.trim().toLowerCase();
    return term ? views.filter((v) => v.name.toLowerCase().includes(term) || (v.title ?? '').toLowerCase().includes(term)) : views;
  }, [views, search]);
  const selectable = (v: ModelViewInfo) => (mode === 'push' ? v.pushable : true);
  // Names selected but missing from the model (a `selected` scope keeps them; the run reports them).
  const missing = selected.filter((name) => !views.some((v) => v.name === name));
  const toggle = (name: string, on: boolean) => onChange(on ? [...selected, name] : selected.filter((n) => n !== name));

  return (
    <div className="sy-picker" role="group" aria-labelledby={`${id}-label`}>
      <div className="sy-picker-bar">
        <input id={id} type="search" placeholder="Filter views" value={search} onChange={(e) => setSearch(e.target.value)} aria-label="Filter views" autoComplete="off" />
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onChange([...new Set([...selected, ...shown.filter(selectable).map((v) => v.name)])])} disabled={shown.length === 0}>
          Select all{mode === 'push' ? ' pushable' : ''}
        </button>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onChange([])} disabled={selected.length === 0}>
          Clear
        </button>
      </div>
      <div className="sy-picker-list">
        {loading && views.length === 0 ? (
          <div className="sy-picker-empty">
            <span className="spinner" aria-hidden="true" /> Reading the model…
          </div>
        ) : views.length === 0 ? (
          <div className="sy-picker-empty">{emptyText}</div>
        ) : shown.length === 0 ? (
          <div className="sy-picker-empty">No view matches “{search.trim()}”.</div>
        ) : (
          shown.map((v) => {
            const blocked = mode === 'push' && !v.pushable;
            return (
              <label key={v.name} className={`sy-picker-item ${blocked ? 'sy-picker-blocked' : ''}`} title={blocked ? v.pushIssues.join('\n') : v.file}>
                <input type="checkbox" checked={chosen.has(v.name)} onChange={(e) => toggle(v.name, e.target.checked)} aria-label={v.name} />
                <span className="sy-picker-name">
                  <code>{v.name}</code>
                  {v.title && <span className="muted">{v.title}</span>}
                </span>
                <span className="sy-picker-tags">
                  {!v.public && <Badge>private</Badge>}
                  {blocked && <Badge tone="warn">not pushable</Badge>}
                  {mode === 'push' && v.pushable && v.droppedPolicies.length > 0 && (
                    <span title={`A semantic view cannot hold the access policies of ${v.droppedPolicies.join(', ')}: the push warns, and whoever may select from it sees every row and member.`}>
                      <Badge tone="warn">drops access policies</Badge>
                    </span>
                  )}
                  {mode === 'push' && v.pushable && v.skipped.some((f) => f !== 'access_policies') && (
                    <span title={`Left out of the semantic view: ${v.skipped.filter((f) => f !== 'access_policies').join(', ').replace(/_/g, ' ')}`}>
                      <Badge tone="neutral">skips {v.skipped.filter((f) => f !== 'access_policies').length}</Badge>
                    </span>
                  )}
                </span>
                {blocked && v.pushIssues[0] && <span className="sy-picker-reason">{stripViewPrefix(v.pushIssues[0])}</span>}
              </label>
            );
          })
        )}
        {missing.map((name) => (
          <label key={`missing-${name}`} className="sy-picker-item sy-picker-blocked" title="Not in the model on this branch">
            <input type="checkbox" checked onChange={() => toggle(name, false)} aria-label={name} />
            <span className="sy-picker-name">
              <code>{name}</code>
            </span>
            <span className="sy-picker-tags">
              <Badge tone="warn">not in model</Badge>
            </span>
          </label>
        ))}
      </div>
      <div className="sy-picker-foot muted">
        {selected.length} of {views.length} selected
      </div>
    </div>
  );
}

/** `View 'x': measure …` → `measure …` (the row already names the view). */
export const stripViewPrefix = (message: string): string => message.replace(/^View '[^']*':\s*/, '');

/** A list of names as chips, the rest counted. */
export function NameList({ names, max = 3, empty = '—' }: { names: string[]; max?: number; empty?: string }) {
  if (names.length === 0) return <span className="muted">{empty}</span>;
  const rest = names.length - max;
  return (
    <span className="sy-names" title={names.join(', ')}>
      {names.slice(0, max).map((n) => (
        <code key={n}>{n}</code>
      ))}
      {rest > 0 && <span className="muted">+{rest}</span>}
    </span>
  );
}
