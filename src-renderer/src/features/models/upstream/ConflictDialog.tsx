// The conflict view of a pull: per conflicting file, Monaco's diff editor with the team repository's
// version (theirs, read-only) on the left and the resolution on the right (starts as this branch's
// version, editable). Committing sends every file's resolution with the upstream commit it was made
// against, so a remote that moved meanwhile is caught (UPSTREAM_MOVED) instead of being overwritten.
import { useEffect, useRef, useState } from 'react';
import type { editor as MonacoEditor } from 'monaco-editor';
import { pullFromUpstream } from '../../../../../src-shared/api/git-host';
import { api } from '../../../app/session';
import { monaco, themeFor } from '../../../lib/editor/monaco';
import { toShownError, type ShownError } from '../../../lib/errors';
import { Badge, Button, Dialog, ProblemBanner } from '../../../lib/ui';
import { languageOf } from '../languages';
import { conflictOf, hasConflictMarkers, initialResolution, pushLine, type PullConflict } from './conflict';
import { plural } from '../../../lib/plural';

interface FileState {
  original: MonacoEditor.ITextModel;
  resolution: MonacoEditor.ITextModel;
  /** Resolved by deleting the file. */
  deleted: boolean;
  touched: boolean;
}

let modelSeq = 0;

function modelsFor(conflict: PullConflict): Map<string, FileState> {
  const seq = ++modelSeq;
  const out = new Map<string, FileState>();
  for (const file of conflict.files) {
    const language = languageOf(file.path);
    const uri = (side: string) => monaco.Uri.from({ scheme: 'conflict', path: `/${seq}/${side}/${file.path}` });
    out.set(file.path, {
      original: monaco.editor.createModel(file.theirs ?? '', language, uri('theirs')),
      resolution: monaco.editor.createModel(initialResolution(file) ?? '', language, uri('resolution')),
      deleted: initialResolution(file) === null,
      touched: false,
    });
  }
  return out;
}

export default function ConflictDialog({ deploymentId, conflict: initial, onClose, onResolved }: { deploymentId: number; conflict: PullConflict; onClose: () => void; onResolved: (message: string) => void }) {
  const [conflict, setConflict] = useState(initial);
  const [files, setFiles] = useState<Map<string, FileState>>(() => modelsFor(initial));
  const [current, setCurrent] = useState(initial.files[0]?.path ?? '');
  const [, setVersion] = useState(0);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const host = useRef<HTMLDivElement>(null);
  const diffEditor = useRef<MonacoEditor.IStandaloneDiffEditor | null>(null);

  // One diff editor for the dialog's life; the file shown swaps its models.
  useEffect(() => {
    if (!host.current) return;
    const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
    diffEditor.current = monaco.editor.createDiffEditor(host.current, {
      automaticLayout: true,
      originalEditable: false,
      readOnly: false,
      renderSideBySide: true,
      theme: themeFor(dark),
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      fontSize: 13,
    });
    return () => {
      diffEditor.current?.dispose();
      diffEditor.current = null;
    };
  }, []);

  useEffect(
    () => () => {
      // Detach before disposing: Monaco refuses to dispose models a diff editor still shows.
      diffEditor.current?.setModel(null);
      files.forEach((f) => {
        f.original.dispose();
        f.resolution.dispose();
      });
    },
    [files],
  );

  const state = files.get(current);
  useEffect(() => {
    if (!diffEditor.current || !state) return;
    diffEditor.current.setModel({ original: state.original, modified: state.resolution });
    const sub = state.resolution.onDidChangeContent(() => {
      state.touched = true;
      setVersion((v) => v + 1);
    });
    return () => sub.dispose();
  }, [state]);

  const file = conflict.files.find((f) => f.path === current);
  const update = (path: string, change: (s: FileState) => void) => {
    const s = files.get(path);
    if (!s) return;
    change(s);
    s.touched = true;
    setVersion((v) => v + 1);
  };
  const take = (side: 'ours' | 'theirs') =>
    file &&
    update(file.path, (s) => {
      const content = file[side];
      s.deleted = content === null;
      if (content !== null) s.resolution.setValue(content);
    });

  const withMarkers = [...files.entries()].filter(([, s]) => !s.deleted && hasConflictMarkers(s.resolution.getValue())).map(([p]) => p);

  const commit = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await api.call(pullFromUpstream, {
        params: { deploymentId },
        body: {
          branchName: conflict.branchName,
          upstreamCommit: conflict.theirs,
          ...(message.trim() ? { message: message.trim() } : {}),
          resolutions: [...files.entries()].map(([path, s]) => ({ path, content: s.deleted ? null : s.resolution.getValue() })),
        },
      });
      const pushed = result.push ? ` ${pushLine(result.push.status, result.upstream)}` : '';
      onResolved(`Merged ${result.upstream} into ${result.branchName} with ${plural(files.size, 'resolved file')} (${result.commit.slice(0, 7)}).${pushed}`);
    } catch (failure) {
      const again = conflictOf(failure);
      if (again) {
        // The remote moved and conflicts anew: resolve against the new upstream commit.
        setConflict(again);
        setFiles(modelsFor(again));
        setCurrent(again.files[0]?.path ?? '');
        setError({ title: 'The team repository moved', detail: `${again.upstream} has new commits; the conflicts below are against ${again.theirs.slice(0, 7)}.`, code: 'MERGE_CONFLICT', status: 409, fields: [] });
      } else {
        setError(toShownError(failure, 'Commit the merge'));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title={`Resolve the conflicts of pulling ${conflict.upstream} into ${conflict.branchName}`}
      open
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} onClick={() => void commit()} title="Commit the merge with these resolutions and push it">
            Commit merge
          </Button>
        </>
      }
    >
      <div className="conflict-view">
        <p className="muted">
          Nothing has changed yet. Left: <strong>{conflict.upstream}</strong> of the team repository ({conflict.theirs.slice(0, 7)}). Right: the result, starting from{' '}
          <strong>{conflict.branchName}</strong> ({conflict.ours.slice(0, 7)}); edit it until it is what both sides should have.
        </p>
        <ProblemBanner error={error} onDismiss={() => setError(null)} />
        <div className="conflict-body">
          <ul className="conflict-files" aria-label="Conflicting files">
            {conflict.files.map((f) => {
              const s = files.get(f.path);
              return (
                <li key={f.path}>
                  <button type="button" className={f.path === current ? 'active' : ''} aria-current={f.path === current} onClick={() => setCurrent(f.path)}>
                    <code>{f.path}</code>
                    {s?.deleted ? <Badge tone="warn">deleted</Badge> : s?.touched ? <Badge tone="good">edited</Badge> : <Badge>ours</Badge>}
                  </button>
                </li>
              );
            })}
          </ul>
          <div className="conflict-main">
            {file && (
              <div className="conflict-tools">
                <Button className="btn-small" onClick={() => take('theirs')} disabled={file.theirs === null && state?.deleted}>
                  {file.theirs === null ? 'Take theirs (deleted)' : 'Use theirs'}
                </Button>
                <Button className="btn-small" onClick={() => take('ours')}>
                  {file.ours === null ? 'Take ours (deleted)' : 'Use ours'}
                </Button>
                {!state?.deleted ? (
                  <Button className="btn-small" variant="ghost" onClick={() => update(file.path, (s) => (s.deleted = true))}>
                    Delete the file
                  </Button>
                ) : (
                  <Button className="btn-small" variant="ghost" onClick={() => update(file.path, (s) => (s.deleted = false))}>
                    Keep the file
                  </Button>
                )}
                {state?.deleted && <span className="muted">The merge deletes this file.</span>}
              </div>
            )}
            <div className="conflict-sides" aria-hidden="true">
              <span>{conflict.upstream} · team repository (theirs)</span>
              <span>Result (starts as {conflict.branchName}, editable)</span>
            </div>
            <div className="conflict-editor" data-testid="conflict-editor" ref={host} />
          </div>
        </div>
        {withMarkers.length > 0 && (
          <div className="notice" role="status">
            Conflict markers are still in {withMarkers.join(', ')}.
          </div>
        )}
        <div className="field">
          <label htmlFor="conflict-message">Merge message (optional)</label>
          <input id="conflict-message" value={message} onChange={(e) => setMessage(e.target.value)} placeholder={`Merge ${conflict.upstream} into ${conflict.branchName}`} maxLength={5000} />
        </div>
      </div>
    </Dialog>
  );
}
