// The OpenAPI document of the service (`GET /api/v1/spec`), built by @fastify/swagger from the routes
// Fastify registered. This module (and @fastify/swagger, yaml and the JSON-schema resolver it
// brings) is loaded with the first request for the document, not at start (start time, issue 10;
// ./openapi.ts collects the routes meanwhile).
import { fastifySwagger, type SwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { TAGS } from '../../src-shared/api/tags';
import {
  UNKNOWN_FIELDS_EXTENSION,
  UNKNOWN_FIELDS_IGNORED,
  UNKNOWN_FIELDS_REASON_EXTENSION,
  UNKNOWN_FIELDS_SUMMARY,
  unknownFieldsPolicy,
} from '../../src-shared/api/unknown-fields';
import { OAUTH_SCOPE_DESCRIPTIONS, OAUTH_SCOPES, SCOPED_CREDENTIAL_LIMITS } from './credentials';
import { optionalBodyOperations } from './route';

/** What each kind of bearer token reaches; every operation's description names the kinds it accepts. */
const BEARER_DESCRIPTION = [
  'A workspace session, a deployment token (`POST /api/v1/deployments/{id}/token`: only the operations of that deployment), ' +
    'an embed session (only the operations marked for embed sessions, for its deployment and embed tenant) or an OAuth token.',
  `OAuth scopes: ${OAUTH_SCOPES.map((scope) => `\`${scope}\` — ${OAUTH_SCOPE_DESCRIPTIONS[scope]}`).join('; ')}.`,
  SCOPED_CREDENTIAL_LIMITS,
].join('\n\n');

interface OpenApiOperation {
  operationId?: string;
  requestBody?: { required?: boolean };
  [extension: `x-${string}`]: unknown;
}

const SWAGGER_OPTIONS: SwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Drydock — platform management API',
      version: '1.0.0',
      description:
        'Local implementation of the analytics platform management API: deployments, data model authoring, ' +
        'warehouse semantic view sync, lakehouse metric view publication, workbooks and promotion.\n\n' +
        `Unknown keys: ${UNKNOWN_FIELDS_SUMMARY}`,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: 'http://127.0.0.1:{port}', variables: { port: { default: '4317' } } }],
    tags: TAGS.map((t) => ({ ...t })),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: BEARER_DESCRIPTION },
        apiKeyAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Send `Api-Key <key>`.' },
      },
    },
    security: [{ bearerAuth: [] }, { apiKeyAuth: [] }],
  },
  // @fastify/swagger marks every request body required; the contract knows which may be omitted.
  // Every operation with a body says what it does with a key the body does not describe.
  transformObject: (documentObject) => {
    const doc = (documentObject as { openapiObject: { paths?: Record<string, Record<string, OpenApiOperation>> } }).openapiObject;
    for (const ops of Object.values(doc.paths ?? {})) {
      for (const op of Object.values(ops)) {
        if (!op.operationId || !op.requestBody) continue;
        if (optionalBodyOperations.has(op.operationId)) op.requestBody.required = false;
        const policy = unknownFieldsPolicy(op.operationId);
        op[UNKNOWN_FIELDS_EXTENSION] = policy;
        if (policy === 'ignore') op[UNKNOWN_FIELDS_REASON_EXTENSION] = UNKNOWN_FIELDS_IGNORED[op.operationId];
      }
    }
    return doc;
  },
};

export interface OpenApiDocument {
  openapi: string;
  [key: string]: unknown;
}

type Hook = (...args: unknown[]) => unknown;

/**
 * The document of `routes` (every route Fastify registered, as its `onRoute` hooks saw them, in that
 * order) and the app's shared schemas. @fastify/swagger's plugin is run against the part of the
 * plugin interface it uses — its `onRoute` hook sees each route, its `onReady` hook runs, its
 * `swagger` decorator builds the document — exactly what registering it at start did, only later.
 */
export function buildOpenApiDocument(routes: readonly RouteOptions[], schemas: Record<string, unknown>): OpenApiDocument {
  const hooks = new Map<string, Hook[]>();
  let build: (() => unknown) | undefined;
  const host = {
    addHook(name: string, hook: Hook) {
      hooks.set(name, [...(hooks.get(name) ?? []), hook]);
      return host;
    },
    decorate(name: string, value: () => unknown) {
      if (name === 'swagger') build = value;
      return host;
    },
    getSchemas: () => schemas,
  };
  let failed: unknown = null;
  fastifySwagger(host as unknown as FastifyInstance, SWAGGER_OPTIONS, (error?: Error) => void (failed = error ?? null));
  if (failed) throw failed;
  for (const route of routes) for (const onRoute of hooks.get('onRoute') ?? []) onRoute.call(host, route);
  for (const onReady of hooks.get('onReady') ?? []) {
    onReady.call(host, (error?: Error) => {
      if (error) throw error;
    });
  }
  if (!build) throw new Error('@fastify/swagger did not provide its document builder.');
  return build() as OpenApiDocument;
}
