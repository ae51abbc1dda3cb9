// The desktop app's tray icon and clickable notifications (issue 14 item 8). Electron's Tray, Menu,
// Notification and window are the boundary (the Electron binary cannot run here): recorded fakes
// stand in for them; the menu template, its actions and the notification answers are the app's.
import { describe, expect, it, vi } from 'vitest';
import type { trayMenuTemplate as Template } from '../../../src-main/app/tray';
import { NEW_LOGIN_LINK_LABEL } from '../../../src-main/app/app-menu';
import { createDesktopNotifier, type NotificationLike } from '../../../src-main/app/desktop-notify';
import { bringToFront, installTray, trayMenuTemplate, TRAY_TOOLTIP, type TrayLike, type WindowLike } from '../../../src-main/app/tray';

type MenuItemConstructorOptions = ReturnType<typeof Template>[number];
const actions = () => ({ open: vi.fn(), newLoginLink: vi.fn(), quit: vi.fn() });
const click = (item: MenuItemConstructorOptions) => (item.click as () => void)();

function fakeTray() {
  const listeners: Record<string, () => void> = {};
  const tray = {
    setToolTip: vi.fn<(text: string) => void>(),
    setContextMenu: vi.fn<(menu: unknown) => void>(),
    on: vi.fn((event: 'click', listener: () => void) => (listeners[event] = listener)),
    destroy: vi.fn(),
  } satisfies TrayLike;
  return { tray, listeners };
}

describe('the tray menu', () => {
  it('offers Open, New Login Link… and Quit, in that order, each running its action', () => {
    const a = actions();
    const template = trayMenuTemplate(a);
    expect(template.map((i) => i.label ?? i.type)).toEqual(['Open Drydock', NEW_LOGIN_LINK_LABEL, 'separator', 'Quit Drydock']);
    click(template[0]);
    expect(a.open).toHaveBeenCalledTimes(1);
    click(template[1]);
    expect(a.newLoginLink).toHaveBeenCalledTimes(1);
    click(template[3]);
    expect(a.quit).toHaveBeenCalledTimes(1);
    // One click, one action: nothing else ran.
    expect([a.open, a.newLoginLink, a.quit].map((f) => f.mock.calls.length)).toEqual([1, 1, 1]);
  });

  it('installs the icon with its tooltip and menu; a click on the icon opens the window (not on macOS, where it shows the menu)', () => {
    const a = actions();
    const { tray, listeners } = fakeTray();
    const built: MenuItemConstructorOptions[][] = [];
    const installed = installTray({ createTray: () => tray, buildMenu: (t) => (built.push(t), { menu: t }), actions: a, platform: 'linux' });
    expect(installed).toBe(tray);
    expect(tray.setToolTip).toHaveBeenCalledWith(TRAY_TOOLTIP);
    expect(tray.setContextMenu).toHaveBeenCalledWith({ menu: built[0] });
    expect(built[0].map((i) => i.id).filter(Boolean)).toEqual(['tray-open', 'tray-new-login-link', 'tray-quit']);
    listeners.click();
    expect(a.open).toHaveBeenCalledTimes(1);

    const mac = fakeTray();
    installTray({ createTray: () => mac.tray, buildMenu: () => ({}), actions: actions(), platform: 'darwin' });
    expect(mac.tray.on).not.toHaveBeenCalled();
  });

  it('a desktop without a notification area gets no tray and the app goes on', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const buildMenu = vi.fn();
    expect(
      installTray({
        createTray: () => {
          throw new Error('no StatusNotifier');
        },
        buildMenu,
        actions: actions(),
        platform: 'linux',
      }),
    ).toBeNull();
    expect(installTray({ createTray: () => null, buildMenu, actions: actions(), platform: 'linux' })).toBeNull();
    expect(buildMenu).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith('Drydock: no tray icon:', 'no StatusNotifier');
    warn.mockRestore();
  });
});

function fakeWindow(state: { destroyed?: boolean; minimized?: boolean; visible?: boolean }) {
  const calls: string[] = [];
  const window: WindowLike = {
    isDestroyed: () => state.destroyed ?? false,
    isMinimized: () => state.minimized ?? false,
    isVisible: () => state.visible ?? true,
    restore: () => void calls.push('restore'),
    show: () => void calls.push('show'),
    focus: () => void calls.push('focus'),
  };
  return { window, calls };
}

describe('Open brings the window to the front', () => {
  it('restores a minimized window, shows a hidden one, and focuses it', () => {
    const create = vi.fn();
    const minimized = fakeWindow({ minimized: true });
    bringToFront(minimized.window, create);
    expect(minimized.calls).toEqual(['restore', 'focus']);
    const hidden = fakeWindow({ visible: false });
    bringToFront(hidden.window, create);
    expect(hidden.calls).toEqual(['show', 'focus']);
    expect(create).not.toHaveBeenCalled();
  });

  it('opens a new window when none is left', () => {
    const create = vi.fn();
    bringToFront(null, create);
    const gone = fakeWindow({ destroyed: true });
    bringToFront(gone.window, create);
    expect(create).toHaveBeenCalledTimes(2);
    expect(gone.calls).toEqual([]);
  });
});

function fakeNotification() {
  const listeners: Partial<Record<'click' | 'close' | 'failed', () => void>> = {};
  const notification = {
    on: (event: 'click' | 'close' | 'failed', listener: () => void) => (listeners[event] = listener),
    show: vi.fn(),
  } satisfies NotificationLike;
  return { notification, listeners };
}

describe('desktop notifications answer whether they were clicked', () => {
  it('a clicked notification brings the window to the front, then answers true (the page then opens the job)', async () => {
    const { notification, listeners } = fakeNotification();
    const order: string[] = [];
    const create = vi.fn(() => notification);
    const notify = createDesktopNotifier({ create, focusWindow: () => void order.push('focus') });
    const answer = notify('Warehouse push failed', 'after 12 s').then((clicked) => (order.push('answered'), clicked));
    expect(create).toHaveBeenCalledWith('Warehouse push failed', 'after 12 s');
    expect(notification.show).toHaveBeenCalledTimes(1);
    listeners.click!();
    listeners.close!(); // a close after the click changes nothing
    await expect(answer).resolves.toBe(true);
    expect(order).toEqual(['focus', 'answered']);
  });

  it('a dismissed, failed or unanswered notification answers false and leaves the window alone', async () => {
    const focusWindow = vi.fn();
    const dismissed = fakeNotification();
    const failed = fakeNotification();
    const notify = createDesktopNotifier({ create: vi.fn().mockReturnValueOnce(dismissed.notification).mockReturnValueOnce(failed.notification).mockReturnValueOnce(null), focusWindow });
    const first = notify('a', 'b');
    dismissed.listeners.close!();
    await expect(first).resolves.toBe(false);
    const second = notify('a', 'b');
    failed.listeners.failed!();
    await expect(second).resolves.toBe(false);
    // Unsupported (no notification server): answers at once.
    await expect(notify('a', 'b')).resolves.toBe(false);

    const silent = fakeNotification();
    const timed = createDesktopNotifier({ create: () => silent.notification, focusWindow, answerMs: 20 });
    await expect(timed('a', 'b')).resolves.toBe(false);
    silent.listeners.click!(); // too late: already answered
    expect(focusWindow).not.toHaveBeenCalled();
  });
});
