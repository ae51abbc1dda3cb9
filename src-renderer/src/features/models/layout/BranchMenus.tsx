import { useCallback, useRef, useState } from 'react';
import type { Branch } from '../../../../../src-shared/api/data-model';
import { Button } from '../../../lib/ui';
import type { BranchOperation } from '../BranchOperationDialog';
import { ModelsIcon } from '../icons';
import { useDismiss } from './useDismiss';

/** ` · ↑1 ↓2` for a branch that tracks the team repository and differs from it. */
function upstreamSuffix(branch: Branch): string {
  if (!branch.upstream || branch.ahead === null || branch.behind === null || (branch.ahead === 0 && branch.behind === 0)) return '';
  return ` · ${branch.ahead ? `↑${branch.ahead}` : ''}${branch.ahead && branch.behind ? ' ' : ''}${branch.behind ? `↓${branch.behind}` : ''}`;
}

function roleLabel(branch: Branch, myId: number | undefined): string {
  if (branch.isDeployBranch) return `${branch.branchName} · deploy branch`;
  if (branch.kind === 'personal') {
    const mine = myId !== undefined && branch.ownerUserId === myId;
    return `${branch.branchName} · ${mine ? 'your dev branch' : `dev branch of user ${branch.ownerUserId ?? '?'}`}`;
  }
  return `${branch.branchName} · shared`;
}

/** What the branch picker says of a branch: its name, its role and how far it is from the team repository. */
export function branchLabel(branch: Branch, myId: number | undefined): string {
  return `${roleLabel(branch, myId)}${upstreamSuffix(branch)}`;
}

/**
 * Merge targets of a branch: its parent, and the deploy branch when that is another branch. One
 * entry per target: a branch forked from the deploy branch has only one.
 */
export function MergeMenu({ branch, deployBranch, onPick }: { branch: Branch; deployBranch: string; onPick: (operation: BranchOperation) => void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);
  const pick = (operation: BranchOperation) => {
    setOpen(false);
    onPick(operation);
  };
  const parent = branch.parentBranch ?? deployBranch;
  return (
    <div className="menu" ref={root}>
      <Button className="btn-small" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        Merge <ModelsIcon name="caret" size={12} />
      </Button>
      {open && (
        <div className="menu-list" role="menu" aria-label="Merge">
          <button type="button" role="menuitem" onClick={() => pick('merge')}>
            <strong>Merge into {parent}</strong>
            <span className="muted">{parent === deployBranch ? 'The deploy branch gets this branch’s commits.' : 'The parent branch gets this branch’s commits.'}</span>
          </button>
          {parent !== deployBranch && (
            <button type="button" role="menuitem" onClick={() => pick('merge-to-default')}>
              <strong>Merge into {deployBranch}</strong>
              <span className="muted">The deploy branch gets this branch’s commits directly.</span>
            </button>
          )}
        </div>
      )}
    </div>
  );
}
