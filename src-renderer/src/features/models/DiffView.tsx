import { useMemo, useState } from 'react';
import type { FileChange } from '../../../../src-shared/api/data-model';
import { DataTable, type Column } from '../../lib/DataTable';
import { fileDiff, type DiffRow } from './diff';
import { ModelsIcon } from './icons';

const STATUS_LABEL = { added: 'A', modified: 'M', deleted: 'D' } as const;

/** A unified diff: old and new line numbers, then the line; a note (“No newline at end of file”) has only its text. */
const DIFF_COLUMNS: Column<DiffRow>[] = [
  { header: 'Old line', cellClassName: lineNumberClass, cell: (row) => (row.kind === 'note' || row.kind === 'hunk' ? null : (row.oldLine ?? '')) },
  { header: 'New line', cellClassName: lineNumberClass, cell: (row) => (row.kind === 'note' || row.kind === 'hunk' ? null : (row.newLine ?? '')) },
  {
    header: 'Line',
    cellClassName: (row) => (row.kind === 'note' ? undefined : 'diff-text'),
    cell: (row) =>
      row.kind === 'note' ? (
        row.text
      ) : row.kind === 'hunk' ? null : (
        <>
          <span className="diff-mark" aria-hidden="true">
            {row.kind === 'added' ? '+' : row.kind === 'removed' ? '−' : ' '}
          </span>
          {row.text || ' '}
        </>
      ),
  },
];

function lineNumberClass(row: DiffRow): string | undefined {
  return row.kind === 'note' ? undefined : 'diff-ln';
}

function FileChangeView({ change, initiallyOpen }: { change: FileChange; initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const hasContent = change.before !== undefined || change.after !== undefined;
  const diff = useMemo(() => (hasContent ? fileDiff(change.path, change.before ?? null, change.after ?? null) : null), [change, hasContent]);
  return (
    <li className="diff-file">
      <button type="button" className="diff-file-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <ModelsIcon name="chevron" size={12} className={`tree-chevron ${open ? 'open' : ''}`} />
        <span className={`change-status change-${change.status}`} title={change.status}>
          {STATUS_LABEL[change.status]}
        </span>
        <span className="diff-path">{change.path}</span>
        {diff && (
          <span className="diff-stat">
            <span className="diff-plus">+{diff.added}</span> <span className="diff-minus">−{diff.removed}</span>
          </span>
        )}
      </button>
      {open && (
        <div className="diff-body">
          {!diff ? (
            <div className="muted diff-note">No content in the preview.</div>
          ) : diff.rows.length === 0 ? (
            <div className="muted diff-note">Content unchanged (mode or rename only).</div>
          ) : (
            <DataTable
              plain
              headless
              label={`Changes to ${change.path}`}
              className="diff-table"
              rows={diff.rows}
              rowKey={(_, i) => i}
              rowClassName={(row) => (row.kind === 'note' ? 'diff-noteline' : `diff-${row.kind}`)}
              fullWidthRow={(row) => (row.kind === 'hunk' ? row.header : null)}
              columns={DIFF_COLUMNS}
            />
          )}
        </div>
      )}
    </li>
  );
}

/** Per-file unified diffs of a dry run's changes; small change sets start expanded. */
export function DiffView({ changes }: { changes: FileChange[] }) {
  return (
    <ul className="diff-files" aria-label="Changed files">
      {changes.map((change, i) => (
        <FileChangeView key={change.path} change={change} initiallyOpen={changes.length <= 3 || i === 0} />
      ))}
    </ul>
  );
}
