// Electron main process: runs the service in-process on a random loopback port and shows its UI
// in one hardened window. The page gets the service URL and a per-launch session token through
// the preload bridge; it never persists the token.
import { app, BrowserWindow, ipcMain, Notification, session, shell, dialog } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createService, type Service } from '../service';
import { WORKSPACE_SESSION_TTL_S } from '../features/system/routes';
import type { DesktopConnection } from '../../src-shared/api/client';
import { IPC_CHANNELS } from './channels';
import { createExternalLinkOpener, externalLinkDialog } from './external-links';
import { hardenSession, hardenWebContents, parseNotifyPayload, registerIpcHandlers, secureWebPreferences, type TrustedSender } from './security';

const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));
/** Renew the session token this long before it expires. */
const RENEW_MARGIN_MS = 10 * 60 * 1000;

let service: Service | null = null;
let mainWindow: BrowserWindow | null = null;
let connection: DesktopConnection | null = null;
let sessionId: string | null = null;

/** `electron-vite dev` serves the renderer with hot reload from its own origin; it calls the service cross-origin. */
const devRendererUrl = !app.isPackaged ? (process.env.ELECTRON_RENDERER_URL ?? null) : null;
/** The origin the window shows: the service itself, or the dev server in development. */
const appOrigin = () => (devRendererUrl ? new URL(devRendererUrl).origin : service ? new URL(service.url).origin : null);
const trustedSender = (): TrustedSender | null =>
  mainWindow && !mainWindow.isDestroyed() && service ? { webContentsId: mainWindow.webContents.id, serviceOrigin: appOrigin()! } : null;

/** A workspace session for the admin user, issued per launch and renewed before it expires. */
async function currentConnection(): Promise<DesktopConnection> {
  if (!service) throw new Error('The service is not running.');
  if (connection && Date.parse(connection.expiresAt) - Date.now() > RENEW_MARGIN_MS) return connection;
  if (sessionId) service.ctx.tokens.revoke(sessionId);
  const issued = await service.ctx.tokens.issue({
    userId: service.bootstrap.adminUserId,
    kind: 'workspace',
    ttlSeconds: WORKSPACE_SESSION_TTL_S,
    meta: { client: 'desktop' },
  });
  sessionId = issued.sid;
  connection = { baseUrl: service.url, token: issued.token, expiresAt: issued.expiresAt.toISOString() };
  return connection;
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

  service = await createService({
    dataDir: join(app.getPath('userData'), 'data'),
    secrets: 'keychain',
    port: 0,
    rendererDir,
    corsOrigins: devRendererUrl ? [new URL(devRendererUrl).origin] : [],
  });

  registerIpcHandlers(
    ipcMain,
    {
      [IPC_CHANNELS.getConnection]: () => currentConnection(),
      [IPC_CHANNELS.notify]: (payload) => {
        const { title, body } = parseNotifyPayload(payload);
        if (Notification.isSupported()) new Notification({ title, body }).show();
      },
    },
    trustedSender,
  );

  const pageUrl = devRendererUrl ?? service.url;
  mainWindow = createWindow(pageUrl);
  app.on('activate', () => {
    if (!mainWindow && service) mainWindow = createWindow(pageUrl);
  });
}

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !service) return;
  // Let in-flight requests and background work finish before the process exits.
  event.preventDefault();
  quitting = true;
  const running = service;
  if (sessionId) running.ctx.tokens.revoke(sessionId);
  running
    .close()
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
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  start().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    console.error('Drydock could not start:', error);
    dialog.showErrorBox('Drydock could not start', message);
    app.exit(1);
  });
}
