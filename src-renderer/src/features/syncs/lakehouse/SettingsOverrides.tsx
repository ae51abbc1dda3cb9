import { controlsColumn, DataTable } from '../../../lib/DataTable';
import type { ModelViewInfo } from '../modelViews';
import { newOverrideRow, type OverrideRow } from './form';

/** The per-view overrides of the publication settings: another target name, or another root source table, per view. */
export function Overrides({ rows, views, onChange, error }: { rows: OverrideRow[]; views: ModelViewInfo[]; onChange: (rows: OverrideRow[]) => void; error: string | null }) {
  const update = (key: number, patch: Partial<OverrideRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <div className={`sy-overrides ${error ? 'field-invalid' : ''}`}>
      {rows.length === 0 ? (
        <div className="field-hint">Publish a view under another name, or read it from another table than its root cube’s.</div>
      ) : (
        <DataTable
          label="Per-view overrides"
          className="sy-override-table"
          rows={rows.map((row, index) => ({ row, n: index + 1 }))}
          rowKey={({ row }) => row.key}
          columns={[
            {
              header: 'View',
              cell: ({ row, n }) => (
                <select value={row.viewName} onChange={(e) => update(row.key, { viewName: e.target.value })} aria-label={`View of override ${n}`}>
                  <option value="">Choose a view…</option>
                  {row.viewName && !views.some((v) => v.name === row.viewName) && <option value={row.viewName}>{row.viewName}</option>}
                  {views.map((v) => (
                    <option key={v.name} value={v.name}>
                      {v.name}
                    </option>
                  ))}
                </select>
              ),
            },
            {
              header: 'Target name',
              cell: ({ row, n }) => (
                <input value={row.targetName} onChange={(e) => update(row.key, { targetName: e.target.value })} placeholder="default: prefix + view" aria-label={`Target name of override ${n}`} spellCheck={false} />
              ),
            },
            {
              header: 'Root source',
              cell: ({ row, n }) => (
                <input value={row.rootSource} onChange={(e) => update(row.key, { rootSource: e.target.value })} placeholder="catalog.schema.table" aria-label={`Root source of override ${n}`} spellCheck={false} />
              ),
            },
            controlsColumn<{ row: OverrideRow; n: number }>(
              ({ row, n }) => (
                <button type="button" className="icon-button" aria-label={`Remove override ${n}`} onClick={() => onChange(rows.filter((r) => r.key !== row.key))}>
                  ×
                </button>
              ),
              'Remove',
            ),
          ]}
        />
      )}
      {error && <div className="field-error">{error}</div>}
      <div>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => onChange([...rows, newOverrideRow()])}>
          + Add override
        </button>
      </div>
    </div>
  );
}
