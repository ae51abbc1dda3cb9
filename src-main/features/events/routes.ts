import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { getLiveEvents, type LiveEvent } from '../../../src-shared/api/events';
import { assertAccess, hasAccess, type Principal } from '../../http/auth';
import { credentialKindOf, DEPLOYMENT_READ_CREDENTIALS } from '../../http/credentials';
import { REPLY_SENT, type Api } from '../../http/route';
import { getEventBus } from '../../platform/events';
import { openEventStreams } from './hooks';
import { connectEventSources } from './sources';

/** A client this far behind is cut off (it reconnects with Last-Event-ID, or resyncs). */
const MAX_BUFFERED_BYTES = 1 << 20;

/**
 * Who sees an event. Credentials bound to one deployment see only its events; events of no
 * deployment only user credentials (tenant-wide writes only admins); a user sees the events of
 * deployments they may read.
 */
export function isVisibleTo(principal: Principal, event: LiveEvent): boolean {
  if (event.type === 'resync') return true;
  if (event.deploymentId === null) {
    if (credentialKindOf(principal) !== 'user' || principal.deploymentId !== null) return false;
    return event.type !== 'write' || hasAccess(principal, 'admin');
  }
  if (principal.deploymentId !== null && principal.deploymentId !== event.deploymentId) return false;
  return hasAccess(principal, 'deploymentRead');
}

const frame = (event: LiveEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

export function registerEventRoutes(api: Api): void {
  const { ctx } = api;
  const bus = getEventBus(ctx);
  // A comment line this often keeps proxies from closing the stream and re-checks the credential.
  const heartbeatMs = Number(process.env.DRYDOCK_EVENTS_HEARTBEAT_MS) || 15_000;
  connectEventSources(api);
  const open = openEventStreams(ctx);
  const authenticate = () => ctx.services.authenticate as ((request: FastifyRequest) => Promise<Principal>) | undefined;
  const resync = (): LiveEvent => ({ type: 'resync', deploymentId: null, id: bus.lastId, at: ctx.clock.now().toISOString() });

  api.route(getLiveEvents, { credentials: DEPLOYMENT_READ_CREDENTIALS }, async ({ query, principal, request, reply }) => {
    // Asking for one deployment's events is asking to read that deployment.
    if (query.deploymentId !== undefined) assertAccess(principal, ['deploymentRead'], query.deploymentId);
    let current = principal;
    const wanted = (event: LiveEvent) =>
      isVisibleTo(current, event) && (query.deploymentId === undefined || event.type === 'resync' || event.deploymentId === query.deploymentId);
    const header = request.headers['last-event-id'];
    const since = (typeof header === 'string' && header.trim()) || query.since;

    if (!/\btext\/event-stream\b/i.test(request.headers.accept ?? '')) {
      if (!since) return { events: [], lastEventId: bus.lastId };
      const held = bus.since(since);
      return { events: held === null ? [resync()] : held.filter(wanted), lastEventId: bus.lastId };
    }

    const stream = new PassThrough();
    open.add(stream);
    reply.code(200).header('Content-Type', 'text/event-stream; charset=utf-8').header('Cache-Control', 'no-store').header('X-Accel-Buffering', 'no');
    const send = (text: string) => {
      if (stream.writableEnded) return;
      if (stream.writableLength > MAX_BUFFERED_BYTES) stream.end();
      else stream.write(text);
    };
    // Replay and subscribe in the same tick: nothing published in between is lost.
    send(`retry: 3000\n: connected ${bus.lastId}\n\n`);
    if (since) {
      const held = bus.since(since);
      if (held === null) send(frame(resync()));
      else for (const event of held) if (wanted(event)) send(frame(event));
    }
    const unsubscribe = bus.subscribe((event) => {
      if (wanted(event)) send(frame(event));
    });
    const heartbeat = setInterval(() => {
      const check = authenticate();
      if (!check) return send(': ping\n\n');
      check(request).then(
        (principalNow) => {
          current = principalNow;
          send(': ping\n\n');
        },
        // Revoked, expired or deactivated meanwhile: the stream ends (a reconnect gets the 401).
        () => stream.end(),
      );
    }, heartbeatMs);
    heartbeat.unref();
    const stop = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(stream);
      if (!stream.writableEnded) stream.end();
    };
    request.raw.on('close', stop);
    stream.on('close', stop);
    stream.on('finish', stop);
    void reply.send(stream);
    return REPLY_SENT;
  });
}
