/**
 * Security settings of the desktop shell, kept free of Electron imports so they are unit-tested
 * under plain Node: the main process passes its Electron objects in through these interfaces.
 */
import { CONTENT_SECURITY_POLICY } from '../http/server';
import { isAllowedChannel, NOTIFY_LIMITS } from './channels';

export { CONTENT_SECURITY_POLICY };

/** `webPreferences` of every window: isolated, sandboxed, no Node in the page. */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    // Middle-click (auxclick) would be another way to open a new window from a link.
    disableBlinkFeatures: 'Auxclick',
  } as const;
}

/** `http://127.0.0.1:4317` for any URL of that origin; null for anything unparsable or opaque. */
export function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** The window may only ever show the service's own pages. */
export function isNavigationAllowed(targetUrl: string, serviceOrigin: string): boolean {
  return originOf(targetUrl) === serviceOrigin;
}

/** New windows are never opened (no popups, no `target=_blank` windows). */
export const windowOpenDecision = (): { action: 'deny' } => ({ action: 'deny' });

// ---- IPC -----------------------------------------------------------------------------------

/** The part of an IPC event the sender check reads. */
export interface IpcSenderEvent {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

export interface TrustedSender {
  /** `webContents.id` of the main window. */
  webContentsId: number;
  serviceOrigin: string;
}

/**
 * Only the main window's top frame, showing a page of the service, may call the main process.
 * Subframes, other windows and pages of another origin (should one ever load) are refused.
 */
export function isTrustedSender(event: IpcSenderEvent, trusted: TrustedSender | null): boolean {
  if (!trusted) return false;
  if (event.sender.id !== trusted.webContentsId) return false;
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return originOf(frame.url) === trusted.serviceOrigin;
}

export interface IpcMainLike<E extends IpcSenderEvent = IpcSenderEvent> {
  handle(channel: string, listener: (event: E, ...args: unknown[]) => unknown): void;
}

export type IpcHandlers = Record<string, (...args: unknown[]) => unknown>;

export class IpcRefusedError extends Error {
  constructor(channel: string) {
    super(`IPC call on ${channel} refused: the sender is not the Drydock window.`);
    this.name = 'IpcRefusedError';
  }
}

/**
 * Registers handlers for allowlisted channels only (a handler for any other channel is a
 * programming error and throws), each guarded by the sender check.
 */
export function registerIpcHandlers<E extends IpcSenderEvent>(
  ipcMain: IpcMainLike<E>,
  handlers: IpcHandlers,
  trusted: () => TrustedSender | null,
): void {
  for (const channel of Object.keys(handlers)) {
    if (!isAllowedChannel(channel)) throw new Error(`IPC channel ${channel} is not in the allowlist.`);
  }
  for (const [channel, handler] of Object.entries(handlers)) {
    ipcMain.handle(channel, (event, ...args) => {
      if (!isTrustedSender(event, trusted())) throw new IpcRefusedError(channel);
      return handler(...args);
    });
  }
}

/** Validates the renderer's notification request; anything else is refused. */
export function parseNotifyPayload(payload: unknown): { title: string; body: string } {
  if (typeof payload !== 'object' || payload === null) throw new Error('A notification needs { title, body }.');
  const { title, body } = payload as Record<string, unknown>;
  if (typeof title !== 'string' || typeof body !== 'string') throw new Error('A notification needs string title and body.');
  return { title: title.slice(0, NOTIFY_LIMITS.title), body: body.slice(0, NOTIFY_LIMITS.body) };
}

// ---- windows and sessions -------------------------------------------------------------------

export interface PreventableEvent {
  preventDefault(): void;
}

/** The part of `webContents` hardening touches. */
export interface WebContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * Denies navigation away from the service's origin (also by redirect), every new window, and
 * `<webview>`. A new window or a followed link to another origin's http(s) page goes to
 * `onExternalLink` (which asks the user before the OS browser opens it — see external-links.ts);
 * the app itself never shows another origin.
 */
export function hardenWebContents(
  contents: WebContentsLike,
  serviceOrigin: () => string | null,
  onExternalLink?: (url: string) => void,
): void {
  const offerExternally = (url: string) => {
    const origin = serviceOrigin();
    if (onExternalLink && origin !== null && /^https?:$/.test(safeProtocol(url)) && originOf(url) !== origin) onExternalLink(url);
  };
  const guard = (event: PreventableEvent, url: string) => {
    const origin = serviceOrigin();
    if (origin === null || !isNavigationAllowed(url, origin)) event.preventDefault();
  };
  contents.on('will-navigate', (event, url) => {
    guard(event, url);
    offerExternally(url);
  });
  // A redirect is the server's choice, not the user's click: refused, never offered.
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    offerExternally(url);
    return windowOpenDecision();
  });
}

const safeProtocol = (url: string): string => {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
};

/** The part of `session` hardening touches. */
export interface SessionLike {
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (...args: unknown[]) => boolean): void;
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { url: string; responseHeaders?: Record<string, string[] | string> },
        callback: (response: { responseHeaders?: Record<string, string[] | string> }) => void,
      ) => void,
    ): void;
  };
}

/** No page permission is ever granted (camera, notifications, geolocation…). */
export const permissionDecision = (_permission: string): boolean => false;

/** Response headers with the strict CSP forced onto every response of the service's origin. */
export function withContentSecurityPolicy(
  url: string,
  headers: Record<string, string[] | string> | undefined,
  serviceOrigin: string | null,
): Record<string, string[] | string> {
  const result: Record<string, string[] | string> = { ...headers };
  if (serviceOrigin === null || originOf(url) !== serviceOrigin) return result;
  for (const name of Object.keys(result)) if (name.toLowerCase() === 'content-security-policy') delete result[name];
  result['Content-Security-Policy'] = [CONTENT_SECURITY_POLICY];
  return result;
}

export function hardenSession(session: SessionLike, serviceOrigin: () => string | null): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(permissionDecision(permission)));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.url, details.responseHeaders, serviceOrigin()) });
  });
}
