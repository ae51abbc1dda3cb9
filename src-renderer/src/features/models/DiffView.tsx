import { useMemo, useState } from 'react';
import type { FileChange } from '../../../../src-shared/api/data-model';
import { fileDiff } from './diff';
import { ModelsIcon } from './icons';

const STATUS_LABEL = { added: 'A', modified: 'M', deleted: 'D' } as const;

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
            <table className="diff-table" aria-label={`Changes to ${change.path}`}>
              <tbody>
                {diff.rows.map((row, i) =>
                  row.kind === 'hunk' ? (
                    <tr key={i} className="diff-hunk">
                      <td colSpan={3}>{row.header}</td>
                    </tr>
                  ) : row.kind === 'note' ? (
                    <tr key={i} className="diff-noteline">
                      <td />
                      <td />
                      <td>{row.text}</td>
                    </tr>
                  ) : (
                    <tr key={i} className={`diff-${row.kind}`}>
                      <td className="diff-ln">{row.oldLine ?? ''}</td>
                      <td className="diff-ln">{row.newLine ?? ''}</td>
                      <td className="diff-text">
                        <span className="diff-mark" aria-hidden="true">
                          {row.kind === 'added' ? '+' : row.kind === 'removed' ? '−' : ' '}
                        </span>
                        {row.text || ' '}
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
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
