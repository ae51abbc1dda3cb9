import { useMemo, useState, type ReactNode } from 'react';

export interface ChecklistItem {
  id: number;
  /** What the filter matches and the checkbox is named after. */
  label: string;
  detail?: ReactNode;
}

/** A filterable list of checkboxes (group members, attached policies…), with a count of what is chosen. */
export function Checklist({
  items,
  selected,
  onChange,
  label,
  idPrefix,
  empty = 'Nothing to choose from.',
  filterPlaceholder = 'Filter…',
  error,
}: {
  items: readonly ChecklistItem[];
  selected: ReadonlySet<number>;
  onChange: (next: Set<number>) => void;
  label: string;
  idPrefix: string;
  empty?: string;
  filterPlaceholder?: string;
  error?: string | null;
}) {
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    return needle ? items.filter((item) => item.label.toLowerCase().includes(needle)) : items;
  }, [items, filter]);
  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  return (
    <fieldset className={`checklist ${error ? 'field-invalid' : ''}`} aria-label={label}>
      <legend>
        {label} <span className="muted">{selected.size} chosen</span>
      </legend>
      {items.length > 8 && <input type="search" aria-label={`Filter ${label.toLowerCase()}`} placeholder={filterPlaceholder} value={filter} onChange={(e) => setFilter(e.target.value)} />}
      <div className="checklist-items">
        {items.length === 0 ? (
          <div className="muted">{empty}</div>
        ) : (
          shown.map((item) => (
            <label key={item.id} className="check checklist-item" htmlFor={`${idPrefix}-${item.id}`}>
              <input id={`${idPrefix}-${item.id}`} type="checkbox" checked={selected.has(item.id)} onChange={(e) => toggle(item.id, e.target.checked)} />
              <span>{item.label}</span>
              {item.detail && <span className="muted checklist-detail">{item.detail}</span>}
            </label>
          ))
        )}
      </div>
      {error && <div className="field-error">{error}</div>}
    </fieldset>
  );
}
