// A widget's query (`config.query`, the REST query format) run through the deployment's data API.
// Answers are shared by widgets asking the same thing and kept briefly; `Continue wait` is polled
// through; a failure keeps the service's own words, so the widget can say why it has no numbers.
import { useEffect, useState } from 'react';
import { inOneLine, toShownError } from '../../lib/errors';
import { deploymentDataApi } from '../../../../src-shared/api/queries';
import type { SeriesColumn } from '../../../../src-shared/model/query';
import type { DashboardWidget } from '../../../../src-shared/api/workbooks';
import { api } from '../../app/session';

export interface WidgetResult {
  columns: SeriesColumn[];
  data: Record<string, unknown>[];
}

export type WidgetData = { state: 'loading' } | { state: 'ready'; result: WidgetResult } | { state: 'error'; message: string };

const KEEP_MS = 60_000;
const cache = new Map<string, { at: number; promise: Promise<WidgetResult> }>();

/** The query a CHART widget keeps in its config, if it has one. */
export function widgetQuery(widget: Pick<DashboardWidget, 'config'>): Record<string, unknown> | null {
  const config = widget.config as Record<string, unknown> | null | undefined;
  const query = config?.query;
  return query !== null && typeof query === 'object' && !Array.isArray(query) ? (query as Record<string, unknown>) : null;
}

interface Annotation {
  measures?: Record<string, { shortTitle?: string; type?: string }>;
  dimensions?: Record<string, { shortTitle?: string; type?: string }>;
  timeDimensions?: Record<string, { shortTitle?: string }>;
}

function columnsOf(query: Record<string, unknown>, annotation: Annotation): SeriesColumn[] {
  const out: SeriesColumn[] = [];
  for (const td of (query.timeDimensions as { dimension: string; granularity?: string }[] | undefined) ?? []) {
    if (!td.granularity) continue;
    const key = `${td.dimension}.${td.granularity}`;
    out.push({ key, title: annotation.timeDimensions?.[key]?.shortTitle ?? key, kind: 'timeDimension', type: 'time' });
  }
  for (const key of (query.dimensions as string[] | undefined) ?? []) {
    const a = annotation.dimensions?.[key];
    out.push({ key, title: a?.shortTitle ?? key, kind: 'dimension', type: a?.type ?? 'string' });
  }
  for (const key of (query.measures as string[] | undefined) ?? []) {
    const a = annotation.measures?.[key];
    out.push({ key, title: a?.shortTitle ?? key, kind: 'measure', type: a?.type ?? 'number' });
  }
  return out;
}

async function load(deploymentId: number, query: Record<string, unknown>): Promise<WidgetResult> {
  for (;;) {
    const body = (await api.call(deploymentDataApi.loadPost, { params: { deploymentId }, body: { query } })) as Record<string, unknown>;
    if (body.error === 'Continue wait') continue;
    const answered = (body.query as Record<string, unknown> | undefined) ?? query;
    return { columns: columnsOf(answered, (body.annotation as Annotation) ?? {}), data: (body.data as Record<string, unknown>[]) ?? [] };
  }
}

export function fetchWidgetData(deploymentId: number, query: Record<string, unknown>): Promise<WidgetResult> {
  const key = `${deploymentId}:${JSON.stringify(query)}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && now - hit.at < KEEP_MS) return hit.promise;
  const promise = load(deploymentId, query);
  cache.set(key, { at: now, promise });
  promise.catch(() => cache.delete(key));
  return promise;
}

export function useWidgetData(deploymentId: number | null, query: Record<string, unknown> | null): WidgetData | null {
  const key = query ? JSON.stringify(query) : null;
  const [data, setData] = useState<WidgetData | null>(null);
  useEffect(() => {
    if (deploymentId === null || query === null) {
      setData(null);
      return;
    }
    let live = true;
    setData({ state: 'loading' });
    fetchWidgetData(deploymentId, query).then(
      (result) => live && setData({ state: 'ready', result }),
      (error: unknown) => live && setData({ state: 'error', message: inOneLine(toShownError(error)) }),
    );
    return () => {
      live = false;
    };
  }, [deploymentId, key]); // query is keyed by its JSON
  return data;
}
