import { describe, expect, it, vi } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  hardenSession,
  hardenWebContents,
  isNavigationAllowed,
  isTrustedSender,
  IpcRefusedError,
  parseNotifyPayload,
  registerIpcHandlers,
  secureWebPreferences,
  windowOpenDecision,
  withContentSecurityPolicy,
  type IpcSenderEvent,
  type PreventableEvent,
  type SessionLike,
  type WebContentsLike,
} from '../../../src-main/app/security';
import { ALLOWED_CHANNELS, IPC_CHANNELS, isAllowedChannel } from '../../../src-main/app/channels';
import { createBridge } from '../../../src-main/app/bridge';

const ORIGIN = 'http://127.0.0.1:4317';

/** A stand-in for webContents that records listeners so tests can fire Electron's events. */
function fakeWebContents() {
  const listeners = new Map<string, ((...args: unknown[]) => void)[]>();
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  const contents: WebContentsLike = {
    on(event: string, listener: (...args: never[]) => void) {
      listeners.set(event, [...(listeners.get(event) ?? []), listener as (...args: unknown[]) => void]);
      return contents;
    },
    setWindowOpenHandler(handler) {
      openHandler = handler;
    },
  };
  const fire = (event: string, ...args: unknown[]) => {
    const prevented = { value: false };
    const e: PreventableEvent = { preventDefault: () => (prevented.value = true) };
    for (const listener of listeners.get(event) ?? []) listener(e, ...args);
    return prevented.value;
  };
  return { contents, fire, open: (url: string) => openHandler!({ url }) };
}

const senderEvent = (overrides: { id?: number; url?: string; parent?: unknown; frame?: null } = {}): IpcSenderEvent => ({
  sender: { id: overrides.id ?? 7 },
  senderFrame: overrides.frame === null ? null : { url: overrides.url ?? `${ORIGIN}/deployments`, parent: overrides.parent ?? null },
});

describe('window webPreferences', () => {
  it('isolate the page: context isolation, sandbox, no Node integration anywhere, web security on', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
  });

  it('use a CommonJS preload, as sandboxed preloads must be', () => {
    expect(secureWebPreferences('/x/index.cjs').preload.endsWith('.cjs')).toBe(true);
  });
});

describe('content security policy', () => {
  const directives = Object.fromEntries(
    CONTENT_SECURITY_POLICY.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );

  it('allows scripts only from the service itself: no unsafe-eval, no unsafe-inline scripts, no remote hosts', () => {
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
  });

  it('forbids plugins, base-URI changes and framing', () => {
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
  });

  it('is forced onto every response of the service origin in the desktop session', () => {
    const headers = withContentSecurityPolicy(`${ORIGIN}/index.html`, { 'content-security-policy': ["script-src *"], 'X-Other': ['1'] }, ORIGIN);
    expect(headers['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['X-Other']).toEqual(['1']);
  });

  it('leaves responses of other origins as they came', () => {
    const original = { 'Content-Security-Policy': ['default-src *'] };
    expect(withContentSecurityPolicy('https://example.com/', original, ORIGIN)).toEqual(original);
  });
});

describe('navigation', () => {
  it('stays on the service origin', () => {
    expect(isNavigationAllowed(`${ORIGIN}/deployments/3`, ORIGIN)).toBe(true);
    expect(isNavigationAllowed(`${ORIGIN}/?login=abc`, ORIGIN)).toBe(true);
  });

  it('is denied to any other origin, port, scheme or a malformed URL', () => {
    for (const url of [
      'https://evil.example/',
      'http://127.0.0.1:4318/',
      'http://localhost:4317/',
      'https://127.0.0.1:4317/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,<script>1</script>',
      'not a url',
    ]) {
      expect(isNavigationAllowed(url, ORIGIN), url).toBe(false);
    }
  });

  it('is prevented by will-navigate and will-redirect for foreign URLs, and allowed within the origin', () => {
    const { contents, fire } = fakeWebContents();
    hardenWebContents(contents, () => ORIGIN);
    expect(fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(fire('will-redirect', 'http://127.0.0.1:9999/')).toBe(true);
    expect(fire('will-navigate', `${ORIGIN}/admin`)).toBe(false);
  });

  it('is prevented entirely before the service origin is known', () => {
    const { contents, fire } = fakeWebContents();
    hardenWebContents(contents, () => null);
    expect(fire('will-navigate', `${ORIGIN}/`)).toBe(true);
  });

  it('never attaches a <webview>', () => {
    const { contents, fire } = fakeWebContents();
    hardenWebContents(contents, () => ORIGIN);
    expect(fire('will-attach-webview')).toBe(true);
  });
});

describe('new windows', () => {
  it('are denied for every URL, the service’s own included', () => {
    const { contents, open } = fakeWebContents();
    hardenWebContents(contents, () => ORIGIN);
    expect(windowOpenDecision()).toEqual({ action: 'deny' });
    for (const url of [`${ORIGIN}/deployments`, 'https://example.com/', 'javascript:alert(1)', 'file:///tmp/x']) {
      expect(open(url)).toEqual({ action: 'deny' });
    }
  });

  it('hand only external http(s) links to the OS browser', () => {
    const external = vi.fn();
    const { contents, open } = fakeWebContents();
    hardenWebContents(contents, () => ORIGIN, external);
    open('https://docs.example.com/page');
    open('javascript:alert(1)');
    open('file:///etc/passwd');
    open(`${ORIGIN}/deployments`);
    expect(external.mock.calls).toEqual([['https://docs.example.com/page']]);
  });
});

describe('IPC sender check', () => {
  const trusted = { webContentsId: 7, serviceOrigin: ORIGIN };

  it('accepts the main window’s top frame on the service origin', () => {
    expect(isTrustedSender(senderEvent(), trusted)).toBe(true);
  });

  it('refuses another webContents, a subframe, a foreign origin, a gone frame, or no main window', () => {
    expect(isTrustedSender(senderEvent({ id: 8 }), trusted)).toBe(false);
    expect(isTrustedSender(senderEvent({ parent: {} }), trusted)).toBe(false);
    expect(isTrustedSender(senderEvent({ url: 'https://evil.example/' }), trusted)).toBe(false);
    expect(isTrustedSender(senderEvent({ url: 'http://127.0.0.1:9/' }), trusted)).toBe(false);
    expect(isTrustedSender(senderEvent({ frame: null }), trusted)).toBe(false);
    expect(isTrustedSender(senderEvent(), null)).toBe(false);
  });
});

describe('IPC channels', () => {
  function fakeIpcMain() {
    const handlers = new Map<string, (event: IpcSenderEvent, ...args: unknown[]) => unknown>();
    return { handlers, ipcMain: { handle: (channel: string, listener: (event: IpcSenderEvent, ...args: unknown[]) => unknown) => void handlers.set(channel, listener) } };
  }
  const trusted = () => ({ webContentsId: 7, serviceOrigin: ORIGIN });

  it('are exactly the allowlist: get-connection and notify, all namespaced', () => {
    expect([...ALLOWED_CHANNELS].sort()).toEqual(['drydock:get-connection', 'drydock:notify']);
    expect(isAllowedChannel('drydock:get-connection')).toBe(true);
    expect(isAllowedChannel('drydock:exec')).toBe(false);
    expect(isAllowedChannel('')).toBe(false);
  });

  it('cannot get a handler outside the allowlist (registration throws and registers nothing)', () => {
    const { ipcMain, handlers } = fakeIpcMain();
    expect(() => registerIpcHandlers(ipcMain, { [IPC_CHANNELS.notify]: () => 1, 'drydock:shell': () => 2 }, trusted)).toThrow(/not in the allowlist/);
    expect(handlers.size).toBe(0);
  });

  it('run the handler for a trusted sender and refuse any other before the handler runs', async () => {
    const { ipcMain, handlers } = fakeIpcMain();
    const handler = vi.fn(() => ({ baseUrl: ORIGIN }));
    registerIpcHandlers(ipcMain, { [IPC_CHANNELS.getConnection]: handler }, trusted);
    const listener = handlers.get(IPC_CHANNELS.getConnection)!;
    expect(listener(senderEvent())).toEqual({ baseUrl: ORIGIN });
    expect(() => listener(senderEvent({ id: 99 }))).toThrow(IpcRefusedError);
    expect(() => listener(senderEvent({ url: 'https://evil.example/' }))).toThrow(IpcRefusedError);
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('validate notification payloads and cap their length', () => {
    expect(() => parseNotifyPayload(null)).toThrow();
    expect(() => parseNotifyPayload('hi')).toThrow();
    expect(() => parseNotifyPayload({ title: 1, body: 'x' })).toThrow();
    const parsed = parseNotifyPayload({ title: 't'.repeat(500), body: 'b'.repeat(5000), extra: true });
    expect(parsed).toEqual({ title: 't'.repeat(120), body: 'b'.repeat(1000) });
  });
});

describe('session permissions', () => {
  it('are never granted to the page', () => {
    let request: ((wc: unknown, permission: string, cb: (granted: boolean) => void) => void) | null = null;
    let check: ((...args: unknown[]) => boolean) | null = null;
    const session: SessionLike = {
      setPermissionRequestHandler: (h) => void (request = h),
      setPermissionCheckHandler: (h) => void (check = h),
      webRequest: { onHeadersReceived: () => {} },
    };
    hardenSession(session, () => ORIGIN);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      request!(null, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    expect(check!(null, 'media')).toBe(false);
  });
});

describe('preload bridge', () => {
  it('exposes only getConnection and notify, frozen, and no way to name a channel', () => {
    const bridge = createBridge({ invoke: async () => null });
    expect(Object.keys(bridge).sort()).toEqual(['getConnection', 'notify']);
    expect(Object.isFrozen(bridge)).toBe(true);
    for (const value of Object.values(bridge)) expect(typeof value).toBe('function');
  });

  it('invokes only allowlisted channels', async () => {
    const invoke = vi.fn(async () => ({ baseUrl: ORIGIN, token: 't', expiresAt: '2030-01-01T00:00:00.000Z' }));
    const bridge = createBridge({ invoke });
    await bridge.getConnection();
    await bridge.notify('Title', 'Body');
    const channels = (invoke.mock.calls as unknown as [string, ...unknown[]][]).map((call) => call[0]);
    expect(channels).toEqual([IPC_CHANNELS.getConnection, IPC_CHANNELS.notify]);
    expect(channels.every((c) => ALLOWED_CHANNELS.has(c))).toBe(true);
  });

  it('is what the preload script puts on window.drydock, and nothing else', async () => {
    const exposed: Record<string, unknown> = {};
    const invoke = vi.fn(async () => null);
    vi.doMock('electron', () => ({
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void (exposed[key] = api) },
      ipcRenderer: { invoke, send: vi.fn(), on: vi.fn() },
    }));
    await import('../../../src-main/app/preload');
    expect(Object.keys(exposed)).toEqual(['drydock']);
    expect(Object.keys(exposed.drydock as object).sort()).toEqual(['getConnection', 'notify']);
    await (exposed.drydock as { notify(t: string, b: string): Promise<void> }).notify('a', 'b');
    expect(invoke).toHaveBeenCalledWith(IPC_CHANNELS.notify, { title: 'a', body: 'b' });
    vi.doUnmock('electron');
  });
});
