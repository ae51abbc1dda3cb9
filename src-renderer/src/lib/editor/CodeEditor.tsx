import { useEffect, useRef } from 'react';
import type { editor as MonacoEditor } from 'monaco-editor';
import { monaco, themeFor } from './monaco';

export interface CodeEditorProps {
  value: string;
  language: 'yaml' | 'json' | 'sql' | 'javascript' | 'plaintext';
  /** Monaco model URI path (e.g. `model/cubes/orders.yml`), used by YAML schemas' `fileMatch`. */
  path?: string;
  readOnly?: boolean;
  onChange?: (value: string) => void;
  height?: number | string;
  ariaLabel?: string;
}

const darkQuery = () => window.matchMedia('(prefers-color-scheme: dark)');

/** A Monaco editor bound to a controlled value. Load it with `React.lazy` (Monaco is large). */
export default function CodeEditor({ value, language, path, readOnly = false, onChange, height = 320, ariaLabel }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<MonacoEditor.IStandaloneCodeEditor | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const uri = path ? monaco.Uri.parse(`file:///${path.replace(/^\/+/, '')}`) : undefined;
    const model = monaco.editor.createModel(value, language, uri);
    const editor = monaco.editor.create(host.current, {
      model,
      readOnly,
      theme: themeFor(darkQuery().matches),
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 12,
      lineNumbersMinChars: 3,
      scrollBeyondLastLine: false,
      tabSize: 2,
      ariaLabel: ariaLabel ?? 'Code editor',
    });
    editorRef.current = editor;
    const changes = model.onDidChangeContent(() => onChangeRef.current?.(model.getValue()));
    const query = darkQuery();
    const onScheme = (event: MediaQueryListEvent) => monaco.editor.setTheme(themeFor(event.matches));
    query.addEventListener('change', onScheme);
    return () => {
      query.removeEventListener('change', onScheme);
      changes.dispose();
      editor.dispose();
      model.dispose();
      editorRef.current = null;
    };
    // Created once per language/path; later values flow through the effect below.
  }, [language, path]);

  useEffect(() => {
    const editor = editorRef.current;
    if (editor && editor.getValue() !== value) editor.setValue(value);
  }, [value]);

  useEffect(() => {
    editorRef.current?.updateOptions({ readOnly });
  }, [readOnly]);

  return <div className="code-editor" ref={host} style={{ height }} />;
}
