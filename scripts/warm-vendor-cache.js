#!/usr/bin/env node
// Makes the V8 code cache of out/main/vendor.cjs (see scripts/vendor-code-cache.js): loads the bundle
// through the built vendor-runtime.js, runs what a start of the service runs — a Fastify app with
// the service's options, hooks and compilers, routes with schemas of the contract's shapes, a
// ready, requests whose bodies are validated (Ajv with formats) and whose answers are serialised
// (fast-json-stringify), a file sent by @fastify/static — then writes the cache of every function
// compiled so far. A second process checks that V8 accepts it. Usage: warm-vendor-cache.js <out/main>.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const outDir = resolve(process.argv[2] ?? 'out/main');
const runtime = await import(pathToFileURL(join(outDir, 'vendor-runtime.js')).href);

if (process.argv[3] === '--check') {
  process.exit(runtime.vendorCodeCacheUsed() ? 0 : 3);
}

const Fastify = runtime.vendor('fastify');
const { Ajv } = runtime.vendor('ajv');
const addFormats = runtime.vendor('ajv-formats');
const fastifyStatic = runtime.vendor('@fastify/static');
const SerializerSelector = runtime.vendor('@fastify/fast-json-stringify-compiler');

// The bundle is minified with function and class names kept (scripts/vendor-code-cache.js): avvio and
// Fastify name plugins and hooks by `fn.name`. A minifier that dropped them fails the build here.
for (const [fn, name] of [[Fastify, 'fastify'], [Ajv, 'Ajv'], [fastifyStatic, 'fastifyStatic'], [SerializerSelector, 'SerializerSelector']]) {
  if (fn.name !== name) throw new Error(`warm-vendor-cache: vendor.cjs lost the name of ${name} (got ${JSON.stringify(fn.name)}): keep names when minifying.`);
}

const ajv = addFormats.default(new Ajv({ allErrors: true, useDefaults: true, removeAdditional: false, strict: false, strictNumbers: true, coerceTypes: false }));
const textAjv = addFormats.default(new Ajv({ allErrors: true, useDefaults: true, strict: false, strictNumbers: true, coerceTypes: 'array' }));
const validatorCompiler = ({ schema, httpPart }) => (httpPart === 'body' ? ajv : textAjv).compile(schema);
const serializers = SerializerSelector();
const app = Fastify({
  logger: false,
  bodyLimit: 32 * 1024 * 1024,
  routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
  exposeHeadRoutes: false,
  schemaController: { compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer: (external, options) => serializers(external, options) } },
});
app.decorateRequest('principal', null);
app.setValidatorCompiler(validatorCompiler);
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, JSON.parse(body.toString('utf8'))));
app.addHook('onRoute', () => {});
app.addHook('onRequest', async (request, reply) => {
  if (request.headers.host === 'refused') return reply.code(421).type('application/problem+json').send({ status: 421 });
  reply.header('Vary', 'Origin');
  return undefined;
});
app.addHook('preParsing', async (request) => {
  request.principal = { id: 1 };
});
app.addHook('onSend', async (_request, reply, payload) => {
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Cache-Control', reply.getHeader('Cache-Control') ?? 'no-store');
  return payload;
});
app.setErrorHandler((error, request, reply) => {
  reply.type('application/problem+json');
  return reply.code(error.validation ? 400 : (error.statusCode ?? 500)).send({ status: 400, detail: error.message, url: request.url });
});
const uiDir = mkdtempSync(join(tmpdir(), 'drydock-warm-'));
writeFileSync(join(uiDir, 'index.html'), '<!doctype html>');
await app.register(fastifyStatic, { root: uiDir, serve: false, setHeaders: (res) => res.setHeader('X-Warm', '1') });
app.setNotFoundHandler(async (request, reply) => (request.url === '/ui' ? reply.sendFile('index.html') : reply.code(404).send({ status: 404 })));

const problem = {
  type: 'object',
  properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' }, code: { type: 'string' } },
  required: ['status'],
};
const user = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'email', 'role'],
  properties: {
    id: { type: 'integer', minimum: 1 },
    email: { type: 'string', format: 'email' },
    name: { anyOf: [{ type: 'string', maxLength: 200 }, { type: 'null' }] },
    role: { type: 'string', enum: ['admin', 'developer', 'viewer'] },
    createdAt: { type: 'string', format: 'date-time' },
    website: { type: 'string', format: 'uri' },
    attributes: { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } },
    groups: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id'] } },
    settings: { anyOf: [{ type: 'object', properties: { theme: { type: 'string' }, pageSize: { type: 'integer' } } }, { type: 'null' }] },
  },
};
for (let i = 0; i < 40; i++) {
  const params = { type: 'object', properties: { deploymentId: { type: 'integer', minimum: 1 }, id: { type: 'string', pattern: '^[a-z0-9-]+$' } }, required: ['deploymentId'] };
  const query = { type: 'object', properties: { first: { type: 'integer', minimum: 1, maximum: 1000, default: 50 }, after: { type: 'string' }, q: { type: 'string' } } };
  // The service gives fast-json-stringify its unions of `X | null` as `nullable` X (src-main/http/
  // serializer-schema.ts); object unions still take the Ajv branch (`settings`, `attributes`).
  const list = { type: 'object', properties: { items: { type: 'array', items: user }, nextCursor: { type: 'string', nullable: true }, previous: { type: 'object', nullable: true, properties: { cursor: { type: 'string' } } } } };
  const response = { 200: i % 2 ? user : list, '4xx': problem, '5xx': problem };
  app.route({
    method: 'GET',
    url: `/api/v1/deployments/:deploymentId/things${i}/:id`,
    schema: { params, querystring: query, response },
    preParsing: async () => {},
    preValidation: async () => {},
    preHandler: async () => {},
    handler: async (request) => (i % 2 ? sampleUser(request.params.deploymentId) : { items: [sampleUser(1), sampleUser(2)], nextCursor: i % 3 ? null : 'c2', previous: i % 3 ? { cursor: 'c0' } : null }),
  });
  app.route({
    method: 'POST',
    url: `/api/v1/things${i}`,
    schema: { body: user, response: { 201: user, '4xx': problem, '5xx': problem } },
    handler: async (request, reply) => reply.code(201).send(request.body),
  });
}
function sampleUser(id) {
  return { id, email: `u${id}@example.com`, name: id % 2 ? null : 'User', role: 'viewer', createdAt: new Date(0).toISOString(), website: 'https://example.com/', attributes: { a: 'b', n: 1 }, groups: [{ id: 1, name: 'g' }], settings: null, secret: 'dropped' };
}
await app.ready();
for (let i = 0; i < 40; i += 3) {
  await app.inject({ method: 'GET', url: `/api/v1/deployments/7/things${i}/abc-1?first=5` });
  await app.inject({ method: 'GET', url: `/api/v1/deployments/x/things${i}/abc-1` });
  await app.inject({ method: 'POST', url: `/api/v1/things${i}`, payload: sampleUserBody(i), headers: { 'content-type': 'application/json' } });
  await app.inject({ method: 'POST', url: `/api/v1/things${i}`, payload: { id: 0, email: 'no' }, headers: { 'content-type': 'application/json' } });
}
function sampleUserBody(id) {
  const { secret: _secret, ...body } = sampleUser(id + 1);
  return body;
}
await app.inject({ method: 'GET', url: '/ui' });
await app.inject({ method: 'GET', url: '/nowhere' });
await app.inject({ method: 'GET', url: '/ui', headers: { host: 'refused' } });
await app.close();
rmSync(uiDir, { recursive: true, force: true });

const cacheFile = runtime.writeVendorCodeCache();
const check = spawnSync(process.execPath, [process.argv[1], outDir, '--check'], { stdio: 'inherit' });
// Not a build failure: the service works without the cache, it only starts slower.
if (check.status !== 0) console.error(`warm-vendor-cache: V8 did not accept ${cacheFile}; the service will compile vendor.cjs at start.`);
