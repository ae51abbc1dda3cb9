// The desktop app's menu, with "New login link…" (issue 14 item 8): a new one-time login link for
// the browser UI of the running service, without restarting it — the same link `drydock login-link`
// prints. Free of Electron values (types only): main.ts passes in the dialog, clipboard, browser and
// the minting, so the template and the action are unit-tested under plain Node.
import type { MenuItemConstructorOptions } from 'electron';
import type { LoginLink } from '../cli/login-link';

export const NEW_LOGIN_LINK_LABEL = 'New Login Link…';
export const NEW_LOGIN_LINK_ACCELERATOR = 'CmdOrCtrl+Shift+L';

/** What the user chose in the dialog that shows the new link. */
export type LoginLinkChoice = 'open' | 'copy' | 'close';

export interface NewLoginLinkDeps {
  /** The serving process's URL, or null while none serves (starting, restarting). */
  serviceUrl(): string | null;
  /** Mints a one-time link for `url` (cli/login-link.ts, on the app's data dir). */
  mint(url: string): LoginLink;
  /** Shows the link and asks what to do with it. */
  ask(link: LoginLink): Promise<LoginLinkChoice>;
  copy(text: string): void;
  openInBrowser(url: string): Promise<void>;
  /** Tells the user why there is no link. */
  fail(message: string): void;
}

/** The dialog's text and buttons (order = LoginLinkChoice order of `choiceOf`). */
export function loginLinkDialog(link: LoginLink) {
  return {
    type: 'info' as const,
    title: 'Drydock',
    message: 'A new one-time login link for the browser',
    detail: `Opens Drydock in a browser as ${link.email}. It works once, within ${Math.round(link.expiresInSeconds / 60)} minutes.\n\n${link.url}`,
    buttons: ['Open in Browser', 'Copy Link', 'Close'],
    defaultId: 0,
    cancelId: 2,
    noLink: true,
  };
}

export const choiceOf = (response: number): LoginLinkChoice => (response === 0 ? 'open' : response === 1 ? 'copy' : 'close');

/** The menu action: mint, show, and open or copy the link as the user chooses. */
export function createNewLoginLinkAction(deps: NewLoginLinkDeps): () => Promise<void> {
  return async () => {
    const url = deps.serviceUrl();
    if (!url) {
      deps.fail('The Drydock service is not running right now (it is starting or restarting). Try again in a moment.');
      return;
    }
    let link: LoginLink;
    try {
      link = deps.mint(url);
    } catch (error) {
      deps.fail(`No login link could be made: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const choice = await deps.ask(link);
    if (choice === 'copy') deps.copy(link.url);
    else if (choice === 'open') await deps.openInBrowser(link.url);
  };
}

/** The application menu. `newLoginLink` runs from the File menu (or its accelerator). */
export function appMenuTemplate(options: { platform: NodeJS.Platform; newLoginLink: () => void }): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const loginLink: MenuItemConstructorOptions = {
    id: 'new-login-link',
    label: NEW_LOGIN_LINK_LABEL,
    accelerator: NEW_LOGIN_LINK_ACCELERATOR,
    click: () => options.newLoginLink(),
  };
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    { label: 'File', submenu: [loginLink, { type: 'separator' }, mac ? { role: 'close' } : { role: 'quit' }] },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [{ role: 'reload' }, { role: 'forceReload' }, { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }],
    },
    { role: 'windowMenu' },
  ];
}
