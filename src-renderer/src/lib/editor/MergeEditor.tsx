// Monaco's diff editor for merging a stale save (a model file, a dashboard, settings): the service's
// version on the left (read-only), the user's text on the right (editable; the arrows in the gutter
// copy a change from the left).
import { useEffect, useRef } from 'react';
import type { editor as MonacoEditor } from 'monaco-editor';
import { monaco, themeFor } from './monaco';

export interface MergeEditorProps {
  /** Names the compared document (model URIs, screen-reader labels). */
  path: string;
  /** Monaco language id of both sides (`yaml`, `json`, …). */
  language: string;
  theirs: string;
  mine: string;
  /** Called with the right-hand text on every change. */
  onChange: (text: string) => void;
}

export default function MergeEditor({ path, language, theirs, mine, onChange }: MergeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    // Own URIs, so these models never collide with the editor's models of the same file.
    const stamp = Date.now().toString(36);
    const original = monaco.editor.createModel(theirs, language, monaco.Uri.from({ scheme: 'merge', path: `/${stamp}/theirs/${path}` }));
    const modified = monaco.editor.createModel(mine, language, monaco.Uri.from({ scheme: 'merge', path: `/${stamp}/mine/${path}` }));
    const editor: MonacoEditor.IStandaloneDiffEditor = monaco.editor.createDiffEditor(host.current, {
      theme: themeFor(window.matchMedia('(prefers-color-scheme: dark)').matches),
      automaticLayout: true,
      renderSideBySide: true,
      originalEditable: false,
      readOnly: false,
      minimap: { enabled: false },
      fontSize: 12,
      scrollBeyondLastLine: false,
      renderMarginRevertIcon: true,
      ignoreTrimWhitespace: false,
      originalAriaLabel: `${path} on the service (read-only)`,
      modifiedAriaLabel: `${path}, your version (editable)`,
    });
    editor.setModel({ original, modified });
    const changes = modified.onDidChangeContent(() => onChangeRef.current(modified.getValue()));
    return () => {
      changes.dispose();
      editor.dispose();
      original.dispose();
      modified.dispose();
    };
  }, [path, language, theirs, mine]);

  return <div ref={host} className="merge-editor" data-testid="merge-editor" />;
}
