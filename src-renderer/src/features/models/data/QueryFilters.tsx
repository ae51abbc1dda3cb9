import { FILTER_OPERATORS, type MetaMember } from '../../../../../src-shared/model/query';
import { Button } from '../../../lib/ui';
import type { PickedQuery } from './pick';

/**
 * The date range of the picked time dimension and the filter rows of a picked query (member,
 * operator, comma-separated values). Shared by Models › Data and the dashboard widget editor.
 */
export function QueryFilters({ pick, onChange, dimensions }: { pick: PickedQuery; onChange: (next: PickedQuery) => void; dimensions: MetaMember[] }) {
  const setFilter = (i: number, patch: Partial<PickedQuery['filters'][number]>) => onChange({ ...pick, filters: pick.filters.map((f, k) => (k === i ? { ...f, ...patch } : f)) });
  return (
    <div className="data-filters">
      {pick.time && (
        <div className="filter-row">
          <span className="muted small">{pick.time.dimension} from</span>
          <input type="date" aria-label="From date" value={pick.time.from} onChange={(e) => onChange({ ...pick, time: { ...pick.time!, from: e.target.value } })} />
          <span className="muted small">to</span>
          <input type="date" aria-label="To date" value={pick.time.to} onChange={(e) => onChange({ ...pick, time: { ...pick.time!, to: e.target.value } })} />
        </div>
      )}
      {pick.filters.map((f, i) => (
        <div className="filter-row" key={i}>
          <select aria-label="Filter member" value={f.member} onChange={(e) => setFilter(i, { member: e.target.value })}>
            <option value="">member…</option>
            {dimensions.map((d) => (
              <option key={d.name} value={d.name}>
                {d.name}
              </option>
            ))}
          </select>
          <select aria-label="Filter operator" value={f.operator} onChange={(e) => setFilter(i, { operator: e.target.value })}>
            {FILTER_OPERATORS.map((op) => (
              <option key={op} value={op}>
                {op}
              </option>
            ))}
          </select>
          {f.operator !== 'set' && f.operator !== 'notSet' && <input aria-label="Filter values" placeholder="values, comma separated" value={f.values} onChange={(e) => setFilter(i, { values: e.target.value })} />}
          <button type="button" className="icon-button" aria-label="Remove filter" onClick={() => onChange({ ...pick, filters: pick.filters.filter((_, k) => k !== i) })}>
            ×
          </button>
        </div>
      ))}
      <Button className="btn-small" variant="ghost" onClick={() => onChange({ ...pick, filters: [...pick.filters, { member: '', operator: 'equals', values: '' }] })}>
        + Filter
      </Button>
    </div>
  );
}
