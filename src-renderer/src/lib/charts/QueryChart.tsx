import { useEffect, useRef, useState } from 'react';
import { chartSeries, formatNumber, type SeriesColumn } from '../../../../src-shared/model/query';

export type ChartKind = 'bar' | 'line' | 'pie';

type Engine = typeof import('./engine');
let enginePromise: Promise<Engine> | null = null;
const loadEngine = () => (enginePromise ??= import('./engine'));

/** Theme colours from the stylesheet, so charts follow light and dark mode. */
function cssVar(element: HTMLElement, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

const PALETTE = ['#2563c9', '#1f9d6b', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#65a30d', '#db2777', '#4f46e5', '#ca8a04', '#0d9488', '#7c3aed'];

/**
 * A query result drawn with ECharts: x axis from the first time dimension (else dimension), one
 * series per measure (or per value of a second dimension). `accent` leads the palette.
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
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const shaped = chartSeries(columns, data);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let disposed = false;
    let chart: ReturnType<Engine['echarts']['init']> | null = null;
    let observer: ResizeObserver | null = null;
    loadEngine()
      .then(({ echarts }) => {
        if (disposed) return;
        chart = echarts.init(element, undefined, { renderer: 'svg' });
        const text = cssVar(element, '--text', '#1d2127');
        const muted = cssVar(element, '--muted', '#6b7380');
        const border = cssVar(element, '--border', '#dde1e6');
        const palette = accent ? [accent, ...PALETTE.filter((c) => c !== accent)] : PALETTE;
        const legend = shaped.series.length > 1 && !compact;
        if (kind === 'pie') {
          const first = shaped.series[0];
          chart.setOption({
            color: palette,
            animation: false,
            tooltip: { trigger: 'item' },
            legend: legend || shaped.categories.length > 1 ? { show: !compact, bottom: 0, textStyle: { color: muted } } : { show: false },
            series: [
              {
                type: 'pie',
                radius: compact ? ['35%', '70%'] : ['40%', '68%'],
                label: { show: !compact, color: text },
                data: shaped.categories.map((name, i) => ({ name, value: first?.values[i] ?? 0 })),
              },
            ],
          });
        } else {
          chart.setOption({
            color: palette,
            animation: false,
            tooltip: { trigger: 'axis' },
            legend: legend ? { top: 0, textStyle: { color: muted } } : { show: false },
            grid: compact ? { left: 6, right: 6, top: 6, bottom: 6, containLabel: false } : { left: 8, right: 16, top: legend ? 30 : 12, bottom: 8, containLabel: true },
            xAxis: { type: 'category', data: shaped.categories, axisLabel: { show: !compact, color: muted }, axisLine: { lineStyle: { color: border } } },
            yAxis: { type: 'value', axisLabel: { show: !compact, color: muted, formatter: (v: number) => formatNumber(v) }, splitLine: { lineStyle: { color: border } } },
            series: shaped.series.map((s) => ({
              name: s.name,
              type: kind,
              data: s.values,
              showSymbol: kind === 'line' && shaped.categories.length < 40 && !compact,
              ...(kind === 'line' && shaped.series.length === 1 ? { areaStyle: { opacity: 0.12 } } : {}),
            })),
          });
        }
        observer = new ResizeObserver(() => chart?.resize());
        observer.observe(element);
      })
      .catch((error: unknown) => setFailed(error instanceof Error ? error.message : String(error)));
    return () => {
      disposed = true;
      observer?.disconnect();
      chart?.dispose();
    };
  }, [kind, compact, accent, JSON.stringify(shaped)]);

  if (failed) return <div className="chart-failed">The chart could not be drawn: {failed}</div>;
  if (shaped.series.length === 0) return <div className="chart-empty muted">Nothing to chart: the query has no measure.</div>;
  return <div ref={host} className="query-chart" role="img" aria-label={`${label}: ${kind} chart of ${shaped.series.map((s) => s.name).join(', ')}`} data-points={shaped.categories.length} />;
}
