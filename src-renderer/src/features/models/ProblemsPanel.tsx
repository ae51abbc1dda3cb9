import { useEffect, useMemo, useState } from 'react';
import type { ModelDiagnostic } from '../../../../src-shared/api/data-model';
import { ModelsIcon } from './icons';
import { useModels, type ServerVerdict } from './store';
import { goTo } from './navigation';
import { plural } from '../../lib/plural';
import { ReasonHelp } from '../../lib/plain/ReasonHelp';

type Severity = ModelDiagnostic['severity'];

/** Which analyzer a finding comes from, if any: they are warnings about later pushes and publications. */
export function analyzerOf(d: Pick<ModelDiagnostic, 'code' | 'reason'>): 'push' | 'publish' | null {
  const code = d.code;
  if (code === 'MODEL_NOT_PUSHABLE' || code.startsWith('MODEL_PUSH_')) return 'push';
  if (code === 'MODEL_NOT_PUBLISHABLE' || code.startsWith('MODEL_PUBLISH_') || ['MODEL_MEMBER_WITHHELD', 'MODEL_METADATA_NOT_REPRESENTABLE', 'MODEL_VIEW_JOIN_NOT_REPRESENTABLE'].includes(code)) {
    return 'publish';
  }
  return null;
}

const ANALYZER_PREFIX = /^Not (pushable as a warehouse semantic view|publishable as a lakehouse metric view) — /;

const SERVICE_HINT = 'Validate (above) compiles the saved files on the service.';

const basename = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Same errors (file, line, code) on both sides: the editor's verdict is the service's. */
export function sameVerdict(local: ModelDiagnostic[], server: ModelDiagnostic[]): boolean {
  const key = (d: ModelDiagnostic) => `${d.file}:${d.line}:${d.code}`;
  const a = local.filter((d) => d.severity === 'error').map(key).sort();
  const b = server.filter((d) => d.severity === 'error').map(key).sort();
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

function SeverityIcon({ severity }: { severity: Severity }) {
  return <ModelsIcon name={severity} className={`sev sev-${severity}`} />;
}

function DiagnosticRow({ d, onOpen }: { d: ModelDiagnostic; onOpen: (d: ModelDiagnostic) => void }) {
  const analyzer = analyzerOf(d);
  const message = analyzer ? d.message.replace(ANALYZER_PREFIX, '') : d.message;
  return (
    <li>
      <button type="button" className={`problem-row sev-row-${d.severity}`} onClick={() => onOpen(d)} title={`${d.file}:${d.line}:${d.column}`}>
        <SeverityIcon severity={d.severity} />
        <span className="problem-message">
          {analyzer && <span className={`analyzer-tag analyzer-${analyzer}`}>{analyzer === 'push' ? 'Warehouse push' : 'Lakehouse publish'}</span>}
          {message}
        </span>
        <code className="problem-code-tag">{d.reason ?? d.code}</code>
        <span className="problem-location">
          {basename(d.file)}
          <span className="muted">
            :{d.line}:{d.column}
          </span>
        </span>
      </button>
      {d.reason && (
        <ReasonHelp
          code={d.reason}
          action={
            <button type="button" className="link" onClick={() => onOpen(d)}>
              {d.reason === 'MODEL_PUBLISH_ACCESS_POLICY' ? 'Open the policy' : 'Open the line'} ({basename(d.file)}:{d.line})
            </button>
          }
        />
      )}
    </li>
  );
}

export function ProblemsPanel() {
  const analysis = useModels((s) => s.analysis);
  const openPath = useModels((s) => s.openPath);
  const openFile = goTo;
  const server = useModels((s) => s.server);
  const validating = useModels((s) => s.validating);
  const saved = useModels((s) => s.saved);
  const analyzersHeld = useModels((s) => s.analyzersHeld);
  const [tab, setTab] = useState<'local' | 'server'>('local');
  const [onlyOpenFile, setOnlyOpenFile] = useState(false);
  const [shown, setShown] = useState<Record<Severity, boolean>>({ error: true, warning: true, info: false });
  // One Validate button (in the screen's header): the service's verdict shows here, so its tab comes forward.
  useEffect(() => {
    if (validating) setTab('server');
  }, [validating]);

  const counts = useMemo(() => {
    const c = { error: 0, warning: 0, info: 0 };
    for (const d of analysis.diagnostics) c[d.severity]++;
    return c;
  }, [analysis.diagnostics]);

  const visible = useMemo(
    () =>
      analysis.diagnostics
        .filter((d) => shown[d.severity] && (!onlyOpenFile || d.file === openPath))
        .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : b.severity === 'error' ? 1 : a.severity === 'warning' ? -1 : 1)),
    [analysis.diagnostics, shown, onlyOpenFile, openPath],
  );

  const open = (d: ModelDiagnostic) => {
    if (saved[d.file] !== undefined) openFile(d.file, { line: d.line, column: d.column });
  };

  const status = analysis.failure
    ? `Compiler failed: ${analysis.failure}`
    : !analysis.ready
      ? 'Compiling…'
      : analysis.pending
        ? 'Checking…'
        : `${plural(analysis.fileCount, 'file')} · ${analysis.elapsedMs < 10 ? analysis.elapsedMs.toFixed(1) : Math.round(analysis.elapsedMs)} ms`;
  const statusTitle = analysis.failure
    ? status
    : analysis.ready
      ? `The editor's compiler checked ${plural(analysis.fileCount, 'model file')} (re-checking ${plural(analysis.recheckedEntities, 'cube or view', 'cubes and views')}) in ${analysis.elapsedMs.toFixed(1)} ms`
      : undefined;
  // Without the deployment's data sources the push and publish checks cannot tell which views go where: they wait.
  const held =
    analyzersHeld === 'reading'
      ? 'Push and publish checks wait for the deployment’s data sources (reading them again).'
      : analyzersHeld === 'unavailable'
        ? 'Push and publish checks are off: the deployment’s data sources could not be read. Reload the branch to try again.'
        : null;

  return (
    <section className="models-problems" aria-label="Problems" data-tour="problems">
      <div className="problems-head">
        <div className="problems-tabs" role="tablist">
          <button type="button" role="tab" aria-selected={tab === 'local'} className={`problems-tab ${tab === 'local' ? 'active' : ''}`} onClick={() => setTab('local')}>
            Problems
            <span className={`tab-count ${counts.error ? 'bad' : ''}`} aria-label={plural(counts.error, 'error')}>
              {counts.error}
            </span>
            <span className={`tab-count ${counts.warning ? 'warn' : ''}`} aria-label={plural(counts.warning, 'warning')}>
              {counts.warning}
            </span>
          </button>
          <button type="button" role="tab" aria-selected={tab === 'server'} className={`problems-tab ${tab === 'server' ? 'active' : ''}`} onClick={() => setTab('server')}>
            Service check
            {server && <ServerBadge verdict={server} />}
          </button>
        </div>
        {tab === 'local' ? (
          <>
            {/* Only the chips scroll in a narrow panel (1024×768): the compile status beside them stays in sight. */}
            <div className="problems-filters">
              {(['error', 'warning', 'info'] as const).map((severity) => (
                <button
                  key={severity}
                  type="button"
                  className={`chip ${shown[severity] ? 'on' : ''}`}
                  aria-pressed={shown[severity]}
                  onClick={() => setShown((s) => ({ ...s, [severity]: !s[severity] }))}
                >
                  <SeverityIcon severity={severity} />
                  {severity === 'info' ? `${counts.info} info` : plural(counts[severity], severity)}
                </button>
              ))}
              <label className="check chip-check">
                <input type="checkbox" checked={onlyOpenFile} onChange={(e) => setOnlyOpenFile(e.target.checked)} /> Open file only
              </label>
            </div>
            <span className={`problems-status ${analysis.failure ? 'bad' : ''}`} role="status" aria-live="polite" title={statusTitle}>
              {analysis.pending && <span className="spinner" aria-hidden="true" />} {status}
              {held && <span title={held}> · push/publish checks {analyzersHeld === 'reading' ? 'waiting' : 'off'}</span>}
            </span>
          </>
        ) : (
          <span className="problems-status" role="status" aria-live="polite" title={validating ? undefined : SERVICE_HINT}>
            {validating ? (
              <>
                <span className="spinner" aria-hidden="true" /> Validating on the service…
              </>
            ) : (
              SERVICE_HINT
            )}
          </span>
        )}
      </div>
      <div className="problems-body">
        {tab === 'local' ? (
          visible.length === 0 ? (
            <div className="problems-empty">
              {analysis.ready ? (
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
            <ul className="problem-list" aria-label="Diagnostics">
              {visible.map((d, i) => (
                <DiagnosticRow key={`${d.file}:${d.line}:${d.column}:${d.code}:${i}`} d={d} onOpen={open} />
              ))}
            </ul>
          )
        ) : (
          <ServerResult verdict={server} local={analysis.diagnostics} onOpen={open} />
        )}
      </div>
    </section>
  );
}

function ServerBadge({ verdict }: { verdict: ServerVerdict }) {
  return verdict.result.valid ? <span className="tab-count good">valid</span> : <span className="tab-count bad">{verdict.result.errorCount}</span>;
}

function ServerResult({ verdict, local, onOpen }: { verdict: ServerVerdict | null; local: ModelDiagnostic[]; onOpen: (d: ModelDiagnostic) => void }) {
  if (!verdict) {
    return <div className="problems-empty">Validate (at the top of the screen) compiles the saved files of this branch on the service, as a deploy would. Its verdict appears here.</div>;
  }
  const { result, unsavedAtCheck } = verdict;
  const agree = sameVerdict(local, result.diagnostics);
  return (
    <div className="server-result">
      <div className={`server-verdict ${result.valid ? 'good' : 'bad'}`} role="status">
        <ModelsIcon name={result.valid ? 'check' : 'error'} size={16} />
        <strong>{result.valid ? 'Valid' : 'Invalid'}</strong>
        <span>
          {plural(result.fileCount, 'model file')} at <code>{result.commit.slice(0, 10)}</code> on <code>{result.branchName}</code> · {plural(result.errorCount, 'error')} · {plural(result.warningCount, 'warning')}
        </span>
        <span className="muted server-agree">
          {unsavedAtCheck > 0
            ? `${unsavedAtCheck} unsaved ${unsavedAtCheck === 1 ? 'file was' : 'files were'} not part of this check.`
            : agree
              ? 'The editor reports the same errors.'
              : 'The editor’s errors differ: the editor also checks unsaved text; validate again after saving.'}
        </span>
      </div>
      {result.diagnostics.length > 0 && (
        <ul className="problem-list" aria-label="Service diagnostics">
          {result.diagnostics.map((d, i) => (
            <DiagnosticRow key={`${d.file}:${d.line}:${d.column}:${d.code}:${i}`} d={d} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </div>
  );
}
