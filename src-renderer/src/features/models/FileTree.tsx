import { useId, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ModelsIcon } from './icons';
import { currentBranch, dirtyPaths, isEditable, useModels } from './store';
import { goTo } from './navigation';
import { plural } from '../../lib/plural';
import { countsByFile, type Counts } from './diagnostics';
import { buildTree, type TreeNode } from './file-tree';
import { SteppedRows } from '../../lib/SteppedRows';

function fileKind(name: string): string {
  const n = name.toLowerCase();
  if (/\.ya?ml(\.jinja)?$/.test(n)) return 'yml';
  if (n.endsWith('.js')) return 'js';
  if (n.endsWith('.ts')) return 'ts';
  if (n.endsWith('.sql')) return 'sql';
  if (n.endsWith('.json')) return 'json';
  if (n.endsWith('.md')) return 'md';
  if (n.endsWith('.py')) return 'py';
  return 'txt';
}

export function FileTree({ onNew, onRename, onDelete }: { onNew: () => void; onRename: (path: string) => void; onDelete: (path: string) => void }) {
  const files = useModels((s) => s.files);
  // Files are on their way while the branch list or the branch loads.
  const loading = useModels((s) => s.filesLoading || (s.branchName === null && s.error === null));
  const openPath = useModels((s) => s.openPath);
  const openFile = goTo;
  const dirty = useModels(useShallow(dirtyPaths));
  const editable = useModels((s) => isEditable(currentBranch(s)));
  const diagnostics = useModels((s) => s.analysis.diagnostics);
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const idPrefix = useId();

  const tree = useMemo(() => buildTree(files.map((f) => f.path)), [files]);
  const uncommitted = useMemo(() => new Set(files.filter((f) => f.uncommitted).map((f) => f.path)), [files]);
  const counts = useMemo(() => countsByFile(diagnostics), [diagnostics]);
  const dirtySet = useMemo(() => new Set(dirty), [dirty]);

  const toggle = (path: string) =>
    setCollapsed((previous) => {
      const next = new Set(previous);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  const folderCounts = (node: TreeNode): Counts => {
    if (node.kind === 'file') return counts.get(node.path) ?? { errors: 0, warnings: 0 };
    return node.children.map(folderCounts).reduce((a, b) => ({ errors: a.errors + b.errors, warnings: a.warnings + b.warnings }), { errors: 0, warnings: 0 });
  };

  // Badges, flags and counts are drawn by CSS from data attributes, so an item's visible text is its
  // name — the start of its accessible name (WCAG 2.5.3: speech users say what they see). A folder's
  // group is its sibling, owned through aria-owns, for the same reason.
  // A folder draws its first rows, and more on request (lib/SteppedRows.tsx): 12,500 rows made at
  // once held the window's thread over a second when a 10,000-cube branch opened. The row of the
  // open file (or of the folder that holds it) is drawn wherever it is.
  const render = (nodes: TreeNode[], depth: number) => {
    const open = openPath;
    return (
      <SteppedRows
        rows={nodes}
        pinned={open === null ? -1 : nodes.findIndex((n) => n.path === open || open.startsWith(`${n.path}/`))}
        moreItem={{ role: 'treeitem', 'aria-selected': false }}
        indent={8 + depth * 14 + 17}
        render={(node) => renderNode(node, depth)}
      />
    );
  };

  const renderNode = (node: TreeNode, depth: number) => {
    const indent = { paddingLeft: 8 + depth * 14 };
    if (node.kind === 'folder') {
      const open = !collapsed.has(node.path);
      const c = open ? null : folderCounts(node);
      const group = `${idPrefix}-${node.path.replace(/\s/g, '_')}`;
      return [
        <li key={node.path} role="treeitem" aria-expanded={open} aria-label={c?.errors ? `${node.name} (${plural(c.errors, 'error')})` : node.name} aria-selected={false} aria-owns={open ? group : undefined}>
          <button type="button" className="tree-row tree-folder" style={indent} onClick={() => toggle(node.path)} title={node.path}>
            <ModelsIcon name="chevron" size={12} className={`tree-chevron ${open ? 'open' : ''}`} />
            <ModelsIcon name="folder" className="tree-folder-icon" />
            <span className="tree-name">{node.name}</span>
            {c && c.errors > 0 && <span className="tree-count bad" data-count={c.errors} aria-hidden="true" />}
          </button>
        </li>,
        open && (
          <li key={`${node.path}/`} role="none">
            <ul role="group" id={group} className="tree-group">
              {render(node.children, depth + 1)}
            </ul>
          </li>
        ),
      ];
    }
    const c = counts.get(node.path);
    const isDirty = dirtySet.has(node.path);
    const selected = node.path === openPath;
    const state = [
      isDirty ? 'unsaved' : null,
      uncommitted.has(node.path) ? 'uncommitted' : null,
      c?.errors ? plural(c.errors, 'error') : null,
      c?.warnings ? plural(c.warnings, 'warning') : null,
    ]
      .filter(Boolean)
      .join(', ');
    const kind = fileKind(node.name);
    return [
      <li key={node.path} role="treeitem" aria-selected={selected} aria-label={`${node.name}${state ? ` (${state})` : ''}`} className={`tree-file ${selected ? 'selected' : ''}`}>
        <button type="button" className="tree-row" style={indent} onClick={() => openFile(node.path)} title={node.path}>
          <span className="tree-chevron-space" />
          <span className={`file-badge file-${kind}`} data-kind={kind} aria-hidden="true" />
          <span className={`tree-name ${c?.errors ? 'has-errors' : ''}`}>{node.name}</span>
          {isDirty && <span className="dirty-dot" title="Unsaved edits" />}
          {uncommitted.has(node.path) && <span className="tree-flag" data-flag="M" title="Saved on your dev branch, not committed yet" />}
          {c && c.errors > 0 && <span className="tree-count bad" data-count={c.errors} title={plural(c.errors, 'error')} />}
          {c && c.errors === 0 && c.warnings > 0 && <span className="tree-count warn" data-count={c.warnings} title={plural(c.warnings, 'warning')} />}
        </button>
        {editable && (
          <span className="tree-actions">
            <button type="button" className="tree-action" aria-label={`Rename ${node.path}`} title="Rename or move" onClick={() => onRename(node.path)}>
              <ModelsIcon name="pencil" size={12} />
            </button>
            <button type="button" className="tree-action" aria-label={`Delete ${node.path}`} title="Delete" onClick={() => onDelete(node.path)}>
              <ModelsIcon name="trash" size={12} />
            </button>
          </span>
        )}
      </li>,
    ];
  };

  return (
    <aside className="models-files" aria-label="Files" data-tour="files">
      <div className="models-pane-head">
        <span className="models-pane-title">Files</span>
        <span className="muted models-pane-meta">{files.length > 0 ? files.length : ''}</span>
        {editable && (
          <button type="button" className="btn btn-ghost btn-small" onClick={onNew} aria-label="New file">
            <ModelsIcon name="plus" size={12} /> New
          </button>
        )}
      </div>
      {loading && files.length === 0 ? (
        <div className="models-pane-empty">
          <span className="spinner" aria-hidden="true" /> Loading files…
        </div>
      ) : files.length === 0 ? (
        <div className="models-pane-empty">This branch has no files yet.</div>
      ) : (
        <ul role="tree" aria-label="Model files" className="tree">
          {render(tree, 0)}
        </ul>
      )}
    </aside>
  );
}
