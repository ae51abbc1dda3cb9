// The bottom panel of the Files view: the editor's problems (as you type) and the service check's
// verdict. A problem's message gets the row's width; its code and place sit beside it in a wide panel
// and under it in a narrow one (issue 24), and the filter chips shrink to their counts, never clipped.
import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { plural } from '../../lib/plural';
import { ReasonHelp } from '../../lib/plain/ReasonHelp';
import { analyzerOf, basename, type ShownDiagnostic } from './diagnostics';
import { ModelsIcon } from './icons';
import { TOGGLE_PANEL, withKey } from './layout/commands';
import { useWorkbenchLayout } from './layout/layout-store';
import { comparison, staleReason } from './layout/verdict';
import { goTo } from './navigation';
import { useModels, type ServerVerdict } from './store';
import { SteppedRows } from '../../lib/SteppedRows';

type Severity = ShownDiagnostic['severity'];

const ANALYZER_PREFIX = /^Not (pushable as a warehouse semantic view|publishable as a lakehouse metric view) — /;

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function SeverityIcon({ severity }: { severity: Severity }) {
  return <ModelsIcon name={severity} className={`sev sev-${severity}`} />;
}

/** Opens a file, at a place in it when given. */
type OpenFile = (file: string, at?: { line: number; column: number }) => void;

function DiagnosticRow({ d, onOpen }: { d: ShownDiagnostic; onOpen: OpenFile }) {
  const analyzer = analyzerOf(d);
  const message = analyzer ? d.message.replace(ANALYZER_PREFIX, '') : d.message;
  const at = { line: d.line, column: d.column };
  return (
    <li className="problem-item">
      <button type="button" className={`problem-row sev-row-${d.severity}`} onClick={() => onOpen(d.file, at)} title={`${d.file}:${d.line}:${d.column}`}>
        <SeverityIcon severity={d.severity} />
        <span className="problem-text">
          <span className="problem-message">
            {analyzer && <span className={`analyzer-tag analyzer-${analyzer}`}>{analyzer === 'push' ? 'Warehouse push' : 'Lakehouse publish'}</span>}
            {message}
          </span>
          <span className="problem-meta">
            <code className="problem-code-tag">{d.reason ?? d.code}</code>
            <span className="problem-location">
              {basename(d.file)}
              <span className="muted">
                :{d.line}:{d.column}
              </span>
            </span>
          </span>
        </span>
      </button>
      {(d.reason || d.viewFile) && (
        <div className="problem-extra">
          {d.viewFile && (
            <button type="button" className="link problem-view-link" onClick={() => onOpen(d.viewFile!)} title={d.viewFile}>
              Open the view ({basename(d.viewFile)})
            </button>
          )}
          {d.reason && (
            <ReasonHelp
              code={d.reason}
              action={
                <button type="button" className="link" onClick={() => onOpen(d.file, at)}>
                  {d.reason === 'MODEL_PUBLISH_ACCESS_POLICY' ? 'Open the policy' : 'Open the line'} ({basename(d.file)}:{d.line})
                </button>
              }
            />
          )}
        </div>
      )}
    </li>
  );
}

function Filters({
  counts,
  shown,
  onToggle,
  onlyOpenFile,
  onOnlyOpenFile,
}: {
  counts: Record<Severity, number>;
  shown: Record<Severity, boolean>;
  onToggle: (severity: Severity) => void;
  onlyOpenFile: boolean;
  onOnlyOpenFile: (value: boolean) => void;
}) {
  return (
    <div className="problems-filters" role="group" aria-label="Show">
      {(['error', 'warning', 'info'] as const).map((severity) => {
        const [count, ...word] = (severity === 'info' ? `${counts.info} info` : plural(counts[severity], severity)).split(' ');
        return (
          <button key={severity} type="button" className={`chip ${shown[severity] ? 'on' : ''}`} aria-pressed={shown[severity]} onClick={() => onToggle(severity)} title={`${shown[severity] ? 'Hide' : 'Show'} ${severity === 'info' ? 'info' : `${severity}s`}`}>
            <SeverityIcon severity={severity} />
            {count}
            <span className="chip-word"> {word.join(' ')}</span>
          </button>
        );
      })}
      <button type="button" className={`chip chip-icon ${onlyOpenFile ? 'on' : ''}`} aria-pressed={onlyOpenFile} onClick={() => onOnlyOpenFile(!onlyOpenFile)} title="Only the problems of the open file">
        <ModelsIcon name="file" size={13} />
        <span className="chip-word">Open file only</span>
      </button>
    </div>
  );
}

export function ProblemsPanel() {
  const analysis = useModels((s) => s.analysis);
  const openPath = useModels((s) => s.openPath);
  const server = useModels((s) => s.server);
  const saved = useModels((s) => s.saved);
  const { tab, setTab, togglePanel } = useWorkbenchLayout(useShallow((s) => ({ tab: s.panelTab, setTab: s.setPanelTab, togglePanel: s.togglePanel })));
  const stale = useModels((s) => staleReason(s));
  const [onlyOpenFile, setOnlyOpenFile] = useState(false);
  const [shown, setShown] = useState<Record<Severity, boolean>>({ error: true, warning: true, info: false });

  const counts = useMemo(() => {
    const c = { error: 0, warning: 0, info: 0 };
    for (const d of analysis.diagnostics) c[d.severity]++;
    return c;
  }, [analysis.diagnostics]);

  const diagnostics = analysis.diagnostics as ShownDiagnostic[];
  const visible = useMemo(
    () =>
      diagnostics
        .filter((d) => shown[d.severity] && (!onlyOpenFile || d.file === openPath || d.viewFile === openPath))
        .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]),
    [diagnostics, shown, onlyOpenFile, openPath],
  );

  const open = (file: string, at?: { line: number; column: number }) => {
    if (saved[file] !== undefined) goTo(file, at);
  };

  return (
    <section className="models-problems" aria-label="Problems" data-tour="problems">
      <div className="problems-head">
        <div className="problems-tabs" role="tablist" aria-label="Panel">
          <button type="button" role="tab" aria-selected={tab === 'problems'} className={`problems-tab ${tab === 'problems' ? 'active' : ''}`} onClick={() => setTab('problems')}>
            Problems
            <span className={`tab-count ${counts.error ? 'bad' : ''}`} title={plural(counts.error, 'error')}>
              {counts.error}
              <span className="sr-only"> {counts.error === 1 ? 'error' : 'errors'}</span>
            </span>
            <span className={`tab-count ${counts.warning ? 'warn' : ''}`} title={plural(counts.warning, 'warning')}>
              {counts.warning}
              <span className="sr-only"> {counts.warning === 1 ? 'warning' : 'warnings'}</span>
            </span>
          </button>
          <button type="button" role="tab" aria-selected={tab === 'server'} className={`problems-tab ${tab === 'server' ? 'active' : ''}`} onClick={() => setTab('server')}>
            Service check
            {server && <ServerBadge verdict={server} stale={stale !== null} />}
          </button>
        </div>
        {tab === 'problems' && (
          <Filters counts={counts} shown={shown} onToggle={(severity) => setShown((s) => ({ ...s, [severity]: !s[severity] }))} onlyOpenFile={onlyOpenFile} onOnlyOpenFile={setOnlyOpenFile} />
        )}
        <button type="button" className="icon-button panel-close" onClick={togglePanel} title={withKey('Hide the panel', TOGGLE_PANEL)}>
          <ModelsIcon name="caret" size={14} />
          <span className="sr-only">Hide the panel</span>
        </button>
      </div>
      <div className="problems-body">
        {tab === 'problems' ? (
          visible.length === 0 ? (
            <div className="problems-empty">
              {analysis.failure ? (
                <span className="sev-error">The editor’s compiler failed: {analysis.failure}</span>
              ) : analysis.ready ? (
                counts.error === 0 && counts.warning === 0 ? (
                  <>
                    <ModelsIcon name="check" className="sev-ok" /> No problems found.
                  </>
                ) : (
                  'Nothing matches the filters.'
                )
              ) : (
                'Compiling the branch…'
              )}
            </div>
          ) : (
            <DiagnosticList label="Diagnostics" rows={visible} onOpen={open} />
          )
        ) : (
          <ServerResult verdict={server} local={diagnostics} stale={stale} onOpen={open} />
        )}
      </div>
    </section>
  );
}

function ServerBadge({ verdict, stale }: { verdict: ServerVerdict; stale: boolean }) {
  if (stale) return <span className="tab-count warn">stale</span>;
  return verdict.result.valid ? <span className="tab-count good">valid</span> : <span className="tab-count bad">{verdict.result.errorCount}</span>;
}

/** A list of problems, drawn a step at a time (see SteppedRows). */
function DiagnosticList({ label, rows, onOpen }: { label: string; rows: readonly ShownDiagnostic[]; onOpen: OpenFile }) {
  return (
    <ul className="problem-list" aria-label={label}>
      <SteppedRows rows={rows} render={(d, i) => <DiagnosticRow key={`${d.file}:${d.line}:${d.column}:${d.code}:${i}`} d={d} onOpen={onOpen} />} />
    </ul>
  );
}

function ServerResult({ verdict, local, stale, onOpen }: { verdict: ServerVerdict | null; local: ShownDiagnostic[]; stale: string | null; onOpen: OpenFile }) {
  const validating = useModels((s) => s.validating);
  if (!verdict) {
    return (
      <div className="problems-empty">
        {validating ? (
          <>
            <span className="spinner" aria-hidden="true" /> Validating on the service…
          </>
        ) : (
          'Validate (in the bar at the top) compiles the saved files of this branch on the service, as a deploy would. Its verdict appears here.'
        )}
      </div>
    );
  }
  const { result, unsavedAtCheck } = verdict;
  const tone = stale ? 'stale' : result.valid ? 'good' : 'bad';
  return (
    <div className="server-result">
      <div className={`server-verdict ${tone}`} role="status">
        <ModelsIcon name={stale ? 'warning' : result.valid ? 'check' : 'error'} size={16} />
        <strong>{stale ? 'Stale' : result.valid ? 'Valid' : 'Invalid'}</strong>
        <span>
          {stale ? `was ${result.valid ? 'valid' : 'invalid'}: ` : ''}
          {plural(result.fileCount, 'model file')} at <code>{result.commit.slice(0, 10)}</code> on <code>{result.branchName}</code> · {plural(result.errorCount, 'error')} · {plural(result.warningCount, 'warning')}
          {validating && (
            <>
              {' '}
              · <span className="spinner" aria-hidden="true" /> validating again…
            </>
          )}
        </span>
        <span className="muted server-agree">{comparison(local, result.diagnostics, unsavedAtCheck, stale)}</span>
      </div>
      {result.diagnostics.length > 0 && (
        <DiagnosticList label="Service diagnostics" rows={result.diagnostics} onOpen={onOpen} />
      )}
    </div>
  );
}
