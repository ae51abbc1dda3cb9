/**
 * The service's `application/json` body parser (issue 10: event-loop delay of the HTTP thread;
 * issue 23: memory and time a body may take).
 *
 * A body is kept as its bytes arrive, never reserved at the length it announces (body-bytes.ts).
 * From 256 KB received on, it is never joined on the HTTP thread: each piece is copied, as it
 * arrives, into shared segments, and the whole body is read on a compute thread from them (parsed,
 * and an upload chunk's base64 field decoded; see platform/json/base64-field.ts). Fastify's own
 * reading joined the pieces of a 5.6 MB chunk into one new buffer in a single turn of the event
 * loop — with its page faults and the garbage collection of megabyte buffers, the longest stretch
 * left on the HTTP thread during an upload. Small bodies are joined and read here.
 *
 * The answers are Fastify's rawBody reader's: an announced length over the route's body limit →
 * 413 before anything is read, more bytes than the limit → 413, a stream error → its status (400
 * unless it names one ≥ 400), a length that differs from the announced one → 400
 * FST_ERR_CTP_INVALID_CONTENT_LENGTH; then the JSON rules of platform/json/body.ts (blank → no body,
 * too deep → 400 JSON_TOO_DEEP, malformed → 400 MALFORMED_JSON, and so is a poisoning key, named in
 * `errors[]`). A body that stops arriving, or trickles, answers 408 REQUEST_TIMEOUT
 * (connection-guard.ts decides when). A handler only ever sees a complete body.
 */
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { ServiceContext } from '../context';
import type { JsonBody } from '../platform/json/body';
import { parseJsonBody } from '../platform/json/body';
import type { Base64BodyResult } from '../platform/json/base64-field';
import { rememberDecoded } from '../platform/json/decoded-fields';
import type { SharedJsonBody } from '../platform/json/shared-body';
import { WorkerPools } from '../platform/workers/pools';
import { BodyBytes } from './body-bytes';
import { BODY_STALLED, onBodyStall } from './connection-guard';
import { LimitCodes, MAX_JSON_DEPTH } from './request-limits';
import { ErrorCodes } from '../../src-shared/api/errors';
import { ApiError } from './problem';

/** JSON bodies from this size on are read on a compute thread (below it, the hand-off costs more than it saves). */
export const OFF_THREAD_JSON_BYTES = 256 * 1024;

type Done = (error: Error | null, body?: unknown) => void;

export function registerJsonParser(app: FastifyInstance, ctx: ServiceContext): void {
  // Every body of the contract is JSON: a text/plain one is refused with 415 like any other
  // media type (Fastify would read it as a string, for the schema to answer "must be object").
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request: FastifyRequest, payload: IncomingMessage, done: Done) => {
    const workers = ctx.services.workers instanceof WorkerPools ? ctx.services.workers : undefined;
    readJsonBody(request, payload, workers, done);
  });
}

/** Turns what was read into Fastify's answer: a value, no body, or the 400 of a bad document. */
function answer(read: JsonBody, done: Done): void {
  // `Content-Type: application/json` with no body (or only whitespace) is no body: operations whose
  // body is optional accept it, the others answer 400 for the missing body like any client leaving it out.
  if (read.kind === 'blank') done(null, undefined);
  else if (read.kind === 'too-deep') {
    done(new ApiError(400, LimitCodes.JSON_TOO_DEEP, `The JSON body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
  } else if (read.kind === 'invalid') done(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY(), undefined);
  else if (read.kind === 'poisoned') done(poisonedBody(`/body${read.pointer}`), undefined);
  else done(null, read.value);
}

/**
 * A `__proto__` key (or a `constructor` holding a `prototype`) anywhere in a body, free-form maps
 * included: refused before any schema or handler sees the document, whatever the operation.
 */
function poisonedBody(pointer: string): ApiError {
  const key = pointer.endsWith('/__proto__') ? 'a `__proto__` key' : 'a `constructor` key holding a `prototype`';
  return new ApiError(400, ErrorCodes.MALFORMED_JSON, `The JSON body has ${key} at ${pointer}; keys that could change an object's prototype are never accepted.`, {
    errors: [{ pointer, detail: 'could change an object prototype' }],
  });
}

function readJsonBody(request: FastifyRequest, payload: IncomingMessage & { receivedEncodedLength?: number }, workers: WorkerPools | undefined, done: Done): void {
  const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
  const contentLength = Number(request.headers['content-length']);
  if (contentLength > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
    return;
  }
  const body = new BodyBytes(workers ? OFF_THREAD_JSON_BYTES : null, Number.isNaN(contentLength) ? limit : contentLength);
  let finished = false;
  const finish = (error: Error | null) => {
    finished = true;
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
    if (error) done(error, undefined);
  };
  onBodyStall(request.raw, () => {
    if (!finished) finish(new ApiError(408, LimitCodes.REQUEST_TIMEOUT, BODY_STALLED));
  });

  function onData(chunk: Buffer | string) {
    body.add(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    // The body must not grow past the limit, whatever it announced.
    if (body.received > limit || (payload.receivedEncodedLength ?? 0) > limit) finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  }
  function onEnd(error?: Error & { statusCode?: number }) {
    if (error != null) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      finish(error);
      return;
    }
    if (!Number.isNaN(contentLength) && (payload.receivedEncodedLength || body.received) !== contentLength) {
      finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    finish(null);
    if (body.shared) readOffThread(request, body.sharedBody(), workers!, done);
    else answer(parseJsonBody(body.joined()), done);
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}

/** Reads the body on a compute thread; an upload chunk's base64 field is decoded there too. */
function readOffThread(request: FastifyRequest, body: SharedJsonBody, workers: WorkerPools, done: Done): void {
  const field = request.base64Field;
  const failed = (error: unknown) => done(error as Error, undefined);
  if (field) {
    // Its megabytes of base64 never become a string here; the decoded bytes move back.
    workers.runCompute<Base64BodyResult>('readSharedBase64Body', { body, ...field }).then(({ read, decoded }) => {
      if (decoded && read.kind === 'value') rememberDecoded(read.value as object, decoded);
      answer(read, done);
    }, failed);
    return;
  }
  workers.runCompute<JsonBody>('readSharedJsonBody', body).then((read) => answer(read, done), failed);
}
