// Electron main process: draws one hardened window and nothing else. The service (HTTP API,
// jobs, compiles) runs in its own utility process on a random loopback port, restarted if it
// dies (service-host.ts). The page gets the service URL and a session token through the preload
// bridge; it never persists the token.
import { app, BrowserWindow, clipboard, ipcMain, Menu, nativeImage, Notification, session, shell, dialog, Tray, utilityProcess } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IPC_CHANNELS } from './channels';
import { createExternalLinkOpener, externalLinkDialog } from './external-links';
import { hardenSession, hardenWebContents, parseNotifyPayload, registerIpcHandlers, secureWebPreferences, type TrustedSender } from './security';
import { createServiceHost, type ServiceHost } from './service-host';
import { appMenuTemplate, choiceOf, createNewLoginLinkAction, loginLinkDialog } from './app-menu';
import { mintLoginLink } from '../cli/login-link';
import { createDesktopNotifier } from './desktop-notify';
import { bringToFront, installTray, type TrayLike } from './tray';

const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));
/** The app icon: resources/icon.png of the repo, packed into the app at the same place (electron-builder.yml `files`). */
const iconPath = fileURLToPath(new URL('../../resources/icon.png', import.meta.url));
/** The service process's entry, built next to this file (electron.vite.config.ts). */
const serviceEntry = fileURLToPath(new URL('./service-process.js', import.meta.url));

let host: ServiceHost | null = null;
const dataDir = () => join(app.getPath('userData'), 'data');
let mainWindow: BrowserWindow | null = null;

/** `electron-vite dev` serves the renderer with hot reload from its own origin; it calls the service cross-origin. */
const devRendererUrl = !app.isPackaged ? (process.env.ELECTRON_RENDERER_URL ?? null) : null;
/** The origin the window shows: the service itself, or the dev server in development. */
const serviceUrl = () => host?.url() ?? null;
const appOrigin = () => (devRendererUrl ? new URL(devRendererUrl).origin : serviceUrl() ? new URL(serviceUrl()!).origin : null);
const trustedSender = (): TrustedSender | null =>
  mainWindow && !mainWindow.isDestroyed() && appOrigin() ? { webContentsId: mainWindow.webContents.id, serviceOrigin: appOrigin()! } : null;

let tray: TrayLike | null = null;

/** Shows the window, restoring, un-hiding or re-creating it (tray "Open", a clicked notification). */
const showWindow = () =>
  bringToFront(mainWindow, () => {
    const current = devRendererUrl ?? serviceUrl();
    if (current) mainWindow = createWindow(current);
  });

/** A desktop notification; answers true once clicked, after the window came to the front. */
const notifyAndWait = createDesktopNotifier({
  create: (title, body) => (Notification.isSupported() ? new Notification({ title, body }) : null),
  focusWindow: showWindow,
});
const notify = (title: string, body: string) => void notifyAndWait(title, body);

/** The service process, supervised: the user hears when it dies, comes back, or cannot be kept running. */
function serviceHost(): ServiceHost {
  return createServiceHost({
    spawn: () => {
      const child = utilityProcess.fork(serviceEntry, [], { serviceName: 'Drydock service', stdio: 'inherit' });
      return {
        postMessage: (message) => child.postMessage(message),
        onMessage: (listener) => void child.on('message', listener),
        onExit: (listener) => void child.on('exit', (code) => listener(code)),
        kill: () => void child.kill(),
      };
    },
    service: {
      dataDir: dataDir(),
      secrets: 'keychain',
      port: 0,
      rendererDir,
      corsOrigins: devRendererUrl ? [new URL(devRendererUrl).origin] : [],
    },
    ui: {
      serviceCrashed: (reason, restartInMs) => {
        mainWindow?.setTitle('Drydock — the service stopped, restarting…');
        notify('The Drydock service stopped', `${reason} Restarting it in ${Math.ceil(restartInMs / 1000)} s.`);
      },
      serviceRestored: (url, originChanged) => {
        mainWindow?.setTitle('Drydock');
        notify('The Drydock service is running again', 'Reload a screen if it shows an error from while it was down.');
        // The page's origin is the service's: follow it when the previous port was taken.
        if (originChanged && !devRendererUrl) void mainWindow?.loadURL(url);
      },
      serviceGaveUp: async (reason) => {
        const options = {
          type: 'error' as const,
          title: 'Drydock',
          message: 'The Drydock service keeps stopping',
          detail: reason,
          buttons: ['Try again', 'Quit'],
          defaultId: 0,
          cancelId: 1,
        };
        const { response } = mainWindow ? await dialog.showMessageBox(mainWindow, options) : await dialog.showMessageBox(options);
        return response === 0 ? 'retry' : 'quit';
      },
    },
    quit: () => app.quit(),
  });
}

function createWindow(url: string): BrowserWindow {
  const window = new BrowserWindow({
    width: 1360,
    height: 860,
    minWidth: 960,
    minHeight: 600,
    title: 'Drydock',
    show: false,
    backgroundColor: '#1b1e23',
    webPreferences: secureWebPreferences(preloadPath),
  });
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  void window.loadURL(url);
  return window;
}

async function start(): Promise<void> {
  // Every webContents (including any the app did not mean to create) gets the same guards.
  // Links to other sites open in the OS browser only after the user saw the address and said yes.
  const openExternalLink = createExternalLinkOpener({
    confirm: async (link) => {
      const options = externalLinkDialog(link);
      const { response } = mainWindow ? await dialog.showMessageBox(mainWindow, options) : await dialog.showMessageBox(options);
      return response === 0;
    },
    openExternal: (url) => shell.openExternal(url),
  });
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, appOrigin, (url) => {
      openExternalLink(url).catch((error: unknown) => console.error('Drydock: could not open an external link:', error));
    }),
  );
  await app.whenReady();
  // The dev server needs its own inline HMR scripts and a cross-origin API; production gets the strict CSP.
  hardenSession(session.defaultSession, () => (devRendererUrl ? null : appOrigin()));

  host = serviceHost();
  const url = await host.start();
  const running = host;

  registerIpcHandlers(
    ipcMain,
    {
      [IPC_CHANNELS.getConnection]: () => running.connection(),
      [IPC_CHANNELS.notify]: (payload) => {
        const { title, body } = parseNotifyPayload(payload);
        return notifyAndWait(title, body);
      },
    },
    trustedSender,
  );

  // File › New Login Link…: the browser UI of this running service, as `drydock login-link` gives it.
  const newLoginLink = createNewLoginLinkAction({
    serviceUrl,
    mint: (serviceAt) => mintLoginLink({ dataDir: dataDir(), url: serviceAt }),
    ask: async (link) => {
      const options = loginLinkDialog(link);
      const { response } = mainWindow ? await dialog.showMessageBox(mainWindow, options) : await dialog.showMessageBox(options);
      return choiceOf(response);
    },
    copy: (text) => clipboard.writeText(text),
    openInBrowser: (link) => shell.openExternal(link),
    fail: (message) => dialog.showErrorBox('Drydock', message),
  });
  const runNewLoginLink = () => void newLoginLink().catch((error: unknown) => console.error('Drydock: the login link failed:', error));
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate({ platform: process.platform, newLoginLink: runNewLoginLink })));
  // The tray icon: Open, New Login Link…, Quit, also while the window is closed.
  tray = installTray({
    createTray: () => new Tray(nativeImage.createFromPath(iconPath).resize({ width: 16, height: 16 })),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    actions: { open: showWindow, newLoginLink: runNewLoginLink, quit: () => app.quit() },
    platform: process.platform,
  });

  mainWindow = createWindow(devRendererUrl ?? url);
  app.on('activate', () => {
    const current = devRendererUrl ?? serviceUrl();
    if (!mainWindow && current) mainWindow = createWindow(current);
  });
}

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !host) return;
  // Let in-flight requests and background work finish (the service process hands running jobs
  // back and closes its database) before the app exits.
  event.preventDefault();
  quitting = true;
  tray?.destroy();
  tray = null;
  host
    .stop()
    .catch((error: unknown) => console.error('Drydock: the service did not close cleanly:', error))
    .finally(() => app.exit(0));
});
app.on('window-all-closed', () => app.quit());

app.enableSandbox();
if (!app.requestSingleInstanceLock()) {
  // One process owns the data dir (SQLite, keychain); a second launch focuses the first.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) bringToFront(mainWindow, () => undefined);
  });
  start().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error('Drydock could not start:', error);
    dialog.showErrorBox('Drydock could not start', message);
    app.exit(1);
  });
}
