// The OpenAPI document, on first request (start time, issue 10): registering @fastify/swagger at start
// loaded it, yaml and a JSON-schema resolver (a few hundred KB of code) and ran a plugin before the
// service could answer. Only the routes are collected at start, as its `onRoute` hook did; the
// document is built from them by ./openapi-document.ts (its own chunk) when it is first asked for.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { OpenApiDocument } from './openapi-document';

export type { OpenApiDocument } from './openapi-document';

declare module 'fastify' {
  interface FastifyInstance {
    /** The service's OpenAPI document (built on the first call). */
    openApiDocument(): Promise<OpenApiDocument>;
  }
}

/**
 * Starts collecting `app`'s routes (call before any is registered) and decorates it with
 * `openApiDocument()`, which builds the document from them the first time it is called (later
 * calls share that one, as @fastify/swagger cached its document).
 */
export function collectOpenApiRoutes(app: FastifyInstance): void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  let document: Promise<OpenApiDocument> | null = null;
  app.decorate('openApiDocument', () =>
    (document ??= import('./openapi-document')
      .then(({ buildOpenApiDocument }) => buildOpenApiDocument(routes, app.getSchemas()))
      .catch((error: unknown) => {
        document = null;
        throw error;
      })),
  );
}
