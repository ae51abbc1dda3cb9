/**
 * Links the page asks to open outside the app (`window.open`, `target=_blank`, a link to another
 * origin). Only http(s) links, and only after the user has seen the exact address and said yes in a
 * dialog of the main process; every other scheme is refused without asking. Free of Electron
 * imports: the main process injects its dialog and `shell.openExternal`, tests inject doubles.
 */

export interface ExternalLinkPorts {
  /** Shows the address and asks whether to open it in the browser; resolves true only on an explicit yes. */
  confirm(link: ExternalLink): Promise<boolean>;
  /** Hands the address to the OS browser (`shell.openExternal`). */
  openExternal(url: string): Promise<void>;
}

export interface ExternalLink {
  /** The normalised address that will be opened (what the dialog shows, whole). */
  url: string;
  /** The host as the browser will resolve it (internationalised names in punycode, so look-alikes show). */
  host: string;
}

export type ExternalLinkOutcome = 'opened' | 'declined' | 'refused' | 'busy';

/** Longest address offered to the browser; longer ones are refused (a dialog could not show them). */
export const MAX_EXTERNAL_URL_LENGTH = 2048;

/**
 * The link as it would be opened, or null when it may not be: a scheme other than http(s)
 * (`file:`, `javascript:`, `smb:`, custom protocol handlers…), credentials in the address
 * (`https://bank.example@evil.example/` reads as the first host), or an unparsable or overlong URL.
 */
export function externalLinkOf(raw: string): ExternalLink | null {
  if (raw.length > MAX_EXTERNAL_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || !url.hostname) return null;
  return { url: url.href, host: url.host };
}

/**
 * `open(url)` → asks, then opens. One question at a time: while a dialog is up, further requests
 * (a page opening windows in a loop) are dropped rather than queued behind it.
 */
export function createExternalLinkOpener(ports: ExternalLinkPorts): (url: string) => Promise<ExternalLinkOutcome> {
  let asking = false;
  return async (raw) => {
    const link = externalLinkOf(raw);
    if (!link) return 'refused';
    if (asking) return 'busy';
    asking = true;
    try {
      if (!(await ports.confirm(link))) return 'declined';
    } finally {
      asking = false;
    }
    await ports.openExternal(link.url);
    return 'opened';
  };
}

/** The question the main process shows (buttons: open, cancel — cancel is the default). */
export function externalLinkDialog(link: ExternalLink) {
  return {
    type: 'question' as const,
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
    title: 'Open link in your browser?',
    message: `Open ${link.host} in your browser?`,
    detail: `Drydock does not show other sites itself. The page asked to open:\n\n${link.url}`,
  };
}
