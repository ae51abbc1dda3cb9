// A query result as chart series: the first time dimension (else the first dimension) along the x
// axis, one series per measure — or, when a second dimension is queried, one series per value of it
// for the first measure. Shared by the app's charts and the PNG/PDF dashboard renderer.

export interface SeriesColumn {
  key: string;
  title: string;
  kind: 'measure' | 'dimension' | 'timeDimension';
  type: string;
}

export interface ChartSeries {
  /** Labels along the x axis, in row order. */
  categories: string[];
  series: { name: string; values: (number | null)[] }[];
  xTitle: string | null;
  /** One series per measure (their units may differ), not one measure split by a dimension. */
  byMeasure: boolean;
}

/** More series than this are folded: a chart with dozens of lines reads as noise. */
export const MAX_SERIES = 12;

export function formatCategory(value: unknown, type: string): string {
  if (value === null || value === undefined) return '∅';
  const text = String(value);
  if (type === 'time') {
    const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(text);
    if (m) return m[2] === '00:00' ? m[1]! : `${m[1]} ${m[2]}`;
  }
  return text;
}

export const toNumber = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
};

export function chartSeries(columns: SeriesColumn[], rows: Record<string, unknown>[]): ChartSeries {
  const measures = columns.filter((c) => c.kind === 'measure');
  const dims = columns.filter((c) => c.kind !== 'measure');
  const x = dims.find((c) => c.kind === 'timeDimension') ?? dims[0] ?? null;
  const split = dims.find((c) => c !== x && !(x && c.kind === 'dimension' && x.kind === 'timeDimension' && c.type === 'time')) ?? null;
  if (measures.length === 0) return { categories: [], series: [], xTitle: x?.title ?? null, byMeasure: false };
  if (!x) {
    return { categories: [''], series: measures.map((m) => ({ name: m.title, values: [toNumber(rows[0]?.[m.key])] })), xTitle: null, byMeasure: true };
  }
  const categories: string[] = [];
  const index = new Map<string, number>();
  for (const row of rows) {
    const label = formatCategory(row[x.key], x.type);
    if (!index.has(label)) {
      index.set(label, categories.length);
      categories.push(label);
    }
  }
  // A time axis reads left to right in time, whatever order the query asked for.
  if (x.kind === 'timeDimension' || x.type === 'time') {
    const sorted = [...categories].sort();
    sorted.forEach((c, i) => index.set(c, i));
    categories.splice(0, categories.length, ...sorted);
  }
  if (!split) {
    const series = measures.slice(0, MAX_SERIES).map((m) => ({ name: m.title, values: categories.map(() => null as number | null) }));
    for (const row of rows) {
      const i = index.get(formatCategory(row[x.key], x.type))!;
      measures.slice(0, MAX_SERIES).forEach((m, s) => (series[s]!.values[i] = toNumber(row[m.key])));
    }
    return { categories, series, xTitle: x.title, byMeasure: true };
  }
  const measure = measures[0]!;
  const bySplit = new Map<string, (number | null)[]>();
  for (const row of rows) {
    const name = formatCategory(row[split.key], split.type);
    if (!bySplit.has(name)) {
      if (bySplit.size >= MAX_SERIES) continue;
      bySplit.set(name, categories.map(() => null));
    }
    bySplit.get(name)![index.get(formatCategory(row[x.key], x.type))!] = toNumber(row[measure.key]);
  }
  return { categories, series: [...bySplit].map(([name, values]) => ({ name: `${name}`, values })), xTitle: x.title, byMeasure: false };
}

/** Compact number for labels: 1234567 → 1.23M, 0.5 → 0.5. */
export function formatNumber(value: number | null): string {
  if (value === null) return '–';
  const abs = Math.abs(value);
  const units: [number, string][] = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, unit] of units) if (abs >= size) return `${(value / size).toFixed(abs / size >= 100 ? 0 : abs / size >= 10 ? 1 : 2)}${unit}`;
  return Number.isInteger(value) ? String(value) : value.toFixed(abs >= 100 ? 0 : 2);
}

export type WidgetChartKind = 'bar' | 'line' | 'pie' | 'table' | 'number';

/** How a CHART widget draws its result, from `config.chartType` (or `visualization`, `vizType`). */
export function chartKindOf(type: string, config: unknown): WidgetChartKind | null {
  if (type !== 'CHART') return null;
  const c = config !== null && typeof config === 'object' && !Array.isArray(config) ? (config as Record<string, unknown>) : {};
  const viz = c.visualization !== null && typeof c.visualization === 'object' ? (c.visualization as Record<string, unknown>).type : undefined;
  const text = [c.chartType, c.visualization, c.vizType, viz].find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? '';
  const kind = text.toLowerCase();
  if (/line|area|trend|time/.test(kind)) return 'line';
  if (/pie|donut|doughnut/.test(kind)) return 'pie';
  if (/table|pivot|grid/.test(kind)) return 'table';
  if (/number|kpi|metric|single|big/.test(kind)) return 'number';
  return 'bar';
}
