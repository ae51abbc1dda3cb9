// The tray (notification-area) icon of the desktop app (issue 14 item 8): Open, New Login Link…,
// Quit, reachable while the window is closed or hidden. Free of Electron values: main.ts passes the
// Tray, Menu and window through `TrayDeps`, so the menu and its actions are unit-tested under Node.
import type { MenuItemConstructorOptions } from 'electron';
import { NEW_LOGIN_LINK_LABEL } from './app-menu';

export const TRAY_TOOLTIP = 'Drydock';

/** What the tray's actions do, given by main.ts. */
export interface TrayActions {
  /** Shows the window (creating it when none is open), restored and focused. */
  open(): void;
  /** The same action as File › New Login Link…. */
  newLoginLink(): void;
  /** Quits the app (the service stops cleanly first, see main.ts `before-quit`). */
  quit(): void;
}

/** The tray's context menu. */
export function trayMenuTemplate(actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { id: 'tray-open', label: 'Open Drydock', click: () => actions.open() },
    { id: 'tray-new-login-link', label: NEW_LOGIN_LINK_LABEL, click: () => actions.newLoginLink() },
    { type: 'separator' },
    { id: 'tray-quit', label: 'Quit Drydock', click: () => actions.quit() },
  ];
}

/** The part of Electron's `Tray` used here. */
export interface TrayLike {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface TrayDeps {
  /** `new Tray(icon)`; null where the desktop has no notification area (the app works without). */
  createTray(): TrayLike | null;
  /** `Menu.buildFromTemplate`. */
  buildMenu(template: MenuItemConstructorOptions[]): unknown;
  actions: TrayActions;
  platform: NodeJS.Platform;
}

/**
 * Puts the icon in the notification area with its menu. A click on the icon opens the window
 * (Windows and Linux; macOS shows the menu on click). Answers the tray, to destroy on quit.
 */
export function installTray(deps: TrayDeps): TrayLike | null {
  let tray: TrayLike | null;
  try {
    tray = deps.createTray();
  } catch (error) {
    // No status notifier on this desktop: the menu bar and the window still offer everything.
    console.warn('Drydock: no tray icon:', error instanceof Error ? error.message : String(error));
    return null;
  }
  if (!tray) return null;
  tray.setToolTip(TRAY_TOOLTIP);
  tray.setContextMenu(deps.buildMenu(trayMenuTemplate(deps.actions)));
  if (deps.platform !== 'darwin') tray.on('click', () => deps.actions.open());
  return tray;
}

/** The part of `BrowserWindow` that "Open" needs. */
export interface WindowLike {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  isVisible(): boolean;
  restore(): void;
  show(): void;
  focus(): void;
}

/**
 * Brings the window to the front: restores a minimized one, shows a hidden one, else asks for a
 * new window (none open, e.g. on macOS after closing it). Also used when a notification is clicked.
 */
export function bringToFront(window: WindowLike | null, createWindow: () => void): void {
  if (!window || window.isDestroyed()) {
    createWindow();
    return;
  }
  if (window.isMinimized()) window.restore();
  if (!window.isVisible()) window.show();
  window.focus();
}
