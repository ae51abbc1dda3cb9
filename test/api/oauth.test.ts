import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeUserOAuthAuthorization, getUserAccessToken } from '../../src-main/features/oauth';
import { startTestService, type TestService } from '../support/service';
import { bearerFor, createUser } from '../support/users';

let svc: TestService;
let provider: Server;
let providerUrl: string;
/** What the fake authorization server last received at its token endpoint. */
let lastTokenRequest: URLSearchParams | null = null;

beforeAll(async () => {
  svc = await startTestService();
  provider = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      lastTokenRequest = new URLSearchParams(body);
      res.setHeader('content-type', 'application/json');
      if (lastTokenRequest.get('code') === 'bad-code') {
        res.statusCode = 400;
        res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'code expired' }));
        return;
      }
      res.end(JSON.stringify({ access_token: `at-${lastTokenRequest.get('code')}`, refresh_token: 'rt-1', expires_in: 3600, scope: 'read write' }));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await svc.stop();
  await new Promise((resolve) => provider.close(resolve));
});

let counter = 0;
const integrationBody = (extra: Record<string, unknown> = {}) => ({
  name: `integration ${++counter}`,
  provider: 'github',
  clientId: 'client-123',
  clientSecret: 'very-secret-value',
  authorizationUrl: `${providerUrl}/authorize?prompt=consent`,
  tokenUrl: `${providerUrl}/token`,
  redirectUri: 'https://app.example.com/oauth/callback',
  scopes: ['read', 'write'],
  ...extra,
});
async function integration(extra: Record<string, unknown> = {}): Promise<{ id: number; name: string }> {
  const res = await svc.call('POST', '/api/v1/oauth-integrations/', { body: integrationBody(extra) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('OAuth integrations', () => {
  it('stores the client secret in the SecretStore and never returns it', async () => {
    const created = await svc.call('POST', '/api/v1/oauth-integrations/', { body: integrationBody() });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain('very-secret-value');
    expect(created.body).toMatchObject({ hasClientSecret: true, clientId: 'client-123', scopes: ['read', 'write'] });
    expect(await svc.ctx.secrets.get(`oauth-integration:${created.body.id}:client-secret`)).toBe('very-secret-value');
    const row = JSON.stringify(svc.ctx.db.prepare('SELECT * FROM oauth_integrations WHERE id = ?').get(created.body.id));
    expect(row).not.toContain('very-secret-value');
    const list = await svc.call('GET', '/api/v1/oauth-integrations/');
    expect(list.text).not.toContain('very-secret-value');
    expect((await svc.call('GET', `/api/v1/oauth-integrations/${created.body.id}`)).text).not.toContain('very-secret-value');
  });

  it('updates only the fields sent and replaces the secret when a new one is sent', async () => {
    const created = await integration();
    const res = await svc.call('PUT', `/api/v1/oauth-integrations/${created.id}`, { body: { clientSecret: 'rotated', scopes: ['read'] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: created.name, scopes: ['read'], clientId: 'client-123' });
    expect(res.text).not.toContain('rotated');
    expect(await svc.ctx.secrets.get(`oauth-integration:${created.id}:client-secret`)).toBe('rotated');
  });

  it('keeps the old secret when an update fails (taken name → 409)', async () => {
    const a = await integration();
    const b = await integration();
    const res = await svc.call('PUT', `/api/v1/oauth-integrations/${b.id}`, { body: { name: a.name, clientSecret: 'never-stored' } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('OAUTH_INTEGRATION_NAME_TAKEN');
    expect(await svc.ctx.secrets.get(`oauth-integration:${b.id}:client-secret`)).toBe('very-secret-value');
  });

  it('refuses non-https endpoints except on localhost, and a missing client secret', async () => {
    const http = await svc.call('POST', '/api/v1/oauth-integrations/', { body: integrationBody({ tokenUrl: 'http://provider.example.com/token' }) });
    expect(http.status).toBe(400);
    expect(http.body.errors[0].pointer).toBe('/body/tokenUrl');
    const { clientSecret: _omit, ...noSecret } = integrationBody();
    expect((await svc.call('POST', '/api/v1/oauth-integrations/', { body: noSecret })).status).toBe(400);
  });

  it('deletes with 204, removing the client secret; then 404', async () => {
    const created = await integration();
    expect((await svc.call('DELETE', `/api/v1/oauth-integrations/${created.id}`)).status).toBe(204);
    expect(await svc.ctx.secrets.get(`oauth-integration:${created.id}:client-secret`)).toBeNull();
    const gone = await svc.call('GET', `/api/v1/oauth-integrations/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('OAUTH_INTEGRATION_NOT_FOUND');
  });

  it('lets any workspace user list integrations but only admins change them', async () => {
    const viewer = createUser(svc, 'viewer');
    expect((await svc.call('GET', '/api/v1/oauth-integrations/', { auth: viewer.auth })).status).toBe(200);
    expect((await svc.call('POST', '/api/v1/oauth-integrations/', { body: integrationBody(), auth: viewer.auth })).status).toBe(403);
  });
});

describe('OIDC token configs', () => {
  it('creates with defaults, reads, updates and deletes', async () => {
    const created = await svc.call('POST', '/api/v1/oidc-token-configs/', { body: { name: 'warehouse', audience: 'https://warehouse.example.com' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ subjectClaim: 'email', attributeClaims: [], ttlSeconds: 3600, description: null });
    const id = created.body.id;
    const updated = await svc.call('PUT', `/api/v1/oidc-token-configs/${id}`, { body: { ttlSeconds: 600, subjectClaim: 'userId' } });
    expect(updated.body).toMatchObject({ ttlSeconds: 600, subjectClaim: 'userId', audience: 'https://warehouse.example.com' });
    expect((await svc.call('GET', '/api/v1/oidc-token-configs/')).body.items.map((c: { id: number }) => c.id)).toContain(id);
    expect((await svc.call('DELETE', `/api/v1/oidc-token-configs/${id}`)).status).toBe(204);
    expect((await svc.call('GET', `/api/v1/oidc-token-configs/${id}`)).body.code).toBe('OIDC_TOKEN_CONFIG_NOT_FOUND');
  });

  it('takes claims only from defined user attributes', async () => {
    const missing = await svc.call('POST', '/api/v1/oidc-token-configs/', { body: { name: 'x1', audience: 'a', attributeClaims: ['region'] } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('USER_ATTRIBUTE_NOT_FOUND');
    expect(missing.body.errors[0].pointer).toBe('/body/attributeClaims/0');
    await svc.call('POST', '/api/v1/user-attributes/', { body: { name: 'region', type: 'string' } });
    const ok = await svc.call('POST', '/api/v1/oidc-token-configs/', { body: { name: 'x2', audience: 'a', attributeClaims: ['region'] } });
    expect(ok.status).toBe(201);
  });

  it('refuses a lifetime outside 60 to 3600 seconds, and non-admins', async () => {
    expect((await svc.call('POST', '/api/v1/oidc-token-configs/', { body: { name: 'x3', audience: 'a', ttlSeconds: 7200 } })).status).toBe(400);
    const developer = createUser(svc, 'developer');
    expect((await svc.call('GET', '/api/v1/oidc-token-configs/', { auth: developer.auth })).status).toBe(403);
  });
});

describe('user OAuth tokens', () => {
  it('initiate returns an authorization URL with state and an S256 PKCE challenge', async () => {
    const created = await integration();
    const res = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/initiate`);
    expect(res.status).toBe(200);
    const url = new URL(res.body.authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${providerUrl}/authorize`);
    expect(url.searchParams.get('prompt')).toBe('consent');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('client-123');
    expect(url.searchParams.get('redirect_uri')).toBe('https://app.example.com/oauth/callback');
    expect(url.searchParams.get('scope')).toBe('read write');
    expect(url.searchParams.get('state')).toBe(res.body.state);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.text).not.toContain('very-secret-value');
    const again = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/initiate`);
    expect(again.body.state).not.toBe(res.body.state);
  });

  it('completes with the PKCE verifier, keeps token values only in the SecretStore, and lists the connection', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    const started = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/initiate`, { auth: user.auth });
    const challenge = new URL(started.body.authorizationUrl).searchParams.get('code_challenge');
    const token = await completeUserOAuthAuthorization(svc.ctx, { state: started.body.state, code: 'code-1' });
    expect(token).toMatchObject({ integrationId: created.id, scopes: ['read', 'write'], hasRefreshToken: true });
    const verifier = lastTokenRequest!.get('code_verifier')!;
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(challenge);
    expect(lastTokenRequest!.get('client_secret')).toBe('very-secret-value');
    expect(await getUserAccessToken(svc.ctx, user.id, created.id)).toBe('at-code-1');
    const list = await svc.call('GET', '/api/v1/user-oauth-tokens/', { auth: user.auth });
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ integrationId: created.id, integrationName: created.name, provider: 'github' });
    expect(list.text).not.toContain('at-code-1');
    expect(list.text).not.toContain('rt-1');
    expect(JSON.stringify(svc.ctx.db.prepare('SELECT * FROM user_oauth_tokens').all())).not.toContain('at-code-1');
    // Other users see only their own connections.
    const other = createUser(svc, 'viewer');
    expect((await svc.call('GET', '/api/v1/user-oauth-tokens/', { auth: other.auth })).body.items).toEqual([]);
  });

  it('uses a state once (a replay is OAUTH_STATE_USED)', async () => {
    const created = await integration();
    const started = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/initiate`);
    await completeUserOAuthAuthorization(svc.ctx, { state: started.body.state, code: 'code-2' });
    await expect(completeUserOAuthAuthorization(svc.ctx, { state: started.body.state, code: 'code-2' })).rejects.toMatchObject({
      code: 'OAUTH_STATE_USED',
    });
  });

  it('reports a refused code as OAUTH_TOKEN_EXCHANGE_FAILED and stores nothing', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    const started = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/initiate`, { auth: user.auth });
    await expect(completeUserOAuthAuthorization(svc.ctx, { state: started.body.state, code: 'bad-code' })).rejects.toMatchObject({
      code: 'OAUTH_TOKEN_EXCHANGE_FAILED',
      status: 502,
    });
    expect((await svc.call('GET', '/api/v1/user-oauth-tokens/', { auth: user.auth })).body.items).toEqual([]);
  });

  it('disconnects with DELETE (204), deleting the tokens; a second delete is 404', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    const started = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/initiate`, { auth: user.auth });
    await completeUserOAuthAuthorization(svc.ctx, { state: started.body.state, code: 'code-3' });
    expect((await svc.call('DELETE', `/api/v1/user-oauth-tokens/${created.id}`, { auth: user.auth })).status).toBe(204);
    expect(await getUserAccessToken(svc.ctx, user.id, created.id)).toBeNull();
    expect(await svc.ctx.secrets.get(`user-oauth:${user.id}:${created.id}:access-token`)).toBeNull();
    expect(await svc.ctx.secrets.get(`user-oauth:${user.id}:${created.id}:refresh-token`)).toBeNull();
    const again = await svc.call('DELETE', `/api/v1/user-oauth-tokens/${created.id}`, { auth: user.auth });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('USER_OAUTH_TOKEN_NOT_FOUND');
  });

  it('deleting an integration deletes every user’s tokens for it', async () => {
    const user = createUser(svc, 'viewer');
    const created = await integration();
    const started = await svc.call('POST', `/api/v1/user-oauth-tokens/${created.id}/initiate`, { auth: user.auth });
    await completeUserOAuthAuthorization(svc.ctx, { state: started.body.state, code: 'code-4' });
    await svc.call('DELETE', `/api/v1/oauth-integrations/${created.id}`);
    expect(await svc.ctx.secrets.get(`user-oauth:${user.id}:${created.id}:access-token`)).toBeNull();
    expect((await svc.call('GET', '/api/v1/user-oauth-tokens/', { auth: user.auth })).body.items).toEqual([]);
  });

  it('answers 404 initiating an unknown integration, and refuses embed sessions', async () => {
    expect((await svc.call('POST', '/api/v1/user-oauth-tokens/999999/initiate')).body.code).toBe('OAUTH_INTEGRATION_NOT_FOUND');
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme' });
    expect((await svc.call('GET', '/api/v1/user-oauth-tokens/', { auth: embed })).status).toBe(403);
  });
});
