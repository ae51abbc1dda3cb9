import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { GitHubAppClient, nextLink, type GitHostFetch } from '../../../../src-main/connectors/githost';

const { privateKey, publicKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  // GitHub hands out PKCS#1 PEM keys.
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string>; raw?: Uint8Array };

/** A fake GitHub: routes `METHOD path` (query ignored unless the key has one) to replies. */
function fakeGitHub(routes: Record<string, Reply | ((call: Call) => Reply)>) {
  const calls: Call[] = [];
  const fetch: GitHostFetch = async (url, init) => {
    const call = { method: init.method, url, headers: init.headers };
    calls.push(call);
    const u = new URL(url);
    const route = routes[`${init.method} ${u.pathname}${u.search}`] ?? routes[`${init.method} ${u.pathname}`];
    const reply = typeof route === 'function' ? route(call) : (route ?? { status: 404, body: { message: 'Not Found' } });
    const bytes = reply.raw ?? new TextEncoder().encode(reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    return {
      status: reply.status,
      ok: reply.status >= 200 && reply.status < 300,
      headers: { get: (name: string) => reply.headers?.[name.toLowerCase()] ?? null },
      text: async () => new TextDecoder().decode(bytes),
      arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    };
  };
  return { fetch, calls };
}

const NOW = new Date('2026-04-01T12:00:00Z');
const client = (fetch: GitHostFetch) => new GitHubAppClient({ appId: '12345', privateKey, fetch, now: () => NOW, baseUrl: 'https://api.github.test' });
const tokenRoute = (id: number, token: string): Record<string, Reply> => ({
  [`POST /app/installations/${id}/access_tokens`]: { status: 201, body: { token, expires_at: '2026-04-01T13:00:00Z' } },
});

describe('GitHub App REST client', () => {
  it('authenticates app calls with an RS256 JWT issued by the app id, backdated a minute and valid at most ten', async () => {
    const { fetch, calls } = fakeGitHub({ 'GET /app': { status: 200, body: { slug: 'drydock-app', name: 'Drydock', owner: { login: 'acme' }, html_url: 'https://github.com/apps/drydock-app' } } });
    expect(await client(fetch).app()).toEqual({ slug: 'drydock-app', name: 'Drydock', owner: 'acme', htmlUrl: 'https://github.com/apps/drydock-app' });
    const [call] = calls;
    expect(call.url).toBe('https://api.github.test/app');
    expect(call.headers.accept).toBe('application/vnd.github+json');
    expect(call.headers['x-github-api-version']).toBe('2022-11-28');
    const jwt = call.headers.authorization.replace(/^Bearer /, '');
    expect(decodeProtectedHeader(jwt).alg).toBe('RS256');
    const { importSPKI } = await import('jose');
    const { payload } = await jwtVerify(jwt, await importSPKI(publicKey, 'RS256'), { currentDate: NOW, issuer: '12345' });
    expect(payload.iat).toBe(NOW.getTime() / 1000 - 60);
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(600);
  });

  it('lists installations following Link rel="next" pagination', async () => {
    const install = (id: number, login: string, type = 'Organization') => ({ id, account: { login, type }, repository_selection: 'all', created_at: '2025-01-01T00:00:00Z' });
    const { fetch, calls } = fakeGitHub({
      'GET /app/installations?per_page=100': {
        status: 200,
        body: [install(1, 'acme'), install(2, 'jane', 'User')],
        headers: { link: '<https://api.github.test/app/installations?per_page=100&page=2>; rel="next", <https://api.github.test/app/installations?per_page=100&page=2>; rel="last"' },
      },
      'GET /app/installations?per_page=100&page=2': { status: 200, body: [install(3, 'globex')] },
    });
    const installations = await client(fetch).installations();
    expect(installations.map((i) => [i.id, i.account.login, i.account.type])).toEqual([
      [1, 'acme', 'Organization'],
      [2, 'jane', 'User'],
      [3, 'globex', 'Organization'],
    ]);
    expect(calls.map((c) => c.url)).toEqual(['https://api.github.test/app/installations?per_page=100', 'https://api.github.test/app/installations?per_page=100&page=2']);
  });

  it('exchanges the app JWT for an installation token (cached) to list an installation’s repositories', async () => {
    const { fetch, calls } = fakeGitHub({
      ...tokenRoute(7, 'ghs_installation7'),
      'GET /installation/repositories': (call) => {
        expect(call.headers.authorization).toBe('Bearer ghs_installation7');
        return {
          status: 200,
          body: {
            total_count: 1,
            repositories: [{ id: 99, name: 'analytics', full_name: 'acme/analytics', owner: { login: 'acme' }, private: true, default_branch: 'main', html_url: 'https://github.com/acme/analytics', clone_url: 'https://github.com/acme/analytics.git' }],
          },
        };
      },
    });
    const gh = client(fetch);
    const repos = await gh.repositories(7);
    await gh.repositories(7);
    expect(repos).toEqual([{ id: 99, owner: 'acme', name: 'analytics', fullName: 'acme/analytics', private: true, defaultBranch: 'main', htmlUrl: 'https://github.com/acme/analytics', cloneUrl: 'https://github.com/acme/analytics.git' }]);
    expect(calls.filter((c) => c.url.endsWith('/access_tokens'))).toHaveLength(1);
    expect(calls.find((c) => c.url.endsWith('/access_tokens'))!.headers.authorization).toMatch(/^Bearer ey/);
  });

  it('finds the installation covering a repository to list its branches', async () => {
    const { fetch } = fakeGitHub({
      'GET /repos/acme/analytics/installation': { status: 200, body: { id: 7 } },
      ...tokenRoute(7, 'ghs_7'),
      'GET /repos/acme/analytics/branches': { status: 200, body: [{ name: 'main', commit: { sha: 'a'.repeat(40) }, protected: true }, { name: 'dev', commit: { sha: 'b'.repeat(40) } }] },
    });
    expect(await client(fetch).branches('acme', 'analytics')).toEqual([
      { name: 'main', commit: 'a'.repeat(40), protected: true },
      { name: 'dev', commit: 'b'.repeat(40), protected: false },
    ]);
  });

  it('reads raw file bytes at a ref, and null for a missing file or an uncovered repository', async () => {
    const manifest = new TextEncoder().encode('{"nodes":{}}');
    const { fetch, calls } = fakeGitHub({
      'GET /repos/acme/analytics/installation': { status: 200, body: { id: 7 } },
      ...tokenRoute(7, 'ghs_7'),
      'GET /repos/acme/analytics/contents/target/manifest.json?ref=release%2F1': { status: 200, raw: manifest },
      'GET /repos/acme/analytics/commits/main': { status: 200, body: `${'c'.repeat(40)}` },
    });
    const gh = client(fetch);
    expect(new TextDecoder().decode((await gh.readFile('acme', 'analytics', 'release/1', 'target/manifest.json'))!)).toBe('{"nodes":{}}');
    expect(calls.find((c) => c.url.includes('/contents/'))!.headers.accept).toBe('application/vnd.github.raw+json');
    expect(await gh.readFile('acme', 'analytics', 'main', 'missing.json')).toBeNull();
    expect(await gh.readFile('acme', 'other', 'main', 'x.json')).toBeNull();
    expect(await gh.resolveRef('acme', 'analytics', 'main')).toBe('c'.repeat(40));
    expect(calls.find((c) => c.url.includes('/commits/'))!.headers.accept).toBe('application/vnd.github.sha');
  });

  it('maps 401 to GITHOST_UNAUTHORIZED, an exhausted rate limit to GITHOST_RATE_LIMITED and a network failure to GITHOST_UNREACHABLE', async () => {
    const unauthorized = fakeGitHub({ 'GET /app': { status: 401, body: { message: 'A JSON web token could not be decoded' } } });
    await expect(client(unauthorized.fetch).app()).rejects.toMatchObject({ code: 'GITHOST_UNAUTHORIZED', message: expect.stringContaining('could not be decoded') });
    const limited = fakeGitHub({
      'GET /app': { status: 403, body: { message: 'API rate limit exceeded' }, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW.getTime() / 1000 + 30) } },
    });
    await expect(client(limited.fetch).app()).rejects.toMatchObject({ code: 'GITHOST_RATE_LIMITED', options: { retryAfterMs: 30_000 } });
    const failing: GitHostFetch = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(client(failing).app()).rejects.toMatchObject({ code: 'GITHOST_UNREACHABLE' });
  });

  it('refuses a private key that is not PEM', () => {
    expect(() => new GitHubAppClient({ appId: '1', privateKey: 'not a key' })).toThrow(/not a PEM private key/);
  });

  it('reads the next link of a Link header', () => {
    expect(nextLink('<https://x/a?page=3>; rel="next", <https://x/a?page=9>; rel="last"')).toBe('https://x/a?page=3');
    expect(nextLink('<https://x/a?page=1>; rel="prev"')).toBeNull();
    expect(nextLink(null)).toBeNull();
  });
});
