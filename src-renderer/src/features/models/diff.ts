// Unified diff of one file's content before and after a commit, merge or pull, as rows to render.
import { structuredPatch } from 'diff';

export type DiffRow =
  | { kind: 'hunk'; header: string }
  | { kind: 'context' | 'added' | 'removed'; text: string; oldLine: number | null; newLine: number | null }
  /** A line the diff library marks as lacking a final newline. */
  | { kind: 'note'; text: string };

export interface FileDiff {
  rows: DiffRow[];
  added: number;
  removed: number;
}

/** Rows of the unified diff of `before` → `after` (null: the file does not exist on that side), with `context` lines around changes. */
export function fileDiff(path: string, before: string | null, after: string | null, context = 3): FileDiff {
  const patch = structuredPatch(path, path, before ?? '', after ?? '', '', '', { context });
  const rows: DiffRow[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    rows.push({ kind: 'hunk', header: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === '+') {
        rows.push({ kind: 'added', text, oldLine: null, newLine: newLine++ });
        added++;
      } else if (mark === '-') {
        rows.push({ kind: 'removed', text, oldLine: oldLine++, newLine: null });
        removed++;
      } else if (mark === '\\') {
        rows.push({ kind: 'note', text: text.trim() });
      } else {
        rows.push({ kind: 'context', text, oldLine: oldLine++, newLine: newLine++ });
      }
    }
  }
  return { rows, added, removed };
}
