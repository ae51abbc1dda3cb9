// The Models workbench's layout (issue 24): which panes are open, their sizes in pixels and the bottom
// panel's tab. Sizes and open panes are remembered per service profile and signed-in user, so two people
// sharing a computer (or one person on two services) each get their own arrangement back.
import { create } from 'zustand';
import { useProfile } from '../../../app/profile';
import { useSession } from '../../../app/session';

export type PanelTab = 'problems' | 'server';

/** What is remembered between sessions. */
export interface PaneLayout {
  treeOpen: boolean;
  panelOpen: boolean;
  /** Width of the file tree when open, px. */
  treeWidth: number;
  /** Height of the bottom panel when open, px. */
  panelHeight: number;
}

export const DEFAULT_LAYOUT: PaneLayout = { treeOpen: true, panelOpen: true, treeWidth: 240, panelHeight: 200 };

/** Bounds the panes keep whatever was stored (a value from a bigger screen, a hand-edited entry). */
export const TREE_WIDTH = { min: 160, max: 560 };
export const PANEL_HEIGHT = { min: 96, max: 720 };

const clamp = (value: unknown, { min, max }: { min: number; max: number }, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.round(Math.min(max, Math.max(min, value))) : fallback;

/** A stored layout as far as it can be trusted; the defaults for the rest. */
export function parseLayout(text: string | null): PaneLayout {
  let stored: Partial<Record<keyof PaneLayout, unknown>> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) stored = parsed as typeof stored;
  } catch {
    // A broken entry is replaced on the next change.
  }
  return {
    treeOpen: typeof stored.treeOpen === 'boolean' ? stored.treeOpen : DEFAULT_LAYOUT.treeOpen,
    panelOpen: typeof stored.panelOpen === 'boolean' ? stored.panelOpen : DEFAULT_LAYOUT.panelOpen,
    treeWidth: clamp(stored.treeWidth, TREE_WIDTH, DEFAULT_LAYOUT.treeWidth),
    panelHeight: clamp(stored.panelHeight, PANEL_HEIGHT, DEFAULT_LAYOUT.panelHeight),
  };
}

/** `drydock.models.layout.<profile>.<user id>` (a desktop session without a user: `desktop`). */
export function layoutKey(profile: string, userId: number | null): string {
  return `drydock.models.layout.${profile}.${userId ?? 'desktop'}`;
}

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

const pick = ({ treeOpen, panelOpen, treeWidth, panelHeight }: PaneLayout): PaneLayout => ({ treeOpen, panelOpen, treeWidth, panelHeight });

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
