// The Files view's panes (issue 24): file tree | editor over the bottom panel, in resizable split
// views (react-resizable-panels). The tree and the panel collapse and come back at the size they had;
// sizes are kept in pixels per user (layout-store.ts), so a wider window gives the editor the room.
import { useEffect, useRef, type RefObject } from 'react';
import { Group, Panel, Separator, usePanelRef, type PanelImperativeHandle } from 'react-resizable-panels';
import { FileTree } from '../FileTree';
import { ProblemsPanel } from '../ProblemsPanel';
import { QuickOpen } from '../QuickOpen';
import { usePaneShortcuts } from './commands';
import { EditorPane } from './EditorPane';
import { PANEL_HEIGHT, TREE_WIDTH, useWorkbenchLayout, type PaneLayout } from './layout-store';

/** The editor keeps at least this much room when the panes around it grow. */
const EDITOR_MIN = { width: 280, height: 140 };

/**
 * Keeps a collapsible pane in step with the store: the store's open flag collapses or expands it
 * (Ctrl+B, Ctrl+J, the toggles), and a drag that collapses or expands it updates the flag.
 */
function useCollapsible(ref: RefObject<PanelImperativeHandle | null>, open: boolean, size: number): void {
  useEffect(() => {
    const panel = ref.current;
    if (!panel) return;
    if (open && panel.isCollapsed()) {
      panel.expand();
      // Expanding restores the last size this session saw; the remembered one is the user's.
      panel.resize(size);
    } else if (!open && !panel.isCollapsed()) panel.collapse();
    // The size only matters at the moment the pane opens: a drag that changes it must not re-run this.
  }, [open, ref]);
}

export function FilesView({ onNew, onRename, onDelete }: { onNew: () => void; onRename: (path: string) => void; onDelete: (path: string) => void }) {
  const layout = useWorkbenchLayout();
  const tree = usePanelRef();
  const panel = usePanelRef();
  // The layout as it was when the panes mounted: later changes go through the panels' own API.
  const initial = useRef<PaneLayout>(layout).current;
  usePaneShortcuts(true);
  useCollapsible(tree, layout.treeOpen, layout.treeWidth);
  useCollapsible(panel, layout.panelOpen, layout.panelHeight);

  /** After a drag (or a keyboard resize of a separator): remember what the user made of the panes. */
  const remember = (which: 'tree' | 'panel') => {
    const handle = which === 'tree' ? tree.current : panel.current;
    if (!handle) return;
    const collapsed = handle.isCollapsed();
    const pixels = Math.round(handle.getSize().inPixels);
    const s = useWorkbenchLayout.getState();
    if (which === 'tree') s.update(collapsed ? { treeOpen: false } : { treeOpen: true, treeWidth: pixels });
    else s.update(collapsed ? { panelOpen: false } : { panelOpen: true, panelHeight: pixels });
  };

  return (
    <div className="wb-files">
      <Group orientation="horizontal" className="wb-panes" onLayoutChanged={(_, meta) => meta.isUserInteraction && remember('tree')}>
        <Panel
          id="models-tree"
          panelRef={tree}
          className="wb-pane wb-pane-tree"
          collapsible
          collapsedSize={0}
          minSize={TREE_WIDTH.min}
          maxSize={TREE_WIDTH.max}
          defaultSize={initial.treeOpen ? initial.treeWidth : 0}
          groupResizeBehavior="preserve-pixel-size"
        >
          <FileTree onNew={onNew} onRename={onRename} onDelete={onDelete} />
        </Panel>
        <Separator className="wb-separator wb-separator-v" aria-label="Resize the file tree" />
        <Panel id="models-main" className="wb-pane" minSize={EDITOR_MIN.width}>
          <Group orientation="vertical" className="wb-panes" onLayoutChanged={(_, meta) => meta.isUserInteraction && remember('panel')}>
            <Panel id="models-editor" className="wb-pane" minSize={EDITOR_MIN.height}>
              <EditorPane />
            </Panel>
            <Separator className="wb-separator wb-separator-h" aria-label="Resize the bottom panel" />
            <Panel
              id="models-panel"
              panelRef={panel}
              className="wb-pane wb-pane-panel"
              collapsible
              collapsedSize={0}
              minSize={PANEL_HEIGHT.min}
              maxSize={PANEL_HEIGHT.max}
              defaultSize={initial.panelOpen ? initial.panelHeight : 0}
              groupResizeBehavior="preserve-pixel-size"
            >
              <ProblemsPanel />
            </Panel>
          </Group>
        </Panel>
      </Group>
      <QuickOpen />
    </div>
  );
}
