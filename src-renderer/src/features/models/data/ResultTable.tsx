import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ResultColumnInfo } from '../../../../../src-shared/api/queries';
import { formatCategory } from '../../../../../src-shared/model/query';

const ROW_HEIGHT = 28;

function cell(value: unknown, column: ResultColumnInfo): string {
  if (value === null || value === undefined) return '∅';
  if (column.type === 'time') return formatCategory(value, 'time');
  if (column.type === 'number' && typeof value === 'string' && value !== '') {
    const n = Number(value);
    if (Number.isFinite(n)) return n.toLocaleString(undefined, { maximumFractionDigits: 6 });
  }
  return String(value);
}

/** Rows of a result, only those in view rendered (10,000 rows scroll like 10). */
export function ResultTable({ columns, data }: { columns: ResultColumnInfo[]; data: Record<string, unknown>[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: data.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const template = columns.map((c) => (c.kind === 'measure' ? 'minmax(110px, 1fr)' : 'minmax(140px, 1.4fr)')).join(' ');
  return (
    <div className="result-table" role="table" aria-label="Query result" aria-rowcount={data.length + 1}>
      <div className="result-row result-head" role="row" style={{ gridTemplateColumns: template }}>
        {columns.map((c) => (
          <div key={c.key} role="columnheader" className={c.kind === 'measure' ? 'num' : ''} title={c.key}>
            {c.title}
          </div>
        ))}
      </div>
      <div className="result-scroll" ref={scroller} data-testid="result-scroll">
        <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
          {virtual.getVirtualItems().map((item) => {
            const row = data[item.index]!;
            return (
              <div
                key={item.key}
                role="row"
                aria-rowindex={item.index + 2}
                className="result-row"
                style={{ gridTemplateColumns: template, position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                {columns.map((c) => (
                  <div key={c.key} role="cell" className={c.kind === 'measure' || c.type === 'number' ? 'num' : ''}>
                    {cell(row[c.key], c)}
                  </div>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
