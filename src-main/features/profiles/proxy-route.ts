// The remote-profile proxy's route (see ./proxy). It is not an operation of the contract, and it
// needs its own plugin scope, which Fastify takes only before it is ready: so it is registered at
// start from this light module, and the proxy's code loads on its first request (start time, issue 10).
import type { Api } from '../../http/route';

/** Largest request body forwarded (a model upload chunk is at most 4 MiB, ~5.6 MB as base64 JSON). */
export const MAX_PROXY_REQUEST_BYTES = 8 * 1024 * 1024;

/**
 * Registered in its own plugin scope: there, every request body is taken as raw bytes (bounded),
 * so what the page sent reaches the remote unchanged (JSON, or anything else an operation takes).
 */
export function registerProfileProxy(api: Api): void {
  void api.app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_PROXY_REQUEST_BYTES }, (_request, payload, done) => done(null, payload));
    scope.route({
      method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      url: '/api/v1/profiles/:profileName/proxy/*',
      // A transport of other services' operations, not an operation of its own: left out of the
      // OpenAPI document (the README describes it).
      schema: { hide: true },
      handler: async (request, reply) => (await import('./proxy')).forward(api, request, reply),
    });
  });
}
