import { useEffect, useRef, useState, type RefObject } from 'react';
import type { RunSummary } from '../../../../../src-shared/api/lakehouse';
import { shortId } from '../data';
import { axisTicks, chartBars, niceMax, outcomesPresent, RUN_OUTCOME_INFO } from './outcomes';
import { plural } from '../../../lib/plural';

const HEIGHT = 170;
const PAD = { top: 10, right: 8, bottom: 30 };
/** Room left of the axis for its widest tick label (about 7 px a digit at 11 px), so labels are never cut. */
const axisRoom = (max: number) => Math.max(30, 14 + String(max).length * 7);
/** Room for this many bars at least, so a few runs do not become fat slabs. */
const MIN_SLOTS = 12;
const MAX_BAR = 26;

const timeOf = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dateTimeOf = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** Width of an element, following resizes. */
function useWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(240, Math.floor(entry.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** Stacked bars of per-view outcomes for recent runs, oldest left; plain SVG. */
export function OutcomeChart({ runs, selected, onSelect }: { runs: RunSummary[]; selected?: string | null; onSelect?: (runId: string) => void }) {
  const [ref, width] = useWidth<HTMLElement>();
  const bars = chartBars(runs, 20);
  const legend = outcomesPresent(bars);
  const statuses = [...new Set(bars.map((b) => b.status))];
  const max = niceMax(Math.max(1, ...bars.map((b) => b.total)));
  const left = axisRoom(max);
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = (width - left - PAD.right) / Math.max(MIN_SLOTS, bars.length);
  const barW = Math.min(MAX_BAR, slot * 0.62);
  const y = (value: number) => PAD.top + innerH - (value / max) * innerH;
  const labelEvery = slot >= 44 ? 1 : slot >= 22 ? 2 : 4;
  const summary = bars
    .map((b) => `${dateTimeOf.format(new Date(b.createdAt))}: ${b.status}, ${b.segments.map((s) => `${s.count} ${RUN_OUTCOME_INFO[s.outcome].label}`).join(', ') || 'no views'}`)
    .join('; ');

  return (
    <figure className="sy-chart" ref={ref}>
      {bars.length > 0 && (
        <svg width={width} height={HEIGHT} role="img" aria-label={`Outcomes of the last ${plural(bars.length, 'run')}. ${summary}`}>
          {axisTicks(max).map((t) => (
            <g key={t}>
              <line x1={left} x2={width - PAD.right} y1={y(t)} y2={y(t)} className={t === 0 ? 'sy-chart-base' : 'sy-chart-grid'} />
              <text x={left - 8} y={y(t)} className="sy-chart-axis" textAnchor="end" dominantBaseline="middle">
                {t}
              </text>
            </g>
          ))}
          {bars.map((bar, i) => {
            const cx = left + slot * (i + 0.5);
            const x = cx - barW / 2;
            return (
              <g
                key={bar.runId}
                className={`sy-chart-bar ${bar.runId === selected ? 'selected' : ''} ${onSelect ? 'clickable' : ''}`}
                onClick={onSelect ? () => onSelect(bar.runId) : undefined}
              >
                <title>{`Run ${shortId(bar.runId)} · ${dateTimeOf.format(new Date(bar.createdAt))} · ${bar.status}\n${bar.segments.map((s) => `${s.count} ${RUN_OUTCOME_INFO[s.outcome].label}`).join('\n') || 'no views'}`}</title>
                <rect x={cx - slot / 2 + 1} y={PAD.top - 4} width={slot - 2} height={innerH + 4} rx={4} className="sy-chart-hit" />
                {bar.segments.map((s, k) => (
                  <rect
                    key={s.outcome}
                    x={x}
                    width={barW}
                    y={y(s.from + s.count) + (k === bar.segments.length - 1 ? 0 : 0.5)}
                    height={Math.max(1, y(s.from) - y(s.from + s.count) - (k === bar.segments.length - 1 ? 0 : 0.5))}
                    rx={k === bar.segments.length - 1 ? 2 : 0}
                    className={`sy-o sy-o-${s.outcome}`}
                  />
                ))}
                <circle cx={cx} cy={HEIGHT - PAD.bottom + 9} r={3.5} className={`sy-chart-status sy-chart-status-${bar.status}`} />
                {i % labelEvery === (bars.length - 1) % labelEvery && (
                  <text x={cx} y={HEIGHT - 5} className="sy-chart-axis" textAnchor="middle">
                    {timeOf.format(new Date(bar.createdAt))}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      )}
      <figcaption className="sy-legend">
        {legend.map((o) => (
          <span key={o} className="sy-legend-item">
            <span className={`sy-swatch sy-o-${o}`} aria-hidden="true" />
            {RUN_OUTCOME_INFO[o].label}
          </span>
        ))}
        <span className="sy-legend-sep" aria-hidden="true" />
        {statuses.map((s) => (
          <span key={s} className="sy-legend-item muted">
            <svg width="8" height="8" aria-hidden="true">
              <circle cx="4" cy="4" r="3.5" className={`sy-chart-status sy-chart-status-${s}`} />
            </svg>
            run {s.toLowerCase()}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
