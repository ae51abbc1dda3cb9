import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { chartSeries, type SeriesColumn } from '../../../../src-shared/model/query';
import { chartLayout, type ChartKind, type ChartTheme } from './options';
import './charts.css';

export type { ChartKind } from './options';

type Engine = typeof import('./engine');
let enginePromise: Promise<Engine> | null = null;
const loadEngine = () => (enginePromise ??= import('./engine'));

/** Theme colours from the stylesheet, so charts follow light and dark mode. */
function cssVar(element: HTMLElement, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

const PALETTE = ['#2563c9', '#1f9d6b', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#65a30d', '#db2777', '#4f46e5', '#ca8a04', '#0d9488', '#7c3aed'];

let measureContext: CanvasRenderingContext2D | null = null;
/** Width of an axis label (12 px in the app's font), px. */
function measureLabel(text: string): number {
  measureContext ??= document.createElement('canvas').getContext('2d');
  if (!measureContext) return text.length * 7;
  measureContext.font = `12px ${getComputedStyle(document.body).fontFamily}`;
  return measureContext.measureText(text).width;
}

/** The box's size, following resizes (rounded, so sub-pixel jitter does not redraw). */
function useBoxSize(ref: RefObject<HTMLDivElement | null>): { width: number; height: number } | null {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry!.contentRect.width);
      const height = Math.floor(entry!.contentRect.height);
      setSize((s) => (s && s.width === width && s.height === height ? s : { width, height }));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return size;
}

/**
 * A query result drawn with ECharts: x axis from the first time dimension (else dimension), one
 * series per measure (or per value of a second dimension). Laid out by `chartLayout` (options.ts):
 * measures of different magnitude get their own axis or panel, every category label shows. The chart
 * stays inside its box; when every label needs more room than the box has, the drawing is wider and
 * the box scrolls. `accent` leads the palette.
 */
export function QueryChart({
  kind,
  columns,
  data,
  label,
  compact = false,
  accent,
}: {
  kind: ChartKind;
  columns: SeriesColumn[];
  data: Record<string, unknown>[];
  label: string;
  compact?: boolean;
  accent?: string | null;
}) {
  const box = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const chartRef = useRef<ReturnType<Engine['echarts']['init']> | null>(null);
  const [engine, setEngine] = useState<Engine | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const size = useBoxSize(box);
  const shapedKey = JSON.stringify(chartSeries(columns, data));
  const shaped = useMemo(() => JSON.parse(shapedKey) as ReturnType<typeof chartSeries>, [shapedKey]);

  useEffect(() => {
    let cancelled = false;
    loadEngine().then(
      (loaded) => !cancelled && setEngine(loaded),
      (error: unknown) => !cancelled && setFailed(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      cancelled = true;
    };
  }, []);

  const layout = useMemo(() => {
    if (!size || !box.current || size.width === 0 || size.height === 0) return null;
    const element = box.current;
    const theme: ChartTheme = {
      text: cssVar(element, '--text', '#1d2127'),
      muted: cssVar(element, '--muted', '#6b7380'),
      border: cssVar(element, '--border', '#dde1e6'),
      palette: accent ? [accent, ...PALETTE.filter((c) => c !== accent)] : PALETTE,
    };
    return chartLayout({ kind, shaped, compact, theme, box: size, measure: measureLabel });
  }, [size, kind, shaped, compact, accent]);

  useEffect(() => {
    const element = host.current;
    if (!engine || !element || !layout) return;
    chartRef.current ??= engine.echarts.init(element, undefined, { renderer: 'svg' });
    chartRef.current.resize({ width: layout.width, height: layout.height });
    chartRef.current.setOption(layout.option, { notMerge: true });
  }, [engine, layout]);

  useEffect(
    () => () => {
      chartRef.current?.dispose();
      chartRef.current = null;
    },
    [],
  );

  if (failed) return <div className="chart-failed">The chart could not be drawn: {failed}</div>;
  if (shaped.series.length === 0) return <div className="chart-empty muted">Nothing to chart: the query has no measure.</div>;
  const axes = layout?.axes.kind === 'dual' ? ' (two value axes)' : layout?.axes.kind === 'multiples' ? ' (one panel per magnitude)' : '';
  return (
    <div
      ref={box}
      className="query-chart"
      role="img"
      aria-label={`${label}: ${kind} chart of ${shaped.series.map((s) => s.name).join(', ')}${axes}`}
      data-points={shaped.categories.length}
      data-axes={layout?.axes.kind}
      tabIndex={layout && (layout.width > size!.width || layout.height > size!.height) ? 0 : undefined}
    >
      <div ref={host} className="query-chart-drawing" style={layout ? { width: layout.width, height: layout.height } : undefined} />
    </div>
  );
}
