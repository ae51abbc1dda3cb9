// The workbench's commands and their keys (issue 24), as VS Code binds them: Ctrl+B shows or hides the
// side bar (the file tree), Ctrl+J the bottom panel, Ctrl+Shift+M the problems. One list feeds the
// keyboard listener, the tooltips, quick open's `>` commands and Monaco's command palette (F1).
import { useEffect } from 'react';
import { useWorkbenchLayout } from './layout-store';

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export interface KeyBinding {
  /** `event.key`, lower case for letters. */
  key: string;
  /** Ctrl (⌘ on macOS). */
  mod: boolean;
  shift?: boolean;
  alt?: boolean;
}

/** `Ctrl+B`, `Ctrl+Shift+M` (`⌘B`, `⇧⌘M` on macOS). */
export function keyLabel(binding: KeyBinding): string {
  const key = binding.key.length === 1 ? binding.key.toUpperCase() : binding.key;
  if (isMac) return `${binding.alt ? '⌥' : ''}${binding.shift ? '⇧' : ''}${binding.mod ? '⌘' : ''}${key}`;
  return [binding.mod ? 'Ctrl' : null, binding.alt ? 'Alt' : null, binding.shift ? 'Shift' : null, key].filter(Boolean).join('+');
}

export function matches(binding: KeyBinding, event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>): boolean {
  const mod = isMac ? event.metaKey : event.ctrlKey;
  return event.key.toLowerCase() === binding.key && mod === binding.mod && event.shiftKey === (binding.shift ?? false) && event.altKey === (binding.alt ?? false);
}

export interface WorkbenchCommand {
  id: string;
  title: string;
  binding?: KeyBinding;
  run(): void;
}

export const TOGGLE_TREE: KeyBinding = { key: 'b', mod: true };
export const TOGGLE_PANEL: KeyBinding = { key: 'j', mod: true };
export const SHOW_PROBLEMS: KeyBinding = { key: 'm', mod: true, shift: true };

/** A control's tooltip with its key: `Hide the file tree (Ctrl+B)`. */
export const withKey = (title: string, binding: KeyBinding) => `${title} (${keyLabel(binding)})`;

/** The pane commands: they act on the Files view's panes. */
export const paneCommands: readonly WorkbenchCommand[] = [
  { id: 'workbench.toggleTree', title: 'View: Show or hide the file tree', binding: TOGGLE_TREE, run: () => useWorkbenchLayout.getState().toggleTree() },
  { id: 'workbench.togglePanel', title: 'View: Show or hide the bottom panel', binding: TOGGLE_PANEL, run: () => useWorkbenchLayout.getState().togglePanel() },
  { id: 'workbench.showProblems', title: 'View: Show problems', binding: SHOW_PROBLEMS, run: () => useWorkbenchLayout.getState().showPanel('problems') },
];

/** Commands the screen adds while it is shown (Validate, the views); quick open lists them after the pane commands. */
let screenCommands: readonly WorkbenchCommand[] = [];

export function setScreenCommands(commands: readonly WorkbenchCommand[]): () => void {
  screenCommands = commands;
  return () => {
    if (screenCommands === commands) screenCommands = [];
  };
}

export const allCommands = (): WorkbenchCommand[] => [...paneCommands, ...screenCommands];

/**
 * The pane keys anywhere on the Files view. Monaco binds the same keys as editor actions (so they
 * are in its F1 palette); when it handled a key it prevented the default, and this leaves it be.
 */
export function usePaneShortcuts(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      const command = paneCommands.find((c) => c.binding && matches(c.binding, event));
      if (!command) return;
      event.preventDefault();
      command.run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
