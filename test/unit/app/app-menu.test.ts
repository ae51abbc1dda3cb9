// File › New Login Link… of the desktop app (issue 14 item 8): the menu template carries the action
// with its accelerator, and the action mints a real one-time link for the running service (the same
// as `drydock login-link`) and opens or copies it as the user chose. Electron's dialog, clipboard and
// browser are the boundary (recorded here); the service, its database and the link are real.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  appMenuTemplate,
  choiceOf,
  createNewLoginLinkAction,
  loginLinkDialog,
  NEW_LOGIN_LINK_ACCELERATOR,
  NEW_LOGIN_LINK_LABEL,
  type LoginLinkChoice,
  type NewLoginLinkDeps,
} from '../../../src-main/app/app-menu';
import { mintLoginLink } from '../../../src-main/cli/login-link';
import { startTestService, type TestService } from '../../support/service';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc.stop());

const exchange = (url: string) => svc.call('POST', '/api/v1/auth/login-code', { auth: null, body: { code: new URL(url).searchParams.get('login') } });

function deps(choice: LoginLinkChoice, serviceUrl: string | null = svc.url) {
  return {
    serviceUrl: () => serviceUrl,
    mint: vi.fn((url: string) => mintLoginLink({ dataDir: svc.dataDir, url })),
    ask: vi.fn<NewLoginLinkDeps['ask']>(async () => choice),
    copy: vi.fn<(text: string) => void>(),
    openInBrowser: vi.fn<(url: string) => Promise<void>>(async () => {}),
    fail: vi.fn<(message: string) => void>(),
  };
}

type MenuItemConstructorOptions = ReturnType<typeof appMenuTemplate>[number];
const itemsOf = (template: MenuItemConstructorOptions[]) => template.flatMap((m) => [m, ...(Array.isArray(m.submenu) ? m.submenu : [])]);

describe('the desktop menu', () => {
  it('has File › New Login Link… with its accelerator, which runs the action', () => {
    const newLoginLink = vi.fn();
    const template = appMenuTemplate({ platform: 'linux', newLoginLink });
    const item = itemsOf(template).find((i) => i.id === 'new-login-link')!;
    expect(item).toMatchObject({ label: NEW_LOGIN_LINK_LABEL, accelerator: NEW_LOGIN_LINK_ACCELERATOR });
    const file = template.find((m) => m.label === 'File')!;
    expect((file.submenu as MenuItemConstructorOptions[])[0]).toBe(item);
    (item.click as () => void)();
    expect(newLoginLink).toHaveBeenCalledTimes(1);
  });

  it('on macOS starts with the app menu and File closes the window instead of quitting', () => {
    const mac = appMenuTemplate({ platform: 'darwin', newLoginLink: () => {} });
    expect(mac[0]).toEqual({ role: 'appMenu' });
    const file = mac.find((m) => m.label === 'File')!.submenu as MenuItemConstructorOptions[];
    expect(file.at(-1)).toEqual({ role: 'close' });
    const linux = appMenuTemplate({ platform: 'linux', newLoginLink: () => {} });
    expect(linux.some((m) => m.role === 'appMenu')).toBe(false);
    expect((linux.find((m) => m.label === 'File')!.submenu as MenuItemConstructorOptions[]).at(-1)).toEqual({ role: 'quit' });
  });
});

describe('New Login Link…', () => {
  it('mints a link for the running service, shows it, and opens it in the browser: it signs in once', async () => {
    const d = deps('open');
    await createNewLoginLinkAction(d)();
    expect(d.mint).toHaveBeenCalledWith(svc.url);
    const link = d.ask.mock.calls[0]![0];
    expect(link.url.startsWith(`${svc.url}/?login=`)).toBe(true);
    expect(d.openInBrowser.mock.calls).toEqual([[link.url]]);
    expect(d.copy).not.toHaveBeenCalled();
    const dialog = loginLinkDialog(link);
    expect(dialog.detail).toContain(link.url);
    expect(dialog.detail).toContain(link.email);
    expect(dialog.buttons.map((_, i) => choiceOf(i))).toEqual(['open', 'copy', 'close']);
    expect(dialog.cancelId).toBe(2);
    const first = await exchange(link.url);
    expect(first.status).toBe(200);
    expect((await exchange(link.url)).status).toBeGreaterThanOrEqual(400);
  });

  it('copies the link when asked, and does nothing more on Close', async () => {
    const copy = deps('copy');
    await createNewLoginLinkAction(copy)();
    expect(copy.copy.mock.calls).toEqual([[copy.ask.mock.calls[0]![0].url]]);
    expect(copy.openInBrowser).not.toHaveBeenCalled();
    const close = deps('close');
    await createNewLoginLinkAction(close)();
    expect(close.copy).not.toHaveBeenCalled();
    expect(close.openInBrowser).not.toHaveBeenCalled();
  });

  it('says why there is no link while the service is restarting, or when minting fails', async () => {
    const down = deps('open', null);
    await createNewLoginLinkAction(down)();
    expect(down.mint).not.toHaveBeenCalled();
    expect(down.fail.mock.calls[0]![0]).toMatch(/not running right now/);
    const broken = { ...deps('open'), mint: vi.fn(() => mintLoginLink({ dataDir: '/nonexistent-drydock-dir', url: svc.url })) };
    await createNewLoginLinkAction(broken)();
    expect(broken.fail.mock.calls[0]![0]).toMatch(/No login link could be made: No Drydock data/);
    expect(broken.ask).not.toHaveBeenCalled();
  });
});
