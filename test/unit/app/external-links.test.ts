import { describe, expect, it, vi } from 'vitest';
import { createExternalLinkOpener, externalLinkDialog, externalLinkOf, type ExternalLink } from '../../../src-main/app/external-links';
import { hardenWebContents, type PreventableEvent, type WebContentsLike } from '../../../src-main/app/security';

const ORIGIN = 'http://127.0.0.1:4317';

function ports(answer: boolean | Promise<boolean>) {
  const confirm = vi.fn<(link: ExternalLink) => Promise<boolean>>(async () => answer);
  const openExternal = vi.fn<(url: string) => Promise<void>>(async () => {});
  return { confirm, openExternal };
}

describe('external links open only after the user confirms, and only http(s)', () => {
  it('an http(s) link is shown to the user first and opened only on yes', async () => {
    const yes = ports(true);
    expect(await createExternalLinkOpener(yes)('https://docs.example.com/guide?a=1#top')).toBe('opened');
    expect(yes.confirm).toHaveBeenCalledWith({ url: 'https://docs.example.com/guide?a=1#top', host: 'docs.example.com' });
    expect(yes.openExternal.mock.calls).toEqual([['https://docs.example.com/guide?a=1#top']]);
    expect(yes.confirm.mock.invocationCallOrder[0]).toBeLessThan(yes.openExternal.mock.invocationCallOrder[0]);
  });

  it('a declined link is not opened', async () => {
    const no = ports(false);
    expect(await createExternalLinkOpener(no)('https://docs.example.com/')).toBe('declined');
    expect(no.openExternal).not.toHaveBeenCalled();
  });

  it('other schemes are refused without asking: file, javascript, data, smb, custom protocol handlers, mailto', async () => {
    const p = ports(true);
    const open = createExternalLinkOpener(p);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'smb://host/share', 'ms-msdt:/id', 'vscode://file/x', 'mailto:a@b.c', 'not a url']) {
      expect(await open(url), url).toBe('refused');
    }
    expect(p.confirm).not.toHaveBeenCalled();
    expect(p.openExternal).not.toHaveBeenCalled();
  });

  it('an address with credentials (https://bank.example@evil.example/) is refused as a spoof', () => {
    expect(externalLinkOf('https://bank.example@evil.example/')).toBeNull();
    expect(externalLinkOf('https://user:pw@example.com/')).toBeNull();
  });

  it('an internationalised look-alike host is shown in punycode', () => {
    expect(externalLinkOf('https://exаmple.com/')?.host).toBe('xn--exmple-4nf.com');
  });

  it('one question at a time: links requested while a dialog is up are dropped', async () => {
    let answer!: (value: boolean) => void;
    const p = ports(new Promise<boolean>((resolve) => (answer = resolve)));
    const open = createExternalLinkOpener(p);
    const first = open('https://a.example/');
    expect(await open('https://b.example/')).toBe('busy');
    answer(true);
    expect(await first).toBe('opened');
    expect(p.openExternal.mock.calls).toEqual([['https://a.example/']]);
  });

  it('the dialog shows the whole address and defaults to Cancel', () => {
    const dialog = externalLinkDialog({ url: 'https://docs.example.com/x', host: 'docs.example.com' });
    expect(dialog.detail).toContain('https://docs.example.com/x');
    expect(dialog.buttons[dialog.defaultId]).toBe('Cancel');
    expect(dialog.cancelId).toBe(dialog.defaultId);
  });
});

describe('the window hands foreign links to the opener, never follows them', () => {
  function fakeContents() {
    const listeners = new Map<string, ((event: PreventableEvent, url: string) => void)[]>();
    let openHandler!: (details: { url: string }) => { action: 'deny' };
    const contents: WebContentsLike = {
      on(event: string, listener: (...args: never[]) => void) {
        listeners.set(event, [...(listeners.get(event) ?? []), listener as (event: PreventableEvent, url: string) => void]);
        return contents;
      },
      setWindowOpenHandler: (handler) => (openHandler = handler),
    };
    const fire = (event: string, url: string) => {
      let prevented = false;
      for (const l of listeners.get(event) ?? []) l({ preventDefault: () => (prevented = true) }, url);
      return prevented;
    };
    return { contents, fire, open: (url: string) => openHandler({ url }) };
  }

  it('a clicked link to another origin is prevented in the window and offered to the opener', () => {
    const offered = vi.fn();
    const { contents, fire } = fakeContents();
    hardenWebContents(contents, () => ORIGIN, offered);
    expect(fire('will-navigate', 'https://docs.example.com/')).toBe(true);
    expect(fire('will-navigate', `${ORIGIN}/deployments`)).toBe(false);
    expect(offered.mock.calls).toEqual([['https://docs.example.com/']]);
  });

  it('a redirect to another origin is refused and not offered (the server chose it, not the user)', () => {
    const offered = vi.fn();
    const { contents, fire } = fakeContents();
    hardenWebContents(contents, () => ORIGIN, offered);
    expect(fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(offered).not.toHaveBeenCalled();
  });

  it('window.open is denied; only a foreign http(s) page is offered', () => {
    const offered = vi.fn();
    const { contents, open } = fakeContents();
    hardenWebContents(contents, () => ORIGIN, offered);
    for (const url of ['https://docs.example.com/', 'file:///etc/passwd', `${ORIGIN}/x`, 'javascript:alert(1)']) expect(open(url)).toEqual({ action: 'deny' });
    expect(offered.mock.calls).toEqual([['https://docs.example.com/']]);
  });
});
