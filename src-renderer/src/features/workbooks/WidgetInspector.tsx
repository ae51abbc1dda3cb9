/**
 * Settings of the selected widget: title, chart type and the query (picked from the deployment's
 * compiled model with the member picker of Models › Data, or written as JSON), text, position.
 * Every change goes straight into the draft, so the widget on the grid redraws with real numbers.
 */
import { useState } from 'react';
import type { DashboardWidget, WidgetPosition } from '../../../../src-shared/api/workbooks';
import type { MetaEntity } from '../../../../src-shared/model/query';
import { Button, Field, ProblemBanner } from '../../lib/ui';
import type { ShownError } from '../../lib/errors';
import { MemberPicker } from '../models/data/MemberPicker';
import { QueryFilters } from '../models/data/QueryFilters';
import { EMPTY_PICK, fromQuery, toQuery, type PickedQuery } from '../models/data/pick';
import '../models/data/data.css';
import { widgetTypeLabel } from './dashboard';
import { CHART_TYPES, widgetConfigOf } from './editing';
import { widgetQuery } from './widgetData';

export function WidgetInspector({
  widget,
  entities,
  cols,
  onConfig,
  onPosition,
  onDelete,
}: {
  widget: DashboardWidget;
  /** Cubes and views of the deployment's compiled model (null while loading). */
  entities: MetaEntity[] | null;
  cols: number;
  onConfig: (config: Record<string, unknown>) => void;
  onPosition: (position: WidgetPosition) => void;
  onDelete: () => void;
}) {
  const config = widgetConfigOf(widget);
  const set = (key: string, value: unknown) => {
    const next = { ...config };
    if (value === undefined || value === '') delete next[key];
    else next[key] = value;
    onConfig(next);
  };
  const title = typeof config.title === 'string' ? config.title : '';

  return (
    <div className="panel wb-inspector" aria-label="Widget settings" role="region">
      <div className="wb-inspector-head">
        <h2>{widgetTypeLabel(widget.type)}</h2>
        <code className="muted small">{widget.id}</code>
      </div>
      {widget.type !== 'DIVIDER' && widget.type !== 'SPACER' && (
        <Field label="Title" htmlFor="wb-widget-title">
          <input id="wb-widget-title" value={title} onChange={(e) => set('title', e.target.value)} autoComplete="off" />
        </Field>
      )}
      {widget.type === 'CHART' && (
        <>
          <Field label="Chart type" htmlFor="wb-chart-type">
            <select id="wb-chart-type" value={typeof config.chartType === 'string' ? config.chartType : 'bar'} onChange={(e) => set('chartType', e.target.value)}>
              {CHART_TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
              {typeof config.chartType === 'string' && !CHART_TYPES.some((t) => t.value === config.chartType) && <option value={config.chartType}>{config.chartType}</option>}
            </select>
          </Field>
          <QueryEditor widget={widget} entities={entities} onQuery={(query) => set('query', query)} />
        </>
      )}
      {widget.type === 'TEXT' && (
        <Field label="Text" htmlFor="wb-widget-text">
          <textarea id="wb-widget-text" rows={5} value={typeof config.text === 'string' ? config.text : ''} onChange={(e) => set('text', e.target.value)} />
        </Field>
      )}
      <PositionFields position={widget.position} cols={cols} onPosition={onPosition} />
      <div className="wb-inspector-foot">
        <Button variant="danger" className="btn-small" onClick={onDelete}>
          Delete widget…
        </Button>
      </div>
    </div>
  );
}

/**
 * The chart's query: the member picker while the picker can show all of it, JSON otherwise. The
 * pick is kept here (a half-typed filter has no query yet) and the query follows each change.
 */
function QueryEditor({ widget, entities, onQuery }: { widget: DashboardWidget; entities: MetaEntity[] | null; onQuery: (query: Record<string, unknown> | undefined) => void }) {
  const initial = widgetQuery(widget);
  const [pick, setPick] = useState<PickedQuery | null>(() => fromQuery(initial ?? undefined));
  const [jsonText, setJsonText] = useState(() => JSON.stringify(initial ?? {}, null, 2));
  const [jsonError, setJsonError] = useState<ShownError | null>(null);
  const jsonMode = pick === null;

  const changePick = (next: PickedQuery) => {
    setPick(next);
    const empty = next.measures.length + next.dimensions.length === 0 && !next.time;
    onQuery(empty ? undefined : toQuery(next));
  };
  const applyJson = (text: string) => {
    setJsonText(text);
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('A query is a JSON object, such as {"measures": ["orders.count"]}.');
      setJsonError(null);
      onQuery(parsed as Record<string, unknown>);
    } catch (e) {
      setJsonError({ title: 'The query is not valid JSON', detail: e instanceof Error ? e.message : String(e), code: null, status: null, fields: [] });
    }
  };
  const toPicker = () => {
    const back = jsonError ? null : fromQuery(widgetQuery(widget) ?? undefined);
    if (back) setPick(back);
    else setJsonError({ title: 'The picker cannot show this query', detail: 'It uses parts the picker has no control for (several time dimensions, relative date ranges, and/or filters, order…). Keep editing it as JSON.', code: null, status: null, fields: [] });
  };
  const toJson = () => {
    setJsonText(JSON.stringify(widgetQuery(widget) ?? {}, null, 2));
    setJsonError(null);
    setPick(null);
  };

  const dimensions = (entities ?? []).flatMap((e) => e.dimensions);
  return (
    <div className="wb-query">
      <div className="wb-query-head">
        <span className="field-label">Query</span>
        <Button className="btn-small" variant="ghost" onClick={jsonMode ? toPicker : toJson} aria-pressed={jsonMode}>
          {jsonMode ? 'Use the picker' : 'Edit as JSON'}
        </Button>
      </div>
      {jsonMode ? (
        <>
          <textarea className="data-json" aria-label="Query JSON" spellCheck={false} rows={8} value={jsonText} onChange={(e) => applyJson(e.target.value)} />
          <ProblemBanner error={jsonError} />
        </>
      ) : entities === null ? (
        <p className="muted small">Loading the model’s members…</p>
      ) : (
        <>
          <MemberPicker entities={entities} pick={pick ?? EMPTY_PICK} onChange={changePick} />
          <QueryFilters pick={pick ?? EMPTY_PICK} onChange={changePick} dimensions={dimensions} />
          <label className="inline-field">
            Row limit{' '}
            <input type="number" min={1} max={50000} value={pick?.limit ?? EMPTY_PICK.limit} aria-label="Row limit" onChange={(e) => changePick({ ...(pick ?? EMPTY_PICK), limit: Math.max(1, Math.min(50000, Number(e.target.value) || 1)) })} />
          </label>
        </>
      )}
    </div>
  );
}

/** Column, row, width and height as numbers: the same move as a drag, for those who prefer typing. */
function PositionFields({ position, cols, onPosition }: { position: WidgetPosition; cols: number; onPosition: (p: WidgetPosition) => void }) {
  const fields: { key: keyof WidgetPosition; label: string; min: number; max: number; offset: number }[] = [
    { key: 'x', label: 'Column', min: 1, max: cols, offset: 1 },
    { key: 'y', label: 'Row', min: 1, max: 999, offset: 1 },
    { key: 'w', label: 'Width', min: 1, max: cols, offset: 0 },
    { key: 'h', label: 'Height', min: 1, max: 60, offset: 0 },
  ];
  return (
    <fieldset className="wb-position">
      <legend className="field-label">Position (grid cells)</legend>
      {fields.map((f) => (
        <label key={f.key} className="inline-field">
          {f.label}
          <input
            type="number"
            min={f.min}
            max={f.max}
            value={position[f.key] + f.offset}
            aria-label={`Widget ${f.label.toLowerCase()}`}
            onChange={(e) => {
              const value = Number(e.target.value);
              if (Number.isFinite(value) && e.target.value !== '') onPosition({ ...position, [f.key]: value - f.offset });
            }}
          />
        </label>
      ))}
    </fieldset>
  );
}
