import { lazy, Suspense } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Button, Spinner } from '../../../lib/ui';
import { ModelsIcon } from '../icons';
import { HistoryButtons } from '../QuickOpen';
import { currentBranch, dirtyPaths, isEditable, useModels } from '../store';
import { keyLabel, TOGGLE_PANEL, TOGGLE_TREE } from './commands';

const ModelEditor = lazy(() => import('../ModelEditor'));

/** The open file's path as breadcrumbs: folders muted, the file name strong. */
function Breadcrumbs({ path }: { path: string }) {
  const parts = path.split('/');
  return (
    <span className="editor-path" title={path}>
      {parts.map((part, i) => (
        <span key={i} className={i === parts.length - 1 ? 'editor-file' : 'editor-dir'}>
          {part}
          {i < parts.length - 1 && <span className="editor-sep">/</span>}
        </span>
      ))}
    </span>
  );
}

/** The editor: the open file's head (path, state, Save/Discard) over Monaco, or what to do when none is open. */
export function EditorPane() {
  const { openPath, busy, filesLoading } = useModels(useShallow((s) => ({ openPath: s.openPath, busy: s.busy, filesLoading: s.filesLoading })));
  const editable = useModels((s) => isEditable(currentBranch(s)));
  const openDirty = useModels((s) => s.openPath !== null && dirtyPaths(s).includes(s.openPath));
  const save = useModels((s) => s.save);
  const discard = useModels((s) => s.discard);
  return (
    <section className="editor-pane" aria-label="Editor">
      <div className="editor-head">
        <HistoryButtons />
        {openPath ? (
          <>
            <Breadcrumbs path={openPath} />
            {openDirty && <span className="dirty-label">● Unsaved</span>}
            {!editable && (
              <span className="readonly-label" title="This branch is read-only here: turn on Dev mode to edit on your own branch">
                Read-only
              </span>
            )}
            <span className="editor-head-spacer" />
            {editable && openDirty && (
              <Button className="btn-small" variant="ghost" disabled={busy !== null} onClick={() => discard([openPath])} title="Drop unsaved edits of this file">
                Discard
              </Button>
            )}
            {editable && (
              <Button className="btn-small" variant={openDirty ? 'primary' : 'default'} disabled={!openDirty || busy !== null} onClick={() => void save([openPath])} title="Save (Ctrl/Cmd+S)">
                Save
              </Button>
            )}
          </>
        ) : (
          <span className="muted">{filesLoading ? 'Loading the branch…' : 'Open a file from the tree.'}</span>
        )}
      </div>
      <div className="editor-area">
        <Suspense fallback={<Spinner label="Loading the editor…" />}>
          <ModelEditor />
        </Suspense>
        {!openPath && !filesLoading && (
          <div className="editor-empty">
            <ModelsIcon name="file" size={28} />
            <p>Pick a cube or view in the file tree.</p>
            <p className="muted">{editable ? 'Diagnostics update as you type; Ctrl/Cmd+S saves.' : 'Turn on dev mode to edit files on your personal branch.'}</p>
            <p className="muted">Ctrl/Cmd+P goes to a file or member (type &gt; for commands); F12 to a definition; Shift+F12 lists references; Alt+←/→ go back and forward.</p>
            <p className="muted">
              {keyLabel(TOGGLE_TREE)} shows or hides the file tree, {keyLabel(TOGGLE_PANEL)} the Problems panel.
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
