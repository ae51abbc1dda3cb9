// Route schemas compile on first use (start time) or ahead of it in the background (event-loop
// delay, issue 10): either way a request is validated and answered exactly as with Fastify's own
// compilers, and a schema is compiled once.
import Fastify, { type FastifyInstance } from 'fastify';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazySchemaController, lazyValidatorCompiler, routeKey, SchemaWarmup } from '../../../src-main/http/compilers';

let app: FastifyInstance | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

const bodySchema = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 5 } }, additionalProperties: false };
const responseSchema = { type: 'object', properties: { name: { type: 'string' } } };

async function serve() {
  const ajv = new Ajv({ allErrors: true });
  const compile = vi.spyOn(ajv, 'compile');
  const warmup = new SchemaWarmup();
  const validatorCompiler = lazyValidatorCompiler(() => ajv, warmup);
  app = Fastify({ schemaController: lazySchemaController(validatorCompiler, warmup) });
  app.setValidatorCompiler(validatorCompiler);
  for (const path of ['/a', '/b']) {
    // Each route its own body schema (a schema object shared by routes compiles once for all).
    // The answer carries a field the response schema does not name: the serializer drops it.
    app.post(path, { schema: { body: structuredClone(bodySchema), response: { 200: responseSchema } } }, async (request) => ({ ...(request.body as object), secret: 'x' }));
  }
  await app.ready();
  return { app, compile, warmup };
}

describe('schema compilers', () => {
  it('compile nothing at start, and a route’s schemas on its first request', async () => {
    const { app, compile } = await serve();
    expect(compile).not.toHaveBeenCalled();
    const ok = await app.inject({ method: 'POST', url: '/a', payload: { name: 'ab' } });
    expect(ok.json()).toEqual({ name: 'ab' });
    expect(compile).toHaveBeenCalledTimes(1);
    const bad = await app.inject({ method: 'POST', url: '/a', payload: { name: 'abcdef' } });
    expect(bad.statusCode).toBe(400);
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it('warm up the named routes in the background; their requests then compile nothing and answer the same', async () => {
    const { app, compile, warmup } = await serve();
    warmup.warm([routeKey('POST', '/b')]);
    // In the background: nothing compiles while the caller runs on.
    expect(compile).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(compile).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    const ok = await app.inject({ method: 'POST', url: '/b', payload: { name: 'ab' } });
    expect(ok.json()).toEqual({ name: 'ab' });
    const bad = await app.inject({ method: 'POST', url: '/b', payload: { name: 'abcdef', extra: 1 } });
    expect(bad.statusCode).toBe(400);
    expect(compile).toHaveBeenCalledTimes(1);
    // A route not named stays uncompiled until its own first request.
    await app.inject({ method: 'POST', url: '/a', payload: { name: 'ab' } });
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it('stop once stopped: nothing queued compiles after stop()', async () => {
    const { compile, warmup } = await serve();
    warmup.warm([routeKey('POST', '/a'), routeKey('POST', '/b')]);
    warmup.stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(compile).not.toHaveBeenCalled();
  });

  it('answer with a Nullable and a literal union without building any Ajv validator for the serializer, and the same JSON', async () => {
    const addSchema = vi.spyOn(Ajv.prototype, 'addSchema');
    try {
      const response = {
        type: 'object',
        properties: {
          role: { anyOf: [{ type: 'string', const: 'admin' }, { type: 'string', const: 'viewer' }] },
          locale: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
      };
      const validatorCompiler = lazyValidatorCompiler(() => new Ajv());
      app = Fastify({ schemaController: lazySchemaController(validatorCompiler) });
      app.get('/me', { schema: { response: { 200: response } } }, async () => ({ role: 'viewer', locale: null, secret: 'x' }));
      await app.ready();
      const answer = await app.inject({ method: 'GET', url: '/me' });
      expect(answer.body).toBe('{"role":"viewer","locale":null}');
      // fast-json-stringify registers its union schemas with Ajv only when it needs a validator.
      expect(addSchema).not.toHaveBeenCalled();
      // The route's schema is the contract's, unchanged (the OpenAPI document and validators read it).
      expect(response.properties.locale).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
    } finally {
      addSchema.mockRestore();
    }
  });
});
