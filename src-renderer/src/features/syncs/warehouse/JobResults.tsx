// What a finished warehouse job produced: per pushed view its outcome, skipped features and the DDL
// that created it; for a pull, the model files written. Split from JobDetail (progress, errors, facts).
import { useMemo, useState } from 'react';
import type { PullResult, PushedView, PushResult } from '../../../../../src-shared/api/warehouse-sync';
import { DataTable, SelectLink } from '../../../lib/DataTable';
import { Badge, Button, EmptyState, Time } from '../../../lib/ui';
import { noun, plural } from '../../../lib/plural';
import { durationText, shortCommit } from '../data';
import { Stat } from '../parts';
import { ReadOnlyCode } from '../code';
import { ddlOf } from './format';

const SKIPPED_LABELS: Record<string, string> = {
  segments: 'Segments',
  access_policies: 'Access policies',
  hierarchies: 'Hierarchies',
  granularities: 'Custom granularities',
  view_filters: 'View filters',
  pre_aggregations: 'Pre-aggregations',
};

/** The head both result panels share: "Result", completed when. */
function ResultHead({ completedAt }: { completedAt: string }) {
  return (
    <div className="panel-head">
      <h2>Result</h2>
      <span className="muted">
        completed <Time value={completedAt} />
      </span>
    </div>
  );
}

export function PushResultView({ result }: { result: PushResult }) {
  const [selected, setSelected] = useState(result.views[0]?.viewName ?? null);
  const view = result.views.find((v) => v.viewName === selected) ?? result.views[0] ?? null;
  const warnings = result.views.reduce((n, v) => n + v.warnings.length, 0);
  return (
    <>
      <section className="panel" aria-label="Result">
        <ResultHead completedAt={result.completedAt} />
        <div className="sy-stats">
          <Stat label={noun(result.viewCount, 'semantic view')}>{result.viewCount}</Stat>
          <Stat label={noun(warnings, 'warning')}>{warnings}</Stat>
          <Stat label="duration">{durationText(result.durationMs)}</Stat>
          <Stat label="database · schema" hint={`${result.database}.${result.schema}`}>
            <code>
              {result.database}.{result.schema}
            </code>
          </Stat>
          <Stat label={`commit on ${result.branchName}`} hint={result.commit}>
            <code>{shortCommit(result.commit)}</code>
          </Stat>
        </div>
        {result.skipped.length > 0 && (
          <div className="sy-skipped">
            <span className="muted">Left out of the semantic views:</span>
            {result.skipped.map((f) => (
              <Badge key={f} tone={f === 'access_policies' ? 'warn' : 'neutral'}>
                {SKIPPED_LABELS[f] ?? f}
              </Badge>
            ))}
          </div>
        )}
        <div className="sy-scroll">
          <DataTable
            label="Pushed views"
            className="table-hover sy-result-table"
            rows={result.views}
            rowKey={(v) => v.viewName}
            selection={{ isSelected: (v) => v.viewName === view?.viewName, onSelect: (v) => setSelected(v.viewName) }}
            columns={[
              { header: 'View', cell: (v) => <SelectLink onSelect={() => setSelected(v.viewName)}>{v.viewName}</SelectLink> },
              { header: 'Semantic view', cellTitle: (v) => v.qualifiedName, cell: (v) => <code>{v.semanticViewName}</code> },
              { header: 'Action', cell: (v) => <Badge tone={v.action === 'created' ? 'good' : 'info'}>{v.action}</Badge> },
              { header: 'Helper views', priority: 1, cell: (v) => (v.helperViews.length ? v.helperViews.map((h) => <code key={h.name}>{h.name}</code>) : <span className="muted">—</span>) },
              { header: 'Warnings', className: 'num', cell: (v) => (v.warnings.length ? <Badge tone="warn">{plural(v.warnings.length, 'warning')}</Badge> : <span className="muted">0</span>) },
            ]}
          />
        </div>
      </section>
      {view && <DdlPanel view={view} />}
    </>
  );
}

function DdlPanel({ view }: { view: PushedView }) {
  const ddl = useMemo(() => ddlOf(view), [view]);
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(ddl).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <section className="panel" aria-label={`DDL of ${view.viewName}`}>
      <div className="panel-head">
        <h2>
          DDL · <code>{view.qualifiedName}</code>
        </h2>
        <Button className="btn-small" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      {view.warnings.length > 0 && (
        <ul className="sy-warnings">
          {view.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      {view.skipped.length > 0 && (
        <ul className="sy-skipped-list">
          {view.skipped.map((s) => (
            <li key={s.feature}>
              <span className="muted">{SKIPPED_LABELS[s.feature] ?? s.feature} skipped:</span> {s.items.map((item) => <code key={item}>{item}</code>)}
            </li>
          ))}
        </ul>
      )}
      <ReadOnlyCode value={ddl} language="sql" label={`DDL of ${view.viewName}`} />
    </section>
  );
}

export function PullResultView({ result }: { result: PullResult }) {
  const changed = result.generatedFiles.filter((f) => f.status !== 'unchanged').length;
  return (
    <section className="panel" aria-label="Result">
      <ResultHead completedAt={result.completedAt} />
      <div className="sy-stats">
        <Stat label={`${noun(result.viewCount, 'semantic view')} read`}>{result.viewCount}</Stat>
        <Stat label="duration">{durationText(result.durationMs)}</Stat>
        <Stat label="files changed">{changed}</Stat>
        <Stat label={`commit on ${result.branchName}`} hint={result.commit ?? 'Nothing changed, so nothing was committed'}>
          <code>{result.commit ? shortCommit(result.commit) : 'none'}</code>
        </Stat>
      </div>
      {result.generatedFiles.length === 0 ? (
        <EmptyState title="No semantic views matched">
          <code>
            {result.database}.{result.schema}
          </code>{' '}
          has no semantic view matching the request.
        </EmptyState>
      ) : (
        <div className="sy-scroll">
          <DataTable
            label="Generated files"
            className="sy-result-table"
            rows={result.generatedFiles}
            rowKey={(f) => f.path}
            columns={[
              { header: 'File', cell: (f) => <code>{f.path}</code> },
              { header: 'Semantic view', cell: (f) => <code>{f.semanticViewName}</code> },
              { header: 'Model view', priority: 1, cell: (f) => f.viewName },
              {
                header: 'Cubes',
                cellClassName: 'sy-cubes-cell',
                cell: (f) =>
                  f.cubes.length ? (
                    <span className="sy-chips">
                      {f.cubes.map((c) => (
                        <code key={c} className="sy-chip">
                          {c}
                        </code>
                      ))}
                    </span>
                  ) : (
                    <span className="muted">—</span>
                  ),
              },
              { header: 'Status', cell: (f) => <Badge tone={f.status === 'added' ? 'good' : f.status === 'modified' ? 'info' : 'neutral'}>{f.status}</Badge> },
            ]}
          />
        </div>
      )}
    </section>
  );
}
