// What the Models workbench remembers of its panes, and how it is read back (pure: the store in
// layout-store.ts keeps it in localStorage per service profile and user).

export type PanelTab = 'problems' | 'server';

/** What is remembered between sessions. */
export interface PaneLayout {
  treeOpen: boolean;
  panelOpen: boolean;
  /** Width of the file tree when open, px. */
  treeWidth: number;
  /** Height of the bottom panel when open, px. */
  panelHeight: number;
  /** Width of the Data view's side pane (members, vendor targets), px. */
  dataSideWidth: number;
}

export const DEFAULT_LAYOUT: PaneLayout = { treeOpen: true, panelOpen: true, treeWidth: 240, panelHeight: 200, dataSideWidth: 280 };

/** Bounds the panes keep whatever was stored (a value from a bigger screen, a hand-edited entry). */
export const TREE_WIDTH = { min: 160, max: 560 };
export const PANEL_HEIGHT = { min: 96, max: 720 };
export const DATA_SIDE_WIDTH = { min: 200, max: 520 };

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
    dataSideWidth: clamp(stored.dataSideWidth, DATA_SIDE_WIDTH, DEFAULT_LAYOUT.dataSideWidth),
  };
}

/** `drydock.models.layout.<profile>.<user id>` (a desktop session without a user: `desktop`). */
export function layoutKey(profile: string, userId: number | null): string {
  return `drydock.models.layout.${profile}.${userId ?? 'desktop'}`;
}

