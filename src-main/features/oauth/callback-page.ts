/**
 * The page the browser shows after the provider sent it back to the callback. It says whether the
 * connection worked and what to do; it never carries a token. Nothing runs in it (CSP without scripts).
 */
export const CALLBACK_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function callbackPage(outcome: { ok: true; integrationName: string } | { ok: false; code: string; detail: string }): string {
  const title = outcome.ok ? `Connected to ${outcome.integrationName}` : 'The connection did not work';
  const body = outcome.ok
    ? `<p>Drydock stored your access (in its secret store, never in its database). You can close this window and go back to Drydock.</p>`
    : `<p>${escapeHtml(outcome.detail)}</p><p>Close this window and choose <b>Connect</b> again in Drydock.</p>` +
      `<p class="code">Error code: ${escapeHtml(outcome.code)}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Drydock</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#1f2933}
h1{font-size:1.4rem;color:${outcome.ok ? '#1b7a3d' : '#b42318'}}.code{color:#52606d;font-size:.9rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>
`;
}
