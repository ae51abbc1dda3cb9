// The live-events area's app-wide hooks. Fastify takes hooks only before it is ready, while the
// area's code loads on its first request (start time, issue 10): so these live in this light
// module, registered at start, and the rest of the area (the stream, the job and git sources) loads
// with it.
import type { PassThrough } from 'node:stream';
import type { ServiceContext } from '../../context';
import type { Api } from '../../http/route';
import { getEventBus } from '../../platform/events';

/** Operations whose success is not news for other windows (reads by POST, credential exchanges). */
const QUIET_WRITES = new Set(['exchangeLoginCode', 'exchangeEmbedSessionToken', 'validateDataModel']);

/** The event streams being served (the area adds and removes them; shutting down ends them). */
export function openEventStreams(ctx: ServiceContext): Set<PassThrough> {
  return ((ctx.services.liveEventStreams as Set<PassThrough> | undefined) ??= new Set<PassThrough>());
}

export function registerEventHooks({ app, ctx }: Api): void {
  // A stream never ends by itself: shutting down ends them, so in-flight requests can drain.
  app.addHook('preClose', async () => {
    for (const stream of openEventStreams(ctx)) stream.end();
  });

  // Every successful write through the API is news (workbooks, reports, settings…).
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    if (reply.statusCode >= 300) return;
    const operationId = (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId;
    if (!operationId || QUIET_WRITES.has(operationId)) return;
    const params: Record<string, string> = {};
    for (const [key, value] of Object.entries((request.params as Record<string, unknown> | undefined) ?? {})) {
      if (typeof value === 'string' || typeof value === 'number') params[key] = String(value).slice(0, 200);
    }
    const deploymentId = Number(params.deploymentId);
    getEventBus(ctx).publish({ type: 'write', deploymentId: Number.isInteger(deploymentId) && deploymentId > 0 ? deploymentId : null, operationId, params });
  });
}
