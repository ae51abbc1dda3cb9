// The build's rewrite of Fastify (scripts/batched-route-steps.js): routes added in a row share one
// avvio step instead of one each. What a route takes from its instance when its step runs must not
// change: a route still sees what was registered before it, and not what was registered after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { batchedRouteSteps } from '../../scripts/batched-route-steps.js';
import { bundleFastifyWith, type FastifyBundle, type FastifyFactory } from '../support/fastify-bundle';

describe('Fastify as the build bundles it: routes added in a row share one avvio step', () => {
  let Fastify: FastifyFactory;
  let bundled: FastifyBundle | undefined;

  beforeAll(async () => {
    bundled = await bundleFastifyWith('batched-steps', [batchedRouteSteps()]);
    expect(bundled.code).toContain('afterInBatch');
    Fastify = bundled.Fastify;
  }, 120_000);
  afterAll(() => bundled?.remove());

  it('serves hundreds of routes declared in a row, each with its own hooks and handler', async () => {
    const app = Fastify({ logger: false });
    for (let i = 0; i < 300; i++) {
      app.route({
        method: 'GET',
        url: `/r${i}/:id`,
        schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } },
        preHandler: async (request) => {
          (request as unknown as { seen: number }).seen = i;
        },
        handler: async (request) => ({ route: i, id: (request.params as { id: number }).id, seen: (request as unknown as { seen: number }).seen }),
      });
    }
    await app.ready();
    for (const i of [0, 151, 299]) {
      const res = await app.inject({ method: 'GET', url: `/r${i}/7` });
      expect(res.json()).toEqual({ route: i, id: 7, seen: i });
    }
    expect((await app.inject({ method: 'GET', url: '/r5/x' })).statusCode).toBe(400);
    await app.close();
  });

  it('a route added after a plugin takes the error handler that plugin set; one added before keeps the default', async () => {
    const app = Fastify({ logger: false });
    app.get('/before', async () => {
      throw new Error('x');
    });
    // A plugin that sets the root instance's error handler when it loads (skip-override: no encapsulation).
    const setsHandler = Object.assign(
      async (instance: FastifyInstance) => {
        instance.setErrorHandler((_error: Error, _request: FastifyRequest, reply: FastifyReply) => reply.code(500).send({ handler: 'the plugin' }));
      },
      { [Symbol.for('skip-override')]: true },
    );
    // Not awaited: the plugin loads during ready(), between the two routes' steps.
    void app.register(setsHandler);
    app.get('/after', async () => {
      throw new Error('x');
    });
    await app.ready();
    expect((await app.inject({ method: 'GET', url: '/before' })).json()).toMatchObject({ statusCode: 500, message: 'x' });
    expect((await app.inject({ method: 'GET', url: '/after' })).json()).toEqual({ handler: 'the plugin' });
    await app.close();
  });

  it('routes declared inside a plugin and around it are all served', async () => {
    const app = Fastify({ logger: false });
    app.get('/a', async () => 'a');
    void app.register(async (scope) => {
      scope.get('/b', async () => 'b');
      scope.get('/c', async () => 'c');
    });
    app.get('/d', async () => 'd');
    await app.ready();
    for (const name of ['a', 'b', 'c', 'd']) expect((await app.inject({ method: 'GET', url: `/${name}` })).body).toBe(name);
    await app.close();
  });
});
