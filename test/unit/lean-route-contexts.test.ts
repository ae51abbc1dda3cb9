// The build's rewrite of Fastify (scripts/lean-route-contexts.js): one preReady listener for routes
// registered in a row, each instance's hooks bound once, the HEAD lookup only where a HEAD route may
// be added. Every rule below is checked against Fastify as published and as the build bundles it
// (with scripts/batched-route-steps.js, as in out/main/vendor.cjs): both must answer alike.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { batchedRouteSteps } from '../../scripts/batched-route-steps.js';
import { leanRouteContexts } from '../../scripts/lean-route-contexts.js';
import { bundleFastifyWith, type FastifyBundle, type FastifyFactory } from '../support/fastify-bundle';

const require = createRequire(import.meta.url);

const builds: Record<string, FastifyFactory> = {};
let bundled: FastifyBundle | undefined;

beforeAll(async () => {
  bundled = await bundleFastifyWith('lean-routes', [batchedRouteSteps(), leanRouteContexts()]);
  const { code } = bundled;
  expect(code).toContain('oncePreReadyInBatch');
  expect(code).toContain('boundInstanceHooks');
  expect(code).toContain('const key = SCHEMAS_SOURCE[k]');
  expect(code.split('const hook = lifecycleHooks[h]').length).toBe(3);
  builds['as the build bundles it'] = bundled.Fastify;
  builds['as published'] = require('fastify') as FastifyFactory;
}, 120_000);
afterAll(() => bundled?.remove());

/** Records which hooks ran for a request, in order, on the request itself. */
const trace = (name: string) => async (request: FastifyRequest) => {
  const seen = ((request as unknown as { trace?: string[] }).trace ??= []);
  seen.push(name);
};
const traceOf = (request: FastifyRequest) => (request as unknown as { trace?: string[] }).trace ?? [];

describe.each(['as published', 'as the build bundles it'])('Fastify %s', (build) => {
  const fastify = () => builds[build]!({ logger: false });

  it("runs the instance's hooks before a route's own, including hooks added after the route", async () => {
    const app = fastify();
    app.addHook('onRequest', trace('app onRequest'));
    app.get('/own', { onRequest: trace('route onRequest'), preHandler: [trace('route preHandler 1'), trace('route preHandler 2')] }, async (request) => traceOf(request));
    app.get('/none', async (request) => traceOf(request));
    // Added after both routes, before ready: it still applies to them.
    app.addHook('preHandler', trace('app preHandler'));
    await app.ready();
    expect((await app.inject('/own')).json()).toEqual(['app onRequest', 'route onRequest', 'app preHandler', 'route preHandler 1', 'route preHandler 2']);
    expect((await app.inject('/none')).json()).toEqual(['app onRequest', 'app preHandler']);
    await app.close();
  });

  it("a plugin's hooks reach its own routes only; the root's reach every route", async () => {
    const app = fastify();
    app.addHook('onRequest', trace('root'));
    app.get('/root-before', async (request) => traceOf(request));
    void app.register(async (scope) => {
      scope.addHook('onRequest', trace('scope'));
      scope.get('/scoped', async (request) => traceOf(request));
      scope.get('/scoped-own', { onRequest: trace('route') }, async (request) => traceOf(request));
    });
    app.get('/root-after', async (request) => traceOf(request));
    await app.ready();
    expect((await app.inject('/root-before')).json()).toEqual(['root']);
    expect((await app.inject('/scoped')).json()).toEqual(['root', 'scope']);
    expect((await app.inject('/scoped-own')).json()).toEqual(['root', 'scope', 'route']);
    expect((await app.inject('/root-after')).json()).toEqual(['root']);
    await app.close();
  });

  it('hooks run with the instance as `this`, and onSend hooks transform the payload in order', async () => {
    const app = fastify();
    app.decorate('tag', 'the app');
    app.addHook('onSend', async function (this: FastifyInstance, _request, _reply, payload) {
      return `${String(payload)}+${(this as unknown as { tag: string }).tag}`;
    });
    app.get('/', { onSend: async (_request: FastifyRequest, _reply: FastifyReply, payload: unknown) => `${String(payload)}+route` }, async () => 'body');
    await app.ready();
    expect((await app.inject('/')).body).toBe('body+the app+route');
    await app.close();
  });

  it('ready fails on the first bad response schema in registration order, across a plugin', async () => {
    const app = fastify();
    app.get('/good', { schema: { response: { 200: { type: 'string' } } } }, async () => 'x');
    void app.register(async (scope) => {
      scope.get('/bad-in-plugin', { schema: { response: { 200: { content: { 'application/json': {} } } } } }, async () => 'x');
    });
    app.get('/bad-after', { schema: { response: { 999: { type: 'string' } } } }, async () => 'x');
    await expect(app.ready()).rejects.toMatchObject({ code: 'FST_ERR_SCH_CONTENT_MISSING_SCHEMA' });
  });

  it('a response status that is not a status still fails ready', async () => {
    const app = fastify();
    app.get('/ok', async () => 'x');
    app.get('/bad', { schema: { response: { 999: { type: 'string' } } } }, async () => 'x');
    await expect(app.ready()).rejects.toMatchObject({ code: 'FST_ERR_SCH_SERIALIZATION_BUILD' });
  });

  it('serves hundreds of routes with their own schemas, and 404 for others', async () => {
    const app = fastify();
    for (let i = 0; i < 250; i++) {
      app.get(`/r${i}/:id`, { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, async (request) => ({ i, id: (request.params as { id: number }).id }));
    }
    await app.ready();
    expect((await app.inject('/r249/5')).json()).toEqual({ i: 249, id: 5 });
    expect((await app.inject('/r0/x')).statusCode).toBe(400);
    expect((await app.inject('/r250/1')).statusCode).toBe(404);
    await app.close();
  });

  it('adds a HEAD route for each GET route unless one is declared; none when exposeHeadRoutes is off', async () => {
    const app = fastify();
    app.head('/declared', async (_request, reply) => reply.header('x-head', 'own').send());
    app.get('/declared', async () => 'get');
    app.get('/auto', async () => 'auto body');
    await app.ready();
    const auto = await app.inject({ method: 'HEAD', url: '/auto' });
    expect(auto.statusCode).toBe(200);
    expect(auto.body).toBe('');
    expect(auto.headers['content-length']).toBe(String('auto body'.length));
    expect((await app.inject({ method: 'HEAD', url: '/declared' })).headers['x-head']).toBe('own');
    await app.close();

    const off = builds[build]!({ logger: false, exposeHeadRoutes: false });
    off.get('/auto', async () => 'auto body');
    await off.ready();
    expect((await off.inject({ method: 'HEAD', url: '/auto' })).statusCode).toBe(404);
    await off.close();
  });

  it('serialises each answer with the response schema of its status, a status class or default', async () => {
    const app = fastify();
    const only = (name: string) => ({ type: 'object', properties: { [name]: { type: 'string' } } });
    app.get(
      '/:status',
      { schema: { response: { 200: only('ok'), 201: only('created'), '4xx': only('client'), default: only('other') } } },
      async (request, reply) => {
        const status = Number((request.params as { status: string }).status);
        return reply.code(status).send({ ok: 'a', created: 'b', client: 'c', other: 'd', secret: 'x' });
      },
    );
    await app.ready();
    expect((await app.inject('/200')).json()).toEqual({ ok: 'a' });
    expect((await app.inject('/201')).json()).toEqual({ created: 'b' });
    expect((await app.inject('/404')).json()).toEqual({ client: 'c' });
    expect((await app.inject('/503')).json()).toEqual({ other: 'd' });
    await app.close();
  });

  it('a not-found handler set between routes gets its hooks, and 404s run the instance hooks', async () => {
    const app = fastify();
    app.addHook('onRequest', trace('root'));
    app.get('/a', async (request) => traceOf(request));
    app.setNotFoundHandler({ preHandler: trace('404 preHandler') }, async (request, reply) => reply.code(404).send(traceOf(request)));
    app.get('/b', async (request) => traceOf(request));
    await app.ready();
    expect((await app.inject('/a')).json()).toEqual(['root']);
    expect((await app.inject('/b')).json()).toEqual(['root']);
    const missing = await app.inject('/nowhere');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(['root', '404 preHandler']);
    await app.close();
  });
});
