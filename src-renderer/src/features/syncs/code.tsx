import { lazy, Suspense } from 'react';

const CodeEditor = lazy(() => import('../../lib/editor/CodeEditor'));

/** A read-only Monaco view sized to its text (up to `maxHeight`). */
export function ReadOnlyCode({ value, language, label, maxHeight = 480 }: { value: string; language: 'sql' | 'yaml'; label: string; maxHeight?: number }) {
  const lines = value.split('\n').length;
  const height = Math.min(maxHeight, Math.max(80, lines * 18 + 12));
  return (
    <div className="sy-code" aria-label={label}>
      {/* Focusable: the text scrolls, and a keyboard user must be able to scroll it (until the editor is up). */}
      <Suspense fallback={<pre className="sy-code-fallback" tabIndex={0}>{value}</pre>}>
        <CodeEditor value={value} language={language} readOnly height={height} ariaLabel={label} />
      </Suspense>
    </div>
  );
}
