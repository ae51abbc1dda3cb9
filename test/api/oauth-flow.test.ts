import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getUserAccessToken } from '../../src-main/features/oauth';
import { KeychainSecretStore, keychainServiceFor } from '../../src-main/platform/secrets';
import { sha256 } from '../../src-main/platform/tokens/tokens';
import { startOAuthProvider, type OAuthProvider } from '../support/oauth-provider';
import { startTestService, type TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';

// The user OAuth flow end to end over real HTTP: this service, a browser's part played by fetch
// (following the provider's redirect to the callback), an OAuth 2.0 server on loopback
// (test/support/oauth-provider.ts), and the real OS keychain (gnome-keyring under `npm test`).
let svc: TestService;
let provider: OAuthProvider;
let keychain: KeychainSecretStore;
const integrations: number[] = [];

beforeAll(async () => {
  svc = await startTestService({ secrets: 'keychain' });
  keychain = new KeychainSecretStore(keychainServiceFor(svc.dataDir));
  provider = await startOAuthProvider();
});
afterAll(async () => {
  // Deleting the integrations takes their secrets and every user's tokens out of the keychain.
  for (const id of integrations) await svc.call('DELETE', `/api/v1/oauth-integrations/${id}`);
  await svc.stop();
  await keychain.delete('jwt-signing-key');
  await keychain.delete('oidc-signing-key');
  await provider.close();
});

let counter = 0;
const decodeProtectedKid = (token: string): string => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')).kid;
async function integration(extra: Record<string, unknown> = {}): Promise<{ id: number; name: string; redirectUri: string }> {
  const res = await svc.call('POST', '/api/v1/oauth-integrations/', {
    body: {
      name: `provider ${++counter}`,
      provider: 'custom',
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      authorizationUrl: `${provider.url}/authorize`,
      tokenUrl: `${provider.url}/token`,
      scopes: ['repo', 'read:user'],
      ...extra,
    },
  });
  expect(res.status, res.text).toBe(201);
  integrations.push(res.body.id);
  return res.body;
}

/** The browser's part: open the authorization URL, follow the provider's redirect; returns the callback URL it lands on. */
async function consent(authorizationUrl: string): Promise<string> {
  const res = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

const openCallback = async (callbackUrl: string, accept = 'text/html,application/xhtml+xml') => {
  const res = await fetch(callbackUrl, { headers: { accept } });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', csp: res.headers.get('content-security-policy'), text: await res.text() };
};

async function initiate(user: TestUser, integrationId: number) {
  const res = await svc.call('POST', `/api/v1/user-oauth-tokens/${integrationId}/initiate`, { auth: user.auth });
  expect(res.status, res.text).toBe(200);
  return res.body as { authorizationUrl: string; state: string; redirectUri: string };
}

/** Connects a user through the whole flow; returns the callback URL that was used. */
async function connect(user: TestUser, integrationId: number): Promise<string> {
  const started = await initiate(user, integrationId);
  const callbackUrl = await consent(started.authorizationUrl);
  const page = await openCallback(callbackUrl);
  expect(page.status, page.text).toBe(200);
  return callbackUrl;
}

const tokensOf = async (user: TestUser, integrationId: number) => ({
  access: await keychain.get(`user-oauth:${user.id}:${integrationId}:access-token`),
  refresh: await keychain.get(`user-oauth:${user.id}:${integrationId}:refresh-token`),
});

const connections = async (user: TestUser) => (await svc.call('GET', '/api/v1/user-oauth-tokens/', { auth: user.auth })).body.items;

describe('user OAuth tokens: the authorization-code flow with PKCE', () => {
  it('connecting exchanges the code at the token endpoint with the PKCE verifier and keeps the tokens only in the keychain', async () => {
    const user = createUser(svc, 'developer');
    const created = await integration();
    // Left out, the redirect URI is this service's own loopback callback.
    expect(created.redirectUri).toBe(`${svc.url}/api/v1/user-oauth-tokens/callback`);
    const started = await initiate(user, created.id);
    const challenge = new URL(started.authorizationUrl).searchParams.get('code_challenge');
    const callbackUrl = await consent(started.authorizationUrl);
    expect(callbackUrl.startsWith(`${svc.url}/api/v1/user-oauth-tokens/callback?`)).toBe(true);

    const page = await openCallback(callbackUrl);
    expect(page.status).toBe(200);
    expect(page.contentType).toContain('text/html');
    expect(page.text).toContain(`Connected to ${created.name}`);
    expect(page.csp).toContain("default-src 'none'");
    expect(page.text).not.toMatch(/<script/i);

    const exchange = provider.tokenRequests.at(-1)!;
    expect(exchange.get('grant_type')).toBe('authorization_code');
    expect(exchange.get('redirect_uri')).toBe(started.redirectUri);
    expect(createHash('sha256').update(exchange.get('code_verifier')!).digest('base64url')).toBe(challenge);

    const { access, refresh } = await tokensOf(user, created.id);
    expect(access).toMatch(/^at_/);
    expect(refresh).toMatch(/^rt_/);
    expect(provider.isLive(access!)).toBe(true);
    expect(page.text).not.toContain(access!);
    expect(page.text).not.toContain(refresh!);

    const [listed] = await connections(user);
    expect(listed).toMatchObject({ integrationId: created.id, scopes: ['repo', 'read:user'], hasRefreshToken: true, refreshedAt: null });
    expect(Date.parse(listed.expiresAt) - Date.now()).toBeGreaterThan(3500 * 1000);
    // SQLite holds the metadata and the keychain reference, never a token value.
    const row = svc.ctx.db.prepare('SELECT * FROM user_oauth_tokens WHERE user_id = ?').get(user.id) as Record<string, unknown>;
    expect(row.secret_ref).toBe(`user-oauth:${user.id}:${created.id}`);
    svc.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    const file = readFileSync(join(svc.dataDir, 'drydock.sqlite')).toString('latin1');
    expect(file.includes(access!)).toBe(false);
    expect(file.includes(refresh!)).toBe(false);
    // The verifier left the keychain with the used state.
    expect(await keychain.get(`oauth-pkce:${sha256(started.state)}`)).toBeNull();
  });

  it('a state works once: a replayed callback answers OAUTH_STATE_USED and changes nothing', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    const callbackUrl = await connect(user, created.id);
    const before = await tokensOf(user, created.id);
    const exchanges = provider.tokenRequests.length;
    const replay = await openCallback(callbackUrl, 'application/json');
    expect(replay.status).toBe(400);
    expect(replay.contentType).toContain('application/problem+json');
    expect(JSON.parse(replay.text).code).toBe('OAUTH_STATE_USED');
    expect(provider.tokenRequests.length).toBe(exchanges);
    expect(await tokensOf(user, created.id)).toEqual(before);
  });

  it('an unknown state is OAUTH_STATE_INVALID, none OAUTH_STATE_MISSING, one older than ten minutes OAUTH_STATE_EXPIRED', async () => {
    const callback = `${svc.url}/api/v1/user-oauth-tokens/callback`;
    const unknown = await openCallback(`${callback}?state=never-issued&code=x`, '*/*');
    expect([unknown.status, JSON.parse(unknown.text).code]).toEqual([400, 'OAUTH_STATE_INVALID']);
    const missing = await openCallback(`${callback}?code=x`, '*/*');
    expect([missing.status, JSON.parse(missing.text).code]).toEqual([400, 'OAUTH_STATE_MISSING']);

    const user = createUser(svc, 'viewer');
    const created = await integration();
    const started = await initiate(user, created.id);
    const callbackUrl = await consent(started.authorizationUrl);
    svc.ctx.db.prepare('UPDATE oauth_authorizations SET expires_at = ? WHERE state_hash = ?').run(new Date(Date.now() - 1000).toISOString(), sha256(started.state));
    const expired = await openCallback(callbackUrl);
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('OAUTH_STATE_EXPIRED');
    expect(expired.text).toContain('The connection did not work');
    expect(await connections(user)).toEqual([]);
  });

  it('the provider refuses a wrong code verifier: 502 OAUTH_TOKEN_EXCHANGE_FAILED with its error, and nothing is stored', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    const started = await initiate(user, created.id);
    const callbackUrl = await consent(started.authorizationUrl);
    // Another verifier than the one the challenge was made from (as if an attacker had intercepted the code).
    await keychain.set(`oauth-pkce:${sha256(started.state)}`, 'x'.repeat(64));
    const res = await openCallback(callbackUrl, 'application/json');
    expect(res.status).toBe(502);
    expect(JSON.parse(res.text)).toMatchObject({ code: 'OAUTH_TOKEN_EXCHANGE_FAILED', providerError: 'invalid_grant' });
    expect(JSON.parse(res.text).detail).toContain('PKCE verification failed');
    expect(await connections(user)).toEqual([]);
    expect(await tokensOf(user, created.id)).toEqual({ access: null, refresh: null });
  });

  it('declining at the provider (error=access_denied) answers 403 OAUTH_ACCESS_DENIED, as a page in the browser', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    provider.decision = 'deny';
    try {
      const callbackUrl = await consent((await initiate(user, created.id)).authorizationUrl);
      const page = await openCallback(callbackUrl);
      expect(page.status).toBe(403);
      expect(page.contentType).toContain('text/html');
      expect(page.text).toContain('Access was not granted');
      expect(page.text).toContain('OAUTH_ACCESS_DENIED');
      const again = await openCallback((await consent((await initiate(user, created.id)).authorizationUrl)), 'application/json');
      expect(JSON.parse(again.text)).toMatchObject({ status: 403, code: 'OAUTH_ACCESS_DENIED', providerError: 'access_denied' });
    } finally {
      provider.decision = 'approve';
    }
    expect(await connections(user)).toEqual([]);
  });

  it('another provider error is 502 OAUTH_PROVIDER_ERROR; the page shows its description as text, never as markup', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    const started = await initiate(user, created.id);
    const description = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const callback = new URL(started.redirectUri);
    callback.search = new URLSearchParams({ state: started.state, error: 'server_error', error_description: description }).toString();
    const page = await openCallback(callback.toString());
    expect(page.status).toBe(502);
    expect(page.text).toContain('OAUTH_PROVIDER_ERROR');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(page.text).not.toContain('<script');
    expect(page.text).not.toContain('<img');
    expect(await connections(user)).toEqual([]);
  });

  it('a token endpoint that answers HTML or a non-JSON error is OAUTH_TOKEN_RESPONSE_INVALID; one that cannot be reached OAUTH_TOKEN_ENDPOINT_UNREACHABLE', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    for (const mode of ['html', 'down'] as const) {
      const callbackUrl = await consent((await initiate(user, created.id)).authorizationUrl);
      provider.tokenMode = mode;
      try {
        const res = await openCallback(callbackUrl, 'application/json');
        expect(res.status, mode).toBe(502);
        expect(JSON.parse(res.text).code, mode).toBe('OAUTH_TOKEN_RESPONSE_INVALID');
      } finally {
        provider.tokenMode = 'normal';
      }
    }
    const nowhere = await integration({ tokenUrl: 'http://127.0.0.1:1/token' });
    const res = await openCallback(await consent((await initiate(user, nowhere.id)).authorizationUrl), 'application/json');
    expect([res.status, JSON.parse(res.text).code]).toEqual([502, 'OAUTH_TOKEN_ENDPOINT_UNREACHABLE']);
    expect(await connections(user)).toEqual([]);
  });

  it('an expired access token is refreshed (refresh_token grant) before use, and the rotated refresh token replaces the old one', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    provider.accessTokenSeconds = 1;
    try {
      await connect(user, created.id);
    } finally {
      provider.accessTokenSeconds = 3600;
    }
    const before = await tokensOf(user, created.id);
    const fresh = await getUserAccessToken(svc.ctx, user.id, created.id);
    expect(fresh).not.toBe(before.access);
    expect(provider.isLive(fresh!)).toBe(true);
    const refresh = provider.tokenRequests.at(-1)!;
    expect(refresh.get('grant_type')).toBe('refresh_token');
    expect(refresh.get('refresh_token')).toBe(before.refresh);
    const after = await tokensOf(user, created.id);
    expect(after.access).toBe(fresh);
    expect(after.refresh).not.toBe(before.refresh);
    const [listed] = await connections(user);
    expect(listed.refreshedAt).not.toBeNull();
    expect(Date.parse(listed.expiresAt) - Date.now()).toBeGreaterThan(3500 * 1000);
    // Not expired: used as it is, no request to the provider.
    const requests = provider.tokenRequests.length;
    expect(await getUserAccessToken(svc.ctx, user.id, created.id)).toBe(fresh);
    expect(provider.tokenRequests.length).toBe(requests);
  });

  it('refresh on demand answers the connection; a refused refresh token is 502 OAUTH_REFRESH_FAILED and the connection stays', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    await connect(user, created.id);
    const before = await tokensOf(user, created.id);
    const ok = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/refresh`, { auth: user.auth });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ integrationId: created.id, hasRefreshToken: true });
    expect(ok.body.refreshedAt).not.toBeNull();
    expect((await tokensOf(user, created.id)).access).not.toBe(before.access);

    provider.revokeRefreshTokens();
    const refused = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/refresh`, { auth: user.auth });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ code: 'OAUTH_REFRESH_FAILED', providerError: 'invalid_grant' });
    expect(refused.body.detail).toContain('connect again');
    expect(await connections(user)).toHaveLength(1);
    const other = createUser(svc, 'viewer');
    const notConnected = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/refresh`, { auth: other.auth });
    expect([notConnected.status, notConnected.body.code]).toEqual([404, 'USER_OAUTH_TOKEN_NOT_FOUND']);
  });

  it('disconnecting (DELETE) removes both tokens from the keychain', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    await connect(user, created.id);
    expect((await tokensOf(user, created.id)).access).not.toBeNull();
    expect((await svc.call('DELETE', `/api/v1/user-oauth-tokens/${created.id}`, { auth: user.auth })).status).toBe(204);
    expect(await tokensOf(user, created.id)).toEqual({ access: null, refresh: null });
    expect(await connections(user)).toEqual([]);
    expect(await getUserAccessToken(svc.ctx, user.id, created.id)).toBeNull();
  });
});

describe('user OAuth tokens: the protocol rules a provider relies on', () => {
  it('the authorization request asks for a code with an S256 challenge of the verifier later sent, a fresh state of 128 bits or more, and the token request repeats the redirect URI exactly', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    const first = await initiate(user, created.id);
    const second = await initiate(user, created.id);
    const asked = new URL(first.authorizationUrl).searchParams;
    expect(asked.get('response_type')).toBe('code');
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('client_id')).toBe(provider.clientId);
    expect(asked.get('scope')).toBe('repo read:user');
    expect(asked.get('state')).toBe(first.state);
    // RFC 6749 §10.10 / RFC 6819: a state an attacker cannot guess (base64url, 6 bits a character).
    expect(first.state).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(second.state).not.toBe(first.state);
    expect(new URL(second.authorizationUrl).searchParams.get('code_challenge')).not.toBe(asked.get('code_challenge'));

    const page = await openCallback(await consent(first.authorizationUrl));
    expect(page.status, page.text).toBe(200);
    const exchange = provider.tokenRequests.at(-1)!;
    expect(exchange.get('grant_type')).toBe('authorization_code');
    const verifier = exchange.get('code_verifier')!;
    // RFC 7636 §4.1: 43 to 128 unreserved characters; §4.2: the challenge is BASE64URL(SHA256(verifier)).
    expect(verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(createHash('sha256').update(verifier, 'ascii').digest('base64url')).toBe(asked.get('code_challenge'));
    expect(exchange.get('redirect_uri')).toBe(asked.get('redirect_uri'));
    expect(exchange.get('redirect_uri')).toBe(first.redirectUri);
  });

  it('a token of a type other than bearer is OAUTH_TOKEN_RESPONSE_INVALID and nothing is stored; bearer is accepted in any case', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    provider.tokenType = 'mac';
    try {
      const refused = await openCallback(await consent((await initiate(user, created.id)).authorizationUrl), 'application/json');
      expect(refused.status).toBe(502);
      expect(JSON.parse(refused.text)).toMatchObject({ code: 'OAUTH_TOKEN_RESPONSE_INVALID' });
      expect(JSON.parse(refused.text).detail).toContain('token_type "mac"');
      expect(await connections(user)).toEqual([]);
      expect(await tokensOf(user, created.id)).toEqual({ access: null, refresh: null });
      provider.tokenType = 'bearer';
      await connect(user, created.id);
      expect(await connections(user)).toHaveLength(1);
    } finally {
      provider.tokenType = 'Bearer';
    }
  });

  it('a refresh that issues no new refresh token keeps the stored one, which refreshes again', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    await connect(user, created.id);
    const before = await tokensOf(user, created.id);
    provider.rotateRefreshTokens = false;
    try {
      for (let round = 0; round < 2; round += 1) {
        const refreshed = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/refresh`, { auth: user.auth });
        expect(refreshed.status, refreshed.text).toBe(200);
        expect(refreshed.body.hasRefreshToken).toBe(true);
        expect(provider.tokenRequests.at(-1)!.get('refresh_token')).toBe(before.refresh);
      }
      const after = await tokensOf(user, created.id);
      expect(after.refresh).toBe(before.refresh);
      expect(after.access).not.toBe(before.access);
      expect(provider.isLive(after.access!)).toBe(true);
      // The scopes granted at connection stay when a refresh response does not restate them.
      expect((await connections(user))[0].scopes).toEqual(['repo', 'read:user']);
    } finally {
      provider.rotateRefreshTokens = true;
    }
  });
});

describe('OIDC token configs: minted tokens verify against the published keys', () => {
  async function config(body: Record<string, unknown>) {
    const res = await svc.call('POST', '/api/v1/oidc-token-configs/', { body: { name: `oidc ${++counter}`, ...body } });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number };
  }

  it('a minted token verifies with jose against the published key set, with iss, aud, sub, exp and attribute claims as configured', async () => {
    const region = await svc.call('POST', '/api/v1/user-attributes/', { body: { name: `region_${++counter}`, type: 'string' } });
    const email = `ana-${counter}@example.com`;
    const user = createUser(svc, 'viewer', { email });
    await svc.call('POST', '/api/v1/user-attribute-values/', { body: { userId: user.id, values: [{ attributeId: region.body.id, value: 'emea' }] } });
    const { id } = await config({ audience: 'https://warehouse.example.com', ttlSeconds: 600, attributeClaims: [region.body.name] });

    const minted = await svc.call('POST', `/api/v1/oidc-token-configs/${id}/token`, { auth: user.auth });
    expect(minted.status, minted.text).toBe(201);
    const discovery = await svc.call('GET', '/api/v1/oidc/.well-known/openid-configuration', { auth: null });
    expect(discovery.status).toBe(200);
    expect(discovery.body.issuer).toBe(`${svc.url}/api/v1/oidc`);
    expect(discovery.body.jwks_uri).toBe(minted.body.jwksUri);

    const keys = createRemoteJWKSet(new URL(discovery.body.jwks_uri));
    const { payload, protectedHeader } = await jwtVerify(minted.body.token, keys, {
      issuer: discovery.body.issuer,
      audience: 'https://warehouse.example.com',
      algorithms: ['RS256'],
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload.sub).toBe(email);
    expect(payload[region.body.name]).toBe('emea');
    expect(payload.exp! - payload.iat!).toBe(600);
    expect(new Date(payload.exp! * 1000).toISOString()).toBe(minted.body.expiresAt);

    const byId = await config({ audience: 'sts.example.com', subjectClaim: 'userId' });
    const second = await svc.call('POST', `/api/v1/oidc-token-configs/${byId.id}/token`, { auth: user.auth });
    expect((await jwtVerify(second.body.token, keys, { issuer: discovery.body.issuer, audience: 'sts.example.com' })).payload.sub).toBe(String(user.id));
  });

  it('minted tokens carry what relying parties check: typ JWT and the published key’s kid, nbf = iat, a fresh jti each time; discovery names the metadata OpenID Connect Discovery requires', async () => {
    const { id } = await config({ audience: 'https://warehouse.example.com', ttlSeconds: 300 });
    const user = createUser(svc, 'viewer');
    const first = await svc.call('POST', `/api/v1/oidc-token-configs/${id}/token`, { auth: user.auth });
    const second = await svc.call('POST', `/api/v1/oidc-token-configs/${id}/token`, { auth: user.auth });
    expect([first.status, second.status]).toEqual([201, 201]);
    const jwks = await svc.call('GET', '/api/v1/oidc/jwks.json', { auth: null });
    const header = JSON.parse(Buffer.from(first.body.token.split('.')[0], 'base64url').toString('utf8'));
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT', kid: jwks.body.keys[0].kid });
    const claims = decodeJwt(first.body.token);
    expect(claims.nbf).toBe(claims.iat);
    expect(claims.exp! - claims.iat!).toBe(300);
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(decodeJwt(second.body.token).jti).not.toBe(claims.jti);
    expect(first.body.tokenType).toBe('Bearer');

    const discovery = await svc.call('GET', '/api/v1/oidc/.well-known/openid-configuration', { auth: null });
    // OpenID Connect Discovery 1.0 §3 and §4.3: the issuer is the prefix of the discovery URL, and equals the tokens' iss.
    expect(`${discovery.body.issuer}/.well-known/openid-configuration`).toBe(`${svc.url}/api/v1/oidc/.well-known/openid-configuration`);
    expect(claims.iss).toBe(discovery.body.issuer);
    expect(discovery.body).toMatchObject({
      jwks_uri: `${svc.url}/api/v1/oidc/jwks.json`,
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
    expect(discovery.body.response_types_supported).toEqual(expect.any(Array));
    expect(discovery.body.claims_supported).toEqual(expect.arrayContaining(['iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'jti']));
  });

  it('the signing key survives a restart: a token minted before it still verifies against the key set served after it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'drydock-oidc-'));
    const store = new KeychainSecretStore(keychainServiceFor(dataDir));
    try {
      const before = await startTestService({ secrets: 'keychain', dataDir });
      const made = await before.call('POST', '/api/v1/oidc-token-configs/', { body: { name: 'restart', audience: 'https://warehouse.example.com' } });
      const minted = await before.call('POST', `/api/v1/oidc-token-configs/${made.body.id}/token`);
      expect(minted.status, minted.text).toBe(201);
      await before.stop();
      const after = await startTestService({ secrets: 'keychain', dataDir });
      try {
        const keys = createRemoteJWKSet(new URL(`${after.url}/api/v1/oidc/jwks.json`));
        // The issuer names the port the token was minted on (run on a fixed --port when a relying party pins it).
        const verified = await jwtVerify(minted.body.token, keys, { issuer: minted.body.issuer, audience: 'https://warehouse.example.com' });
        expect(verified.protectedHeader.kid).toBe(decodeProtectedKid(minted.body.token));
      } finally {
        await after.stop();
      }
    } finally {
      await store.delete('oidc-signing-key');
      await store.delete('jwt-signing-key');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a tampered token, or one for another audience, does not verify', async () => {
    const { id } = await config({ audience: 'https://warehouse.example.com' });
    const user = createUser(svc, 'viewer');
    const minted = await svc.call('POST', `/api/v1/oidc-token-configs/${id}/token`, { auth: user.auth });
    const keys = createRemoteJWKSet(new URL(minted.body.jwksUri));
    const [header, , signature] = minted.body.token.split('.');
    const claims = { ...decodeJwt(minted.body.token), sub: 'admin@example.com' };
    const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    await expect(jwtVerify(tampered, keys, { issuer: minted.body.issuer, audience: 'https://warehouse.example.com' })).rejects.toMatchObject({
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
    await expect(jwtVerify(minted.body.token, keys, { issuer: minted.body.issuer, audience: 'https://other.example.com' })).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
    });
  });

  it('publishes only the public key; the private key is in the keychain', async () => {
    const jwks = await svc.call('GET', '/api/v1/oidc/jwks.json', { auth: null });
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.body.keys[0].d).toBeUndefined();
    const stored = JSON.parse((await keychain.get('oidc-signing-key'))!);
    expect(stored.kid).toBe(jwks.body.keys[0].kid);
    expect(typeof stored.d).toBe('string');
  });

  it('refuses attribute claims that would replace a registered claim (OIDC_CLAIM_RESERVED)', async () => {
    const res = await svc.call('POST', '/api/v1/oidc-token-configs/', { body: { name: `oidc ${++counter}`, audience: 'a', attributeClaims: ['sub'] } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'OIDC_CLAIM_RESERVED', errors: [{ pointer: '/body/attributeClaims/0' }] });
  });
});
