import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small OAuth 2.0 authorization server on loopback (RFC 6749 authorization code + refresh token
 * grants, RFC 7636 PKCE with S256 only): the test double of a provider, at its protocol boundary.
 * `/authorize` consents at once (or declines, see `decision`) and redirects back with a code; `/token`
 * checks the client, the code (single-use, bound to its redirect URI), the code verifier against the
 * challenge, and rotates refresh tokens; `/me` answers 200 to a live access token.
 */
export interface OAuthProvider {
  url: string;
  clientId: string;
  clientSecret: string;
  /** `deny`: the user declines on the consent page (redirect with `error=access_denied`). */
  decision: 'approve' | 'deny';
  /** `html`: the token endpoint answers an HTML page; `down`: HTTP 503 with a text body. */
  tokenMode: 'normal' | 'html' | 'down';
  /** `expires_in` of issued access tokens, in seconds. */
  accessTokenSeconds: number;
  /** Whether a refresh grant issues a new refresh token (the old one stops working). */
  rotateRefreshTokens: boolean;
  /** The `token_type` of issued tokens (RFC 6749 §5.1; `Bearer` unless a test asks for another). */
  tokenType: string;
  /** Every request the token endpoint received, as form fields. */
  readonly tokenRequests: URLSearchParams[];
  /** Makes every refresh token issued so far unusable (the user revoked the app at the provider). */
  revokeRefreshTokens(): void;
  /** Whether the provider would accept this access token now. */
  isLive(accessToken: string): boolean;
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  expiresAt: number;
  used: boolean;
}

const random = () => randomBytes(24).toString('base64url');

export async function startOAuthProvider(): Promise<OAuthProvider> {
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, number>(); // token → expiry (ms)
  const refreshTokens = new Map<string, string>(); // token → scope
  const tokenRequests: URLSearchParams[] = [];

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const issue = (scope: string, refreshToken: string | null) => {
    const accessToken = `at_${random()}`;
    accessTokens.set(accessToken, Date.now() + provider.accessTokenSeconds * 1000);
    if (refreshToken !== null) refreshTokens.set(refreshToken, scope);
    return { access_token: accessToken, token_type: provider.tokenType, expires_in: provider.accessTokenSeconds, scope, ...(refreshToken ? { refresh_token: refreshToken } : {}) };
  };

  function authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    // An unknown client or a missing redirect URI is shown to the user, never redirected (RFC 6749 §4.1.2.1).
    if (q.get('client_id') !== provider.clientId || !/^https?:\/\//.test(redirectUri)) return json(res, 400, { error: 'invalid_client' });
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    if (q.get('response_type') !== 'code' || q.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(q.get('code_challenge') ?? '')) {
      back.searchParams.set('error', 'invalid_request');
      back.searchParams.set('error_description', 'PKCE with S256 is required');
    } else if (provider.decision === 'deny') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user declined');
    } else {
      const code = `code_${random()}`;
      codes.set(code, {
        clientId: provider.clientId,
        redirectUri,
        challenge: q.get('code_challenge')!,
        scope: q.get('scope') ?? '',
        expiresAt: Date.now() + 60_000,
        used: false,
      });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  function token(form: URLSearchParams, res: ServerResponse) {
    tokenRequests.push(form);
    if (provider.tokenMode === 'html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html><body>Sign in to continue</body></html>');
    }
    if (provider.tokenMode === 'down') {
      res.writeHead(503, { 'content-type': 'text/plain' });
      return res.end('upstream unavailable');
    }
    if (form.get('client_id') !== provider.clientId || form.get('client_secret') !== provider.clientSecret) {
      return json(res, 401, { error: 'invalid_client' });
    }
    if (form.get('grant_type') === 'authorization_code') {
      const pending = codes.get(form.get('code') ?? '');
      if (!pending || pending.used || pending.expiresAt < Date.now()) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown, used or expired code' });
      pending.used = true;
      if (pending.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri differs' });
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier, 'ascii').digest('base64url') !== pending.challenge) {
        return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      }
      return json(res, 200, issue(pending.scope, `rt_${random()}`));
    }
    if (form.get('grant_type') === 'refresh_token') {
      const presented = form.get('refresh_token') ?? '';
      const scope = refreshTokens.get(presented);
      if (scope === undefined) return json(res, 400, { error: 'invalid_grant', error_description: 'refresh token is not valid' });
      if (provider.rotateRefreshTokens) refreshTokens.delete(presented);
      return json(res, 200, issue(scope, provider.rotateRefreshTokens ? `rt_${random()}` : null));
    }
    return json(res, 400, { error: 'unsupported_grant_type' });
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/authorize') return authorize(url, res);
    if (req.method === 'GET' && url.pathname === '/me') {
      const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      return provider.isLive(bearer) ? json(res, 200, { login: 'ana' }) : json(res, 401, { error: 'invalid_token' });
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => token(new URLSearchParams(body), res));
      return undefined;
    }
    return json(res, 404, { error: 'not_found' });
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const provider: OAuthProvider = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    clientId: 'drydock-test-client',
    clientSecret: `secret_${random()}`,
    decision: 'approve',
    tokenMode: 'normal',
    accessTokenSeconds: 3600,
    rotateRefreshTokens: true,
    tokenType: 'Bearer',
    tokenRequests,
    revokeRefreshTokens: () => refreshTokens.clear(),
    isLive: (accessToken) => (accessTokens.get(accessToken) ?? 0) > Date.now(),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return provider;
}
