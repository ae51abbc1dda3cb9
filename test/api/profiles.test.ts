import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultyLink, serveClient, type ServeClient } from '../support/remote-pair';

// Two real `drydock serve` processes: `local` holds the profiles, `remote` is the other service.
// Both admins use the same API key, so a test can show that the caller's own credential is never
// what reaches the remote (it would be accepted there).
const SHARED_KEY = 'dd_profiles_shared_admin_key_0123456789abcdef';
let local: ServeClient;
let remote: ServeClient;

beforeAll(async () => {
  [local, remote] = await Promise.all([serveClient(SHARED_KEY, { DRYDOCK_PROFILE_TIMEOUT_MS: '4000' }), serveClient(SHARED_KEY)]);
  const created = await remote.call('POST', '/build/api/v1/deployments/', {
    body: { name: 'remote-only-deployment', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } },
  });
  expect(created.status, created.text).toBe(201);
}, 120_000);
afterAll(async () => {
  await Promise.all([local?.close(), remote?.close()]);
});

const createProfile = (name: string, baseUrl: string, credential = SHARED_KEY, extra: Record<string, unknown> = {}) =>
  local.call('POST', '/api/v1/profiles', { body: { name, baseUrl, credential, ...extra } });

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('profile records', () => {
  it('keeps the credential in the secret store only: never in a response nor in SQLite', async () => {
    const credential = 'dd_profile_secret_never_shown_0123456789';
    const res = await createProfile('vault', remote.url, credential, { description: 'staging tenant' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'vault', baseUrl: remote.url, credentialKind: 'api-key', hasCredential: true, lastCheck: null });
    expect(res.text).not.toContain(credential);
    expect((await local.call('GET', '/api/v1/profiles/vault')).text).not.toContain(credential);
    expect((await local.call('GET', '/api/v1/profiles')).text).not.toContain(credential);
    const sqlite = readFileSync(join(local.serve.dataDir, 'drydock.sqlite'));
    expect(sqlite.includes(Buffer.from(credential))).toBe(false);
    const secrets = JSON.parse(readFileSync(join(local.serve.dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(secrets['profile:vault:credential']).toBe(credential);
    expect(local.serve.output()).not.toContain(credential);
  });

  it('lists by name, updates only what is sent, and deletes with the keychain entry', async () => {
    await createProfile('b-edit', remote.url);
    const patched = await local.call('PATCH', '/api/v1/profiles/b-edit', { body: { description: 'renamed tenant' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ description: 'renamed tenant', baseUrl: remote.url, hasCredential: true });
    const names = (await local.call('GET', '/api/v1/profiles')).body.items.map((p: { name: string }) => p.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('b-edit');
    expect((await local.call('DELETE', '/api/v1/profiles/b-edit')).status).toBe(204);
    const gone = await local.call('GET', '/api/v1/profiles/b-edit');
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('PROFILE_NOT_FOUND');
    const secrets = JSON.parse(readFileSync(join(local.serve.dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
    expect(secrets['profile:b-edit:credential']).toBeUndefined();
  });

  it('refuses the reserved name, a taken name, clear-text http to another host and a credential that would split a header', async () => {
    expect((await createProfile('local', remote.url)).body.code).toBe('PROFILE_NAME_RESERVED');
    await createProfile('taken', remote.url);
    const again = await createProfile('taken', remote.url);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('PROFILE_EXISTS');
    const insecure = await createProfile('plain', 'http://tenant.example.com');
    expect(insecure.status).toBe(400);
    expect(insecure.body.code).toBe('PROFILE_URL_INSECURE');
    expect(insecure.body.errors[0].pointer).toBe('/body/baseUrl');
    const split = await createProfile('split', remote.url, 'abc\r\nX-Evil: 1');
    expect(split.status).toBe(400);
    expect((await local.call('GET', '/api/v1/profiles/split')).status).toBe(404);
  });

  it('is for admins with a session or an API key only', async () => {
    const user = await local.call('POST', '/api/v1/users/', { body: { email: 'dev-profiles@example.com', name: 'Dev', role: 'developer' } });
    expect(user.status, user.text).toBe(201);
    const key = await local.call('POST', '/api/v1/api-keys', { body: { name: 'dev key', userId: user.body.id } });
    expect(key.status, key.text).toBe(201);
    const developer = await local.call('GET', '/api/v1/profiles', { auth: `Api-Key ${key.body.token}` });
    expect(developer.status).toBe(403);
    const viaDeveloper = await local.call('GET', '/api/v1/profiles/vault/proxy/api/v1/deployments', { auth: `Api-Key ${key.body.token}` });
    expect(viaDeveloper.status).toBe(403);

    // A deployment token of the admin is confined to its deployment: no profiles through it.
    const deployment = await local.call('POST', '/build/api/v1/deployments/', {
      body: { name: 'local-one', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } },
    });
    const token = await local.call('POST', `/api/v1/deployments/${deployment.body.id}/token`, { body: { expiresIn: 600 } });
    expect(token.status, token.text).toBe(200);
    const confined = await local.call('GET', '/api/v1/profiles/vault/proxy/api/v1/deployments', { auth: `Bearer ${token.body.token}` });
    expect(confined.status).toBe(403);
    expect(confined.body.code).toBe('PROFILE_CREDENTIAL_REFUSED');
    expect((await local.call('GET', '/api/v1/profiles', { auth: null })).status).toBe(401);
  });
});

describe('connecting to a profile', () => {
  it('reads the remote spec: interface version and the operations it serves', async () => {
    await createProfile('remote', remote.url);
    const res = await local.call('POST', '/api/v1/profiles/remote/test');
    expect(res.status, res.text).toBe(200);
    expect(res.body.profile.lastCheck).toMatchObject({ ok: true, error: null, specVersion: '1.0.0', apiVersion: '3.1.0' });
    expect(res.body.profile.lastCheck.operationIds).toEqual(expect.arrayContaining(['listDeployments', 'startDataModelUpload', 'upsertWorkbookBySlug']));
    expect(res.body.remoteUser).toMatchObject({ role: 'admin' });
    // Kept: the switcher reads it without another round trip.
    expect((await local.call('GET', '/api/v1/profiles/remote')).body.lastCheck.ok).toBe(true);
  });

  it('says why when the credential is wrong or the service is down (still 200, ok: false)', async () => {
    await createProfile('wrong-key', remote.url, 'dd_not_a_valid_key_0000000000');
    const wrong = await local.call('POST', '/api/v1/profiles/wrong-key/test');
    expect(wrong.status).toBe(200);
    expect(wrong.body.profile.lastCheck.ok).toBe(false);
    expect(wrong.body.profile.lastCheck.error).toMatch(/^PROFILE_CREDENTIAL_REJECTED/);
    expect(wrong.body.profile.lastCheck.specVersion).toBe('1.0.0');

    await createProfile('down', `http://127.0.0.1:${await closedPort()}`);
    const down = await local.call('POST', '/api/v1/profiles/down/test');
    expect(down.body.profile.lastCheck).toMatchObject({ ok: false, specVersion: null, operationIds: [] });
    expect(down.body.profile.lastCheck.error).toMatch(/^PROFILE_UNREACHABLE/);
  });
});

describe('the proxy to a profile', () => {
  it('reaches the remote with the profile credential: the page sees the remote’s deployments', async () => {
    await createProfile('via-proxy', remote.url);
    const res = await local.call('GET', '/api/v1/profiles/via-proxy/proxy/api/v1/deployments?first=50');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('x-drydock-profile')).toBe('via-proxy');
    expect(res.body.items.map((d: { name: string }) => d.name)).toContain('remote-only-deployment');
    const own = await local.call('GET', '/api/v1/deployments?first=50');
    expect(own.body.items.map((d: { name: string }) => d.name)).not.toContain('remote-only-deployment');
  });

  it('forwards writes with their JSON bodies, and the remote’s problems as they are', async () => {
    await createProfile('writer', remote.url);
    const created = await local.call('POST', '/api/v1/profiles/writer/proxy/build/api/v1/deployments/', {
      body: { name: 'made-through-proxy', cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } },
    });
    expect(created.status, created.text).toBe(201);
    const seen = await remote.call('GET', `/api/v1/deployments/${created.body.id}`);
    expect(seen.body.name).toBe('made-through-proxy');
    const missing = await local.call('GET', '/api/v1/profiles/writer/proxy/api/v1/deployments/999999');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
  });

  it('never forwards the caller’s own credential: a profile with a bad key fails even though the caller’s key is valid there', async () => {
    await createProfile('bad-proxy', remote.url, 'dd_wrong_key_for_the_remote_000000');
    const res = await local.call('GET', '/api/v1/profiles/bad-proxy/proxy/api/v1/deployments');
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('PROFILE_CREDENTIAL_REJECTED');
    expect(res.body.profile).toBe('bad-proxy');
  });

  it('is not an open relay: unknown profiles, non-API paths, dot segments, encoded slashes and chains are refused', async () => {
    await createProfile('narrow', remote.url);
    expect((await local.call('GET', '/api/v1/profiles/nobody/proxy/api/v1/deployments')).body.code).toBe('PROFILE_NOT_FOUND');
    for (const path of ['/index.html', '/api/v2/x', '/api/v1/../../etc/passwd', '/api/v1/deployments/%2e%2e/x', '/api/v1/a%2fb', '/api/v1/profiles', '/api/v1/profiles/x/proxy/api/v1/deployments']) {
      const res = await local.call('GET', `/api/v1/profiles/narrow/proxy${path}`);
      expect([400, 404], `${path}: ${res.text}`).toContain(res.status);
      if (res.status === 400) expect(res.body.code).toBe('PROXY_PATH_REFUSED');
    }
    expect((await local.call('GET', '/api/v1/profiles/narrow/proxy/api/v1/deployments', { auth: null })).status).toBe(401);
  });

  it('bounds the request body', async () => {
    await createProfile('bounded', remote.url);
    // Raw HTTP: the service answers 413 from the declared length, before reading the body.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${local.url}/api/v1/profiles/bounded/proxy/api/v1/deployments`,
        { method: 'POST', headers: { authorization: `Api-Key ${SHARED_KEY}`, 'content-type': 'text/plain', 'content-length': String(9 * 1024 * 1024) } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
      req.write(Buffer.alloc(64 * 1024, 120));
    });
    expect(status).toBe(413);
  });

  it('answers clear problems when the remote is down or too slow', async () => {
    await createProfile('gone', `http://127.0.0.1:${await closedPort()}`);
    const down = await local.call('GET', '/api/v1/profiles/gone/proxy/api/v1/deployments');
    expect(down.status).toBe(502);
    expect(down.body.code).toBe('PROFILE_UNREACHABLE');
    expect(down.body.detail).toContain('gone');

    const slow = await faultyLink(remote.url, (req) => (req.url?.includes('/deployments') ? 'hang' : null));
    try {
      await createProfile('slow', slow.url);
      const res = await local.call('GET', '/api/v1/profiles/slow/proxy/api/v1/deployments');
      expect(res.status).toBe(504);
      expect(res.body.code).toBe('PROFILE_TIMEOUT');
    } finally {
      await slow.close();
    }
  });
});
