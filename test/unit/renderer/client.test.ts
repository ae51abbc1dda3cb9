import { afterAll, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ApiProblem, buildPath, buildQuery, createClient, type FetchLike } from '../../../src-shared/api/client';
import { exchangeLoginCode, getHealth } from '../../../src-shared/api/system';
import { getMe } from '../../../src-shared/api/identity';
import { createDeployment, deleteDeployment, getDeployment, listDeployments, setEnvVars, type Deployment } from '../../../src-shared/api/deployments';
import { ADMIN_KEY, startTestService, type TestService } from '../../support/service';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc.stop());

const nodeFetch: FetchLike = (url, init) => fetch(url, init);
const adminClient = () => createClient({ baseUrl: svc.url, auth: () => `Api-Key ${ADMIN_KEY}`, fetch: nodeFetch });

const newDeployment = (name: string) =>
  adminClient().call(createDeployment, {
    body: { name, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'git', storageProvider: { type: 'local' } },
  });

describe('path and query building', () => {
  it('substitutes {name} segments with URL-encoded values and keeps trailing slashes', () => {
    expect(buildPath('/api/v1/deployments/{deploymentId}/env-vars', { deploymentId: 12 })).toBe('/api/v1/deployments/12/env-vars');
    expect(buildPath('/api/v1/things/{name}', { name: 'a b/c?' })).toBe('/api/v1/things/a%20b%2Fc%3F');
    expect(buildPath('/build/api/v1/deployments/')).toBe('/build/api/v1/deployments/');
  });

  it('accepts Fastify-style :name segments too', () => {
    expect(buildPath('/api/v1/deployments/:deploymentId', { deploymentId: 3 })).toBe('/api/v1/deployments/3');
  });

  it('refuses to build a path with a missing parameter', () => {
    expect(() => buildPath('/api/v1/deployments/{deploymentId}', {})).toThrow(/deploymentId/);
  });

  it('encodes the query, leaving out undefined and null and repeating arrays', () => {
    expect(buildQuery({ first: 10, after: undefined, source: null, container: ['MAIN', 'INIT'], flag: true, q: 'a&b' })).toBe(
      '?first=10&container=MAIN&container=INIT&flag=true&q=a%26b',
    );
    expect(buildQuery({})).toBe('');
    expect(buildQuery()).toBe('');
  });
});

describe('request headers', () => {
  it('sends ifMatch as If-Match (the version a write is based on) and nothing otherwise', async () => {
    const seen: Record<string, string>[] = [];
    const recording: FetchLike = async (_url, init) => {
      seen.push(init.headers);
      return { ok: true, status: 204, headers: { get: () => null }, text: async () => '' };
    };
    const client = createClient({ baseUrl: 'http://127.0.0.1:1', auth: () => null, fetch: recording });
    await client.call(getHealth, { ifMatch: '"abc"' });
    await client.call(getHealth);
    expect(seen[0]['if-match']).toBe('"abc"');
    expect(seen[1]['if-match']).toBeUndefined();
  });
});

describe('typed calls against a real service', () => {
  it('returns the typed body of a public route without a credential', async () => {
    const client = createClient({ baseUrl: svc.url, auth: () => null, fetch: nodeFetch });
    const health = await client.call(getHealth);
    expectTypeOf(health).toEqualTypeOf<{ status: 'ok'; version: string }>();
    expect(health.status).toBe('ok');
    expect(typeof health.version).toBe('string');
  });

  it('sends the auth header it is given', async () => {
    const me = await adminClient().call(getMe);
    expect(me.role).toBe('admin');
    expect(me.via).toBe('apiKey');
  });

  it('posts a JSON body to a trailing-slash path and substitutes path params on the next call', async () => {
    const created = await newDeployment('client-test');
    expectTypeOf(created).toEqualTypeOf<Deployment>();
    expect(created).toMatchObject({ name: 'client-test', cloudProvider: 'aws' });
    const fetched = await adminClient().call(getDeployment, { params: { deploymentId: created.id } });
    expect(fetched.id).toBe(created.id);
    expect(fetched.name).toBe('client-test');
  });

  it('passes the query through (page size and cursor)', async () => {
    await newDeployment('page-a');
    await newDeployment('page-b');
    const client = adminClient();
    const first = await client.call(listDeployments, { query: { first: 1 } });
    expect(first.items).toHaveLength(1);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await client.call(listDeployments, { query: { first: 1, after: first.pageInfo.endCursor! } });
    expect(second.items).toHaveLength(1);
    expect(second.items[0].id).not.toBe(first.items[0].id);
  });

  it('sends an array body as JSON', async () => {
    const d = await newDeployment('env-client');
    const result = await adminClient().call(setEnvVars, { params: { deploymentId: d.id }, body: [{ name: 'CLIENT_FLAG', value: 'on' }] });
    expect(result.items.find((v) => v.name === 'CLIENT_FLAG')?.value).toBe('on');
  });

  it('returns null for 204 No Content', async () => {
    const d = await newDeployment('to-delete');
    await expect(adminClient().call(deleteDeployment, { params: { deploymentId: d.id } })).resolves.toBeNull();
  });
});

describe('failures become ApiProblem', () => {
  it('carries status, code and detail of a 401 problem', async () => {
    const client = createClient({ baseUrl: svc.url, auth: () => null, fetch: nodeFetch });
    const error = await client.call(getMe).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiProblem);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', operationId: 'getCurrentUser' });
    expect((error as ApiProblem).detail.length).toBeGreaterThan(0);
  });

  it('carries the field errors of a validation problem with their JSON pointers', async () => {
    const client = adminClient();
    const error = (await client.call(exchangeLoginCode, { body: { code: 'short' } }).catch((e: unknown) => e)) as ApiProblem;
    expect(error).toBeInstanceOf(ApiProblem);
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.errors.map((e) => e.pointer)).toContain('/body/code');
    expect(error.fieldErrors()).toHaveProperty('code');
  });

  it('carries a 404 of an unknown deployment', async () => {
    const error = (await adminClient()
      .call(getDeployment, { params: { deploymentId: 987654 } })
      .catch((e: unknown) => e)) as ApiProblem;
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('reports an unreachable service as status 0 NETWORK_ERROR', async () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:1', auth: () => null, fetch: nodeFetch });
    const error = (await client.call(getHealth).catch((e: unknown) => e)) as ApiProblem;
    expect(error).toBeInstanceOf(ApiProblem);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect(error.detail).toContain('http://127.0.0.1:1');
  });

  it('reports a non-problem error body with its status and a snippet of the text', async () => {
    const fakeFetch: FetchLike = async () => ({
      status: 502,
      ok: false,
      headers: { get: (name) => (name.toLowerCase() === 'content-type' ? 'text/html' : null) },
      text: async () => '<html>Bad gateway</html>',
    });
    const error = (await createClient({ baseUrl: 'http://x', auth: () => null, fetch: fakeFetch })
      .call(getHealth)
      .catch((e: unknown) => e)) as ApiProblem;
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502' });
    expect(error.detail).toContain('Bad gateway');
  });

  it('lets an abort through as an abort, not as a service failure', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await adminClient()
      .call(getMe, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiProblem);
    expect((error as Error).name).toBe('AbortError');
  });
});

describe('renewing the credential', () => {
  it('retries once after onUnauthorized renews it, and gives up when it cannot', async () => {
    let auth = 'Api-Key dd_wrong_key_000000000000';
    const onUnauthorized = vi.fn(async () => {
      auth = `Api-Key ${ADMIN_KEY}`;
      return true;
    });
    const client = createClient({ baseUrl: svc.url, auth: () => auth, fetch: nodeFetch, onUnauthorized });
    await expect(client.call(getMe)).resolves.toMatchObject({ role: 'admin' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);

    const stuck = vi.fn(async () => false);
    const failing = createClient({ baseUrl: svc.url, auth: () => 'Api-Key nope', fetch: nodeFetch, onUnauthorized: stuck });
    await expect(failing.call(getMe)).rejects.toMatchObject({ status: 401 });
    expect(stuck).toHaveBeenCalledTimes(1);
  });

  it('reads a function base URL on every call', async () => {
    let base = 'http://127.0.0.1:1';
    const client = createClient({ baseUrl: () => base, auth: () => null, fetch: nodeFetch });
    await expect(client.call(getHealth)).rejects.toMatchObject({ code: 'NETWORK_ERROR' });
    base = `${svc.url}/`;
    await expect(client.call(getHealth)).resolves.toMatchObject({ status: 'ok' });
  });
});

describe('input types follow the route definitions', () => {
  it('requires params where the path has them and rejects unknown inputs (compile-time)', () => {
    const client = adminClient();
    const compileOnly = () => {
      // @ts-expect-error getDeployment needs params.deploymentId
      void client.call(getDeployment);
      // @ts-expect-error deploymentId is a number
      void client.call(getDeployment, { params: { deploymentId: 'x' } });
      // @ts-expect-error getHealth takes no body
      void client.call(getHealth, { body: { a: 1 } });
      // @ts-expect-error createDeployment needs a body
      void client.call(createDeployment, {});
      void client.call(listDeployments);
    };
    expect(typeof compileOnly).toBe('function');
    expect(client.url(listDeployments, { query: { first: 5 } })).toBe(`${svc.url}/api/v1/deployments?first=5`);
  });
});
