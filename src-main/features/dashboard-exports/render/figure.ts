/**
 * What a widget's panel shows in an export, from its query's real result (run before rendering,
 * as the user the dashboard is rendered as): bars or a line per series, a share bar for a pie, the
 * number of a KPI, the first rows of a table — or, when the query failed, why, in plain words.
 * Nothing is drawn that is not a query result. Both renderers draw these figures.
 */
import { axisLayout, chartKindOf, chartSeries, formatCategory, formatNumber, toNumber, type AxisLayout, type SeriesColumn } from '../../../../src-shared/model/query';
import type { DashboardWidget } from '../../../../src-shared/api/workbooks';

export type WidgetQueryOutcome = { ok: true; result: { columns: SeriesColumn[]; data: Record<string, unknown>[] } } | { ok: false; message: string };

/** The value range one axis spans, and the series (indexes) drawn against it. */
export interface FigureScale {
  series: number[];
  min: number;
  max: number;
}

export type Figure =
  | {
      kind: 'bars' | 'line';
      categories: string[];
      series: { name: string; values: (number | null)[] }[];
      /**
       * As the app lays the chart out (axisLayout): one scale; a left and a right one in one panel
       * (`dual`); or a panel per scale (`multiples`) — so a count beside an amount a thousand times
       * larger is not flattened to nothing.
       */
      layout: AxisLayout['kind'];
      scales: FigureScale[];
    }
  | { kind: 'share'; parts: { name: string; value: number }[] }
  | { kind: 'number'; text: string; caption: string }
  | { kind: 'table'; rows: string[][] }
  | { kind: 'message'; text: string; tone: 'error' | 'muted' };

/** Rows of a table widget an export prints at most. */
export const MAX_TABLE_ROWS = 12;

/** The query a CHART widget keeps in `config.query`, if any. */
export function widgetQueryOf(widget: Pick<DashboardWidget, 'type' | 'config'>): Record<string, unknown> | null {
  if (widget.type !== 'CHART') return null;
  const query = (widget.config as Record<string, unknown> | null | undefined)?.query;
  return query !== null && typeof query === 'object' && !Array.isArray(query) ? (query as Record<string, unknown>) : null;
}

export function figureOf(widget: Pick<DashboardWidget, 'type' | 'config'>, outcome: WidgetQueryOutcome | undefined): Figure | null {
  const kind = chartKindOf(widget.type, widget.config);
  if (!kind) return null;
  if (!widgetQueryOf(widget)) return { kind: 'message', text: 'This chart has no query in its config.', tone: 'muted' };
  if (!outcome) return null;
  if (!outcome.ok) return { kind: 'message', text: `Query failed: ${outcome.message}`, tone: 'error' };
  const { columns, data } = outcome.result;
  if (data.length === 0) return { kind: 'message', text: 'The query returned no rows.', tone: 'muted' };
  if (kind === 'number') {
    const measure = columns.find((c) => c.kind === 'measure');
    return { kind: 'number', text: formatNumber(measure ? toNumber(data[0]![measure.key]) : null), caption: measure?.title ?? '' };
  }
  if (kind === 'table') {
    const rows = [columns.map((c) => c.title)];
    for (const row of data.slice(0, MAX_TABLE_ROWS)) rows.push(columns.map((c) => (c.kind === 'measure' ? formatNumber(toNumber(row[c.key])) : formatCategory(row[c.key], c.type))));
    return { kind: 'table', rows };
  }
  const shaped = chartSeries(columns, data);
  if (shaped.series.length === 0) return { kind: 'message', text: 'Nothing to chart: the query has no measure.', tone: 'muted' };
  if (kind === 'pie') {
    const first = shaped.series[0]!;
    return { kind: 'share', parts: shaped.categories.map((name, i) => ({ name, value: Math.max(0, first.values[i] ?? 0) })) };
  }
  const axes = axisLayout(shaped.series, !shaped.byMeasure);
  const groups = axes.kind === 'single' ? [shaped.series.map((_, i) => i)] : axes.kind === 'dual' ? [axes.left, axes.right] : axes.panels;
  const scaleOf = (series: number[]): FigureScale => {
    const values = series.flatMap((i) => shaped.series[i]!.values.filter((v): v is number => v !== null));
    return { series, min: Math.min(0, ...values), max: Math.max(0, ...values) };
  };
  return { kind: kind === 'line' ? 'line' : 'bars', categories: shaped.categories, series: shaped.series, layout: axes.kind, scales: groups.map(scaleOf) };
}

/** Series colours after the widget's accent. */
export const SERIES_PALETTE: [number, number, number][] = [
  [31, 157, 107],
  [217, 119, 6],
  [147, 51, 234],
  [220, 38, 38],
  [8, 145, 178],
  [101, 163, 13],
  [219, 39, 119],
];

export const ERROR_COLOR: [number, number, number] = [185, 28, 28];

/** Words of `text` in lines of at most `width` characters. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : word;
    while (line.length > width) {
      lines.push(line.slice(0, width));
      line = line.slice(width);
    }
  }
  if (line) lines.push(line);
  return lines;
}
