// The Models workbench's layout (issue 24): which panes are open, their sizes in pixels and the bottom
// panel's tab. Sizes and open panes are remembered per service profile and signed-in user, so two people
// sharing a computer (or one person on two services) each get their own arrangement back.
import { create } from 'zustand';
import { useProfile } from '../../../app/profile';
import { useSession } from '../../../app/session';
import { DEFAULT_LAYOUT, layoutKey, parseLayout, type PaneLayout, type PanelTab } from './pane-layout';

export { DATA_SIDE_WIDTH, DEFAULT_LAYOUT, PANEL_HEIGHT, TREE_WIDTH, type PaneLayout, type PanelTab } from './pane-layout';

/** The storage key of the signed-in user on the active service. */
export function useLayoutKey(): string {
  const profile = useProfile((s) => s.active);
  const userId = useSession((s) => s.user?.id ?? null);
  return layoutKey(profile, userId);
}

interface WorkbenchLayoutState extends PaneLayout {
  /** Key the layout was read from; null until the workbench loads one. */
  key: string | null;
  panelTab: PanelTab;
  /** Where the cursor is in the open file, for the status bar. */
  cursor: { line: number; column: number } | null;
  load(key: string): void;
  /** Changes what is remembered (and remembers it). */
  update(change: Partial<PaneLayout>): void;
  toggleTree(): void;
  togglePanel(): void;
  /** Opens the bottom panel on a tab (the status bar's problem counts, the service check). */
  showPanel(tab: PanelTab): void;
  setPanelTab(tab: PanelTab): void;
  setCursor(cursor: { line: number; column: number } | null): void;
}

function store(key: string | null, layout: PaneLayout): void {
  if (!key) return;
  try {
    window.localStorage.setItem(key, JSON.stringify(layout));
  } catch {
    // Storage full or disabled: the layout lasts for this session only.
  }
}

const pick = ({ treeOpen, panelOpen, treeWidth, panelHeight, dataSideWidth }: PaneLayout): PaneLayout => ({ treeOpen, panelOpen, treeWidth, panelHeight, dataSideWidth });

export const useWorkbenchLayout = create<WorkbenchLayoutState>((set, get) => ({
  ...DEFAULT_LAYOUT,
  key: null,
  panelTab: 'problems',
  cursor: null,
  load(key) {
    if (get().key === key) return;
    let text: string | null = null;
    try {
      text = window.localStorage.getItem(key);
    } catch {
      // No storage: the defaults.
    }
    set({ key, ...parseLayout(text) });
  },
  update(change) {
    const next = { ...pick(get()), ...change };
    set(change);
    store(get().key, next);
  },
  toggleTree() {
    get().update({ treeOpen: !get().treeOpen });
  },
  togglePanel() {
    get().update({ panelOpen: !get().panelOpen });
  },
  showPanel(tab) {
    set({ panelTab: tab });
    if (!get().panelOpen) get().update({ panelOpen: true });
  },
  setPanelTab(tab) {
    set({ panelTab: tab });
  },
  setCursor(cursor) {
    const now = get().cursor;
    if (now?.line === cursor?.line && now?.column === cursor?.column) return;
    set({ cursor });
  },
}));
