import type { MouseEvent } from 'react';
import { navigate } from '../../../app/router';
import { ModelsIcon, type ModelsIconName } from '../icons';
import { keyLabel, TOGGLE_TREE } from './commands';
import { useWorkbenchLayout } from './layout-store';

export type ModelsView = 'files' | 'data' | 'lineage' | 'review';

const VIEWS: readonly { id: ModelsView; title: string; icon: ModelsIconName; hint: string }[] = [
  { id: 'files', title: 'Files', icon: 'files', hint: 'Edit the model’s files' },
  { id: 'data', title: 'Data', icon: 'table', hint: 'Query the model and see its data' },
  { id: 'lineage', title: 'Lineage', icon: 'lineage', hint: 'What a cube or view is built from and used by' },
  { id: 'review', title: 'Review', icon: 'review', hint: 'What the branch changes, the numbers it moves, and the model tests' },
];

/**
 * The views of Models down the workbench's left edge, as VS Code's activity bar: each a link (its own
 * URL); the Files view's own button also shows or hides the file tree, as the Explorer's does.
 */
export function ActivityBar({ base, current, lineagePath }: { base: string; current: ModelsView; lineagePath: string }) {
  const toggleTree = useWorkbenchLayout((s) => s.toggleTree);
  const treeOpen = useWorkbenchLayout((s) => s.treeOpen);
  const go = (event: MouseEvent, id: ModelsView, to: string) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (id === 'files' && current === 'files') toggleTree();
    else navigate(to);
  };
  return (
    <nav className="wb-activity" aria-label="Models views">
      <div role="tablist" aria-orientation="vertical" aria-label="Models views">
        {VIEWS.map((v) => {
          const to = `${base}${v.id === 'files' ? '' : v.id === 'lineage' ? lineagePath : `/${v.id}`}`;
          const hint = v.id === 'files' && current === 'files' ? `${treeOpen ? 'Hide' : 'Show'} the file tree (${keyLabel(TOGGLE_TREE)})` : v.hint;
          return (
            <a key={v.id} role="tab" aria-selected={v.id === current} className={`wb-activity-item ${v.id === current ? 'active' : ''}`} href={to} title={hint} onClick={(e) => go(e, v.id, to)}>
              <ModelsIcon name={v.icon} size={18} />
              <span>{v.title}</span>
            </a>
          );
        })}
      </div>
    </nav>
  );
}
