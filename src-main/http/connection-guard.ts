/**
 * How long a client may take to send a request, and how many connections the service keeps
 * (issue 23: 8,000 connections announcing 5 MB bodies and sending nothing held the service's memory
 * and sockets for minutes).
 *
 * Node's own timers cover the parts it sees: headers must arrive within `headersTimeoutMs`, a whole
 * request within `requestTimeoutMs`, an idle kept-alive connection closes after
 * `keepAliveTimeoutMs`. A body is watched here: once its headers are in, it must keep arriving — no
 * silence of `bodyIdleTimeoutMs`, at least `bodyMinBytesPerWindow` bytes every `bodyRateWindowMs` —
 * else it answers 408 problem+json `REQUEST_TIMEOUT` (when an answer can still be sent) and its
 * connection closes. Only the client is held to this: while the service itself is not reading (its
 * buffer of the body is full), the clock does not run.
 *
 * Over `softMaxConnections`, stalled connections are closed, oldest first and without an answer,
 * so a new client is still answered: a body that received nothing for `stalledAfterMs` or is behind
 * the minimum rate, a connection with no request under way for that long (headers that do not
 * come, an idle keep-alive). `maxConnections` is the hard cap past which Node refuses connections
 * (reached only when connections come faster than stalled ones can be told apart). A connection
 * whose request is complete and whose answer is under way (the live-events stream, a download) is
 * never timed out nor closed here, however long it lasts.
 *
 * One sweep over the connections runs every `checkIntervalMs` (it reads each socket's byte count:
 * no listener is added to a body, so reading it stays the parser's business).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { LimitCodes } from './request-limits';
import { problemBody } from './problem';

export interface HttpLimits {
  /** Request line and headers must arrive within this (Node's `headersTimeout`). */
  headersTimeoutMs: number;
  /** A whole request, headers and body, must arrive within this (Node's `requestTimeout`). */
  requestTimeoutMs: number;
  /** A body that receives nothing for this long answers 408. */
  bodyIdleTimeoutMs: number;
  /** A body must receive at least `bodyMinBytesPerWindow` bytes in each window of this length... */
  bodyRateWindowMs: number;
  /** ...or answer 408 (a trickle is as good as silence). */
  bodyMinBytesPerWindow: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Over this many connections, stalled ones are closed, oldest first. */
  softMaxConnections: number;
  /** Connections past this many are refused (Node's `server.maxConnections`). */
  maxConnections: number;
  /** Over the soft cap, a connection counts as stalled after this long without progress (see the module comment). */
  stalledAfterMs: number;
  /**
   * How often connections are checked (also Node's `connectionsCheckingInterval`); unless given, a
   * quarter of the shortest timeout, and no longer than `stalledAfterMs` or 1 s.
   */
  checkIntervalMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 15_000,
  requestTimeoutMs: 120_000,
  bodyIdleTimeoutMs: 10_000,
  bodyRateWindowMs: 10_000,
  bodyMinBytesPerWindow: 64 * 1024,
  keepAliveTimeoutMs: 10_000,
  softMaxConnections: 1_024,
  maxConnections: 8_192,
  stalledAfterMs: 500,
  checkIntervalMs: 1_000,
};

/** The limits with `overrides` applied. */
export function httpLimits(overrides: Partial<HttpLimits> = {}): HttpLimits {
  const limits = { ...DEFAULT_HTTP_LIMITS, ...overrides };
  // Node refuses a headers timeout longer than the request timeout: the whole request includes them.
  limits.requestTimeoutMs = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs);
  if (overrides.checkIntervalMs === undefined) {
    const shortest = Math.min(limits.headersTimeoutMs, limits.bodyIdleTimeoutMs, limits.bodyRateWindowMs, limits.stalledAfterMs * 4);
    limits.checkIntervalMs = Math.max(50, Math.min(DEFAULT_HTTP_LIMITS.checkIntervalMs, Math.floor(shortest / 4)));
  }
  return limits;
}

/** The Node server options these limits set (they can only be given when the server is created). */
export const serverOptions = (limits: HttpLimits) => ({
  headersTimeout: limits.headersTimeoutMs,
  requestTimeout: limits.requestTimeoutMs,
  keepAliveTimeout: limits.keepAliveTimeoutMs,
  connectionsCheckingInterval: limits.checkIntervalMs,
});

/** What answers a stalled body when the code reading it can (it then answers through the framework). */
const stallAnswers = new WeakMap<IncomingMessage, () => void>();

/**
 * Registers how the reader of `request`'s body answers when the body stalls (it must answer, with
 * 408 REQUEST_TIMEOUT; the connection is closed after that answer). Without one, the guard answers.
 */
export function onBodyStall(request: IncomingMessage, answer: () => void): void {
  stallAnswers.set(request, answer);
}

/** The detail of a 408 for a body that stalled. */
export const BODY_STALLED = 'The request body stopped arriving (or arrived too slowly) and was not read.';

interface Connection {
  socket: Socket;
  /** `socket.bytesRead` at the last look, and when it last grew. */
  bytes: number;
  progressAt: number;
  /** The current rate window of the body being received: when it began and the byte count then. */
  windowAt: number;
  windowBytes: number;
  /** The latest request on the connection and its response. */
  request: IncomingMessage | null;
  response: ServerResponse | null;
  /** Answers begun on this connection and not finished (more than one when requests are pipelined). */
  answering: number;
  /** Since when no request has been under way (since the connection opened or the last answer went). */
  idleSince: number;
}

/** Watches every connection of `server` by `limits` (see the module comment). */
export function guardConnections(server: Server, limits: HttpLimits): void {
  // Insertion order is connection age: the first ones a sweep meets are the oldest.
  const connections = new Map<Socket, Connection>();
  server.maxConnections = limits.maxConnections;

  server.on('connection', (socket: Socket) => {
    const now = Date.now();
    const connection: Connection = { socket, bytes: 0, progressAt: now, windowAt: now, windowBytes: 0, request: null, response: null, answering: 0, idleSince: now };
    connections.set(socket, connection);
    socket.once('close', () => connections.delete(socket));
    // A connection over the soft cap makes room by closing a stalled one (a few are looked at, the
    // oldest; the sweep goes through all of them).
    if (connections.size > limits.softMaxConnections) closeStalled(connections.size - limits.softMaxConnections, now, 64);
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const connection = connections.get(request.socket as Socket);
    if (!connection) return;
    const now = Date.now();
    connection.request = request;
    connection.response = response;
    connection.answering++;
    connection.progressAt = now;
    connection.windowAt = now;
    connection.windowBytes = connection.socket.bytesRead;
    let counted = true;
    const finished = () => {
      if (counted && --connection.answering === 0) connection.idleSince = Date.now();
      counted = false;
    };
    response.once('finish', finished);
    response.once('close', finished);
  });

  /** Reads how many bytes the connection received; notes when that count last grew. */
  const look = (c: Connection, now: number) => {
    const bytes = c.socket.bytesRead;
    if (bytes !== c.bytes) {
      c.bytes = bytes;
      c.progressAt = now;
    }
    return bytes;
  };

  /** The service is not reading the body (its buffer of it is full): the client is not the one delaying. */
  const serviceIsBehind = (request: IncomingMessage) => request.readableLength >= request.readableHighWaterMark;

  /** True while the body of the connection's latest request is still to come. */
  const receivingBody = (c: Connection) => c.request !== null && !c.request.complete;

  /**
   * Stalled, i.e. closed first over the soft cap: a body that received nothing for
   * `stalledAfterMs` or is behind the minimum rate; a connection with no request under way for that
   * long (headers that do not come, or trickle; an idle keep-alive). Never one whose request is
   * complete and whose answer is under way.
   */
  function isStalled(c: Connection, now: number): boolean {
    const bytes = look(c, now);
    if (receivingBody(c)) {
      if (serviceIsBehind(c.request!)) return false;
      if (now - c.progressAt >= limits.stalledAfterMs) return true;
      const elapsed = now - c.windowAt;
      return elapsed >= limits.stalledAfterMs && bytes - c.windowBytes < (limits.bodyMinBytesPerWindow * elapsed) / limits.bodyRateWindowMs;
    }
    return c.answering === 0 && now - c.idleSince >= limits.stalledAfterMs;
  }

  function closeStalled(count: number, now: number, lookAt = Number.POSITIVE_INFINITY): void {
    let looked = 0;
    for (const c of connections.values()) {
      if (count <= 0 || looked++ >= lookAt) return;
      if (!isStalled(c, now)) continue;
      // Shedding load: no answer is written (a write per connection is most of what one costs).
      connections.delete(c.socket);
      c.socket.destroy();
      count--;
    }
  }

  /** Ends a connection whose body stalled: a 408 when no answer began, else just closed. */
  function timeOut(c: Connection): void {
    connections.delete(c.socket);
    const { request, response } = c;
    if (!request || request.complete || !response || response.headersSent) {
      c.socket.destroy();
      return;
    }
    // The answer closes the connection; what the client still sends is not read. An answer that
    // does not go out in time does not keep the connection either.
    response.setHeader('Connection', 'close');
    response.once('finish', () => c.socket.destroy());
    setTimeout(() => c.socket.destroy(), limits.bodyIdleTimeoutMs).unref();
    const answer = stallAnswers.get(request);
    if (answer) answer();
    else answerStalled(response, request.url ?? '/');
  }

  let lastSweep = Date.now();
  const sweep = setInterval(() => {
    const now = Date.now();
    // While this thread did not run (a long turn of the event loop), the bytes that came were not
    // read either: that time is not the clients' delay.
    const stopped = Math.max(0, now - lastSweep - 2 * limits.checkIntervalMs);
    lastSweep = now;
    for (const c of connections.values()) {
      if (stopped > 0) {
        c.progressAt = Math.min(now, c.progressAt + stopped);
        c.windowAt = Math.min(now, c.windowAt + stopped);
        c.idleSince = Math.min(now, c.idleSince + stopped);
      }
      const bytes = look(c, now);
      if (!receivingBody(c)) continue;
      const request = c.request!;
      if (serviceIsBehind(request)) {
        c.progressAt = now;
        c.windowAt = now;
        c.windowBytes = bytes;
        continue;
      }
      if (now - c.progressAt >= limits.bodyIdleTimeoutMs) timeOut(c);
      else if (now - c.windowAt >= limits.bodyRateWindowMs) {
        if (bytes - c.windowBytes < limits.bodyMinBytesPerWindow) timeOut(c);
        c.windowAt = now;
        c.windowBytes = bytes;
      }
    }
    if (connections.size > limits.softMaxConnections) closeStalled(connections.size - limits.softMaxConnections, now);
  }, limits.checkIntervalMs);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
}

/** The 408 of a stalled body whose reader registered no answer of its own. */
function answerStalled(response: ServerResponse, url: string): void {
  const text = JSON.stringify(problemBody(408, LimitCodes.REQUEST_TIMEOUT, BODY_STALLED, url.slice(0, 200)));
  response.writeHead(408, {
    'content-type': 'application/problem+json',
    'content-length': Buffer.byteLength(text),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  response.end(text);
}
