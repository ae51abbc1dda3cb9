import { useCallback, useEffect, useRef, useState } from 'react';
import { LOG_CONTAINERS, LOG_SOURCES, listDeploymentLogs, type LogContainer, type LogSource } from '../../../../src-shared/api/deployments';
import { api } from '../../app/session';
import { DataTable } from '../../lib/DataTable';
import { toShownError, type ShownError } from '../../lib/errors';
import { Badge, Button, EmptyState, ProblemBanner, Spinner } from '../../lib/ui';
import { logTime, mergeLogLines, type LogLine } from './logs';

const PAGE = 100;
const REFRESH_MS = 5000;
const LEVEL_TONES = { debug: 'neutral', info: 'info', warn: 'warn', error: 'bad' } as const;

/** Newest first; "Load older" follows the cursor; auto-refresh merges new lines in at the top. */
export function LogsTab({ deploymentId }: { deploymentId: number }) {
  const [source, setSource] = useState<LogSource | ''>('');
  const [container, setContainer] = useState<LogContainer | ''>('');
  const [lines, setLines] = useState<LogLine[] | null>(null);
  const [cursor, setCursor] = useState<{ endCursor: string | null; hasNextPage: boolean }>({ endCursor: null, hasNextPage: false });
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [auto, setAuto] = useState(false);
  const [refreshedAt, setRefreshedAt] = useState<Date | null>(null);
  // The filters a response belongs to; a response for older filters is dropped.
  const filterKey = `${deploymentId}|${source}|${container}`;
  const currentKey = useRef(filterKey);
  currentKey.current = filterKey;

  const fetchPage = useCallback(
    (after?: string) =>
      api.call(listDeploymentLogs, {
        params: { deploymentId },
        query: { first: PAGE, ...(source ? { source } : {}), ...(container ? { container } : {}), ...(after ? { after } : {}) },
      }),
    [deploymentId, source, container],
  );

  /** The newest page: replaces the list on a filter change, merges into it on a refresh. */
  const refresh = useCallback(
    async (mode: 'replace' | 'merge') => {
      const key = filterKey;
      setLoading(true);
      try {
        const page = await fetchPage();
        if (currentKey.current !== key) return;
        setLines((shown) => (mode === 'replace' || !shown ? page.items : mergeLogLines(shown, page.items)));
        if (mode === 'replace') setCursor({ endCursor: page.pageInfo.endCursor, hasNextPage: page.pageInfo.hasNextPage });
        setRefreshedAt(new Date());
        setError(null);
      } catch (failure) {
        if (currentKey.current === key) setError(toShownError(failure, 'Loading logs'));
      } finally {
        setLoading(false);
      }
    },
    [fetchPage, filterKey],
  );

  useEffect(() => {
    setLines(null);
    void refresh('replace');
  }, [refresh]);

  useEffect(() => {
    if (!auto) return;
    const timer = setInterval(() => void refresh('merge'), REFRESH_MS);
    return () => clearInterval(timer);
  }, [auto, refresh]);

  const loadOlder = async () => {
    if (!cursor.endCursor) return;
    const key = filterKey;
    setLoading(true);
    try {
      const page = await fetchPage(cursor.endCursor);
      if (currentKey.current !== key) return;
      setLines((shown) => mergeLogLines(shown ?? [], page.items));
      setCursor({ endCursor: page.pageInfo.endCursor, hasNextPage: page.pageInfo.hasNextPage });
      setError(null);
    } catch (failure) {
      setError(toShownError(failure, 'Loading older logs'));
    } finally {
      setLoading(false);
    }
  };

  return (
    <section className="panel" aria-label="Logs">
      <div className="toolbar filters">
        <FilterSelect label="Source" anyLabel="All sources" value={source} options={LOG_SOURCES} onChange={setSource} />
        <FilterSelect label="Container" anyLabel="All containers" value={container} options={LOG_CONTAINERS} onChange={setContainer} />
        <span className="grow" />
        <label className="check">
          <input type="checkbox" className="switch" role="switch" checked={auto} onChange={(e) => setAuto(e.target.checked)} aria-label="Auto-refresh" />
          Auto-refresh every {REFRESH_MS / 1000} s
        </label>
        {refreshedAt && <span className="muted small">updated {refreshedAt.toLocaleTimeString()}</span>}
        <Button className="btn-small" onClick={() => void refresh('merge')} busy={loading && lines !== null}>
          Refresh
        </Button>
      </div>
      <ProblemBanner error={error} onDismiss={() => setError(null)} />
      {lines === null ? (
        loading && <Spinner label="Loading logs…" />
      ) : lines.length === 0 ? (
        <EmptyState title="No log lines">{source || container ? 'Nothing matches these filters.' : 'The deployment has not logged anything yet.'}</EmptyState>
      ) : (
        <DataTable
          label="Log lines"
          wrapClassName="log-view"
          className="log-table"
          rows={lines}
          rowKey={(line) => line.id}
          rowClassName={(line) => `log-${line.level}`}
          columns={[
            {
              header: 'Time (UTC)',
              cellClassName: 'mono small',
              cellTitle: (line) => line.timestamp,
              cell: (line) => {
                const { time, date } = logTime(line.timestamp);
                return (
                  <>
                    {date && <span className="muted">{date} </span>}
                    {time}
                  </>
                );
              },
            },
            { header: 'Level', cell: (line) => <Badge tone={LEVEL_TONES[line.level]}>{line.level}</Badge> },
            { header: 'Source', cellClassName: 'small', cell: (line) => line.source },
            { header: 'Container', cell: (line) => <code className="small">{line.container}</code> },
            { header: 'Message', cellClassName: 'log-message', cell: (line) => line.message },
          ]}
        />
      )}
      {lines !== null && (
        <div className="more">
          {cursor.hasNextPage ? (
            <Button onClick={() => void loadOlder()} busy={loading}>
              Load older lines
            </Button>
          ) : (
            lines.length > 0 && <span className="muted small">
                {lines.length} {lines.length === 1 ? 'line' : 'lines'} — the beginning of the log.
              </span>
          )}
        </div>
      )}
    </section>
  );
}

/** One filter of the log: a value of `options`, or '' for any. */
function FilterSelect<T extends string>({ label, anyLabel, value, options, onChange }: { label: string; anyLabel: string; value: T | ''; options: readonly T[]; onChange: (value: T | '') => void }) {
  return (
    <label className="inline-field">
      {label}
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value as T | '')}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}
