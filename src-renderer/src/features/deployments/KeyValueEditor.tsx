import { newRow, type KeyValueRow, type ValueType } from './keyValues';

export { newRow, recordFromRows, rowsFromRecord, type KeyValueRow } from './keyValues';

export function KeyValueEditor({
  rows,
  onChange,
  idPrefix,
  typed = true,
  secret = false,
  keyPlaceholder = 'name',
  addLabel = 'Add',
}: {
  rows: KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  idPrefix: string;
  typed?: boolean;
  secret?: boolean;
  keyPlaceholder?: string;
  addLabel?: string;
}) {
  const update = (rowId: number, patch: Partial<KeyValueRow>) => onChange(rows.map((r) => (r.rowId === rowId ? { ...r, ...patch } : r)));
  return (
    <div className="kv">
      {rows.length > 0 && (
        <div className={`kv-grid ${typed ? 'kv-typed' : ''}`}>
          {rows.map((row, index) => (
            <div className="kv-row" key={row.rowId}>
              <input
                aria-label={`Name ${index + 1}`}
                id={`${idPrefix}-key-${index}`}
                value={row.key}
                placeholder={keyPlaceholder}
                spellCheck={false}
                onChange={(e) => update(row.rowId, { key: e.target.value })}
              />
              {typed && (
                <select aria-label={`Type of ${row.key || `value ${index + 1}`}`} value={row.type} onChange={(e) => update(row.rowId, { type: e.target.value as ValueType, value: e.target.value === 'boolean' ? 'true' : row.value })}>
                  <option value="string">text</option>
                  <option value="number">number</option>
                  <option value="boolean">yes/no</option>
                </select>
              )}
              {row.type === 'boolean' ? (
                <select aria-label={`Value of ${row.key || `value ${index + 1}`}`} value={row.value === 'true' ? 'true' : 'false'} onChange={(e) => update(row.rowId, { value: e.target.value })}>
                  <option value="true">true</option>
                  <option value="false">false</option>
                </select>
              ) : (
                <input
                  aria-label={`Value of ${row.key || `value ${index + 1}`}`}
                  type={secret ? 'password' : row.type === 'number' ? 'number' : 'text'}
                  autoComplete="off"
                  spellCheck={false}
                  value={row.value}
                  placeholder="value"
                  onChange={(e) => update(row.rowId, { value: e.target.value })}
                />
              )}
              <button type="button" className="icon-button" aria-label={`Remove ${row.key || `row ${index + 1}`}`} onClick={() => onChange(rows.filter((r) => r.rowId !== row.rowId))}>
                ×
              </button>
            </div>
          ))}
        </div>
      )}
      <button type="button" className="btn btn-ghost btn-small" onClick={() => onChange([...rows, newRow()])}>
        + {addLabel}
      </button>
    </div>
  );
}
