// Optimistic concurrency, one rule for every resource a user edits (model files, workbooks and
// their dashboards, reports, settings): a read answers the resource's version as a strong ETag
// (the quoted sha256 of its content), a write may name the version it was based on in `If-Match`,
// and a write based on a version that is no longer current answers 409 FILE_CHANGED and writes
// nothing. Without `If-Match` a write behaves as on the hosted platform (the last write wins), so
// scripts written against it keep working: the precondition is a Drydock addition.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCodes } from '../../src-shared/api/errors';
import { contentHash } from '../platform/json/canonical';
import type { Db } from '../platform/db/connection';
import { ApiError } from './problem';

/** What a write expects of a resource: its current version, `null` = must not exist yet, `'*'` = must exist. */
export type Expectation = string | null | '*';

/** The ETag of a version (a sha256): quoted. */
export const etagOf = (version: string): string => `"${version}"`;

/**
 * The expectation an `If-Match` header states: `*`, or one entity tag (weak or strong; a tag is
 * a sha256). Absent → undefined (no precondition). A list of tags or a malformed value is a 400.
 */
export function parseIfMatch(header: string | string[] | undefined): Expectation | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value === '*') return '*';
  const match = /^(?:W\/)?"([0-9a-f]{64})"$/i.exec(value);
  if (!match) {
    throw new ApiError(400, ErrorCodes.INVALID_IF_MATCH, 'If-Match must be one entity tag ("<sha256>", as the GET answered in ETag) or *.', {
      errors: [{ pointer: '/headers/if-match', detail: 'not one ETag' }],
    });
  }
  return match[1].toLowerCase();
}

/** The `If-Match` precondition of a request (undefined: none). */
export const ifMatchOf = (request: FastifyRequest): Expectation | undefined => parseIfMatch(request.headers['if-match']);

/** Whether a resource at `current` (null: it does not exist) meets `expectation`. */
export const meets = (expectation: Expectation, current: string | null): boolean =>
  expectation === '*' ? current !== null : expectation === current;

/**
 * Refuses a write whose precondition the resource no longer meets: 409 FILE_CHANGED with the
 * version the write was based on, the current one, and (where given) the resource as a read
 * answers it now, so a client can show both sides without another request. Call it inside the
 * write's transaction, after its access checks (a refusal must not show what the caller may not see).
 */
export function assertVersion(
  what: string,
  expectation: Expectation | undefined,
  current: { version: string | null; read?: () => unknown },
): void {
  if (expectation === undefined || meets(expectation, current.version)) return;
  const gone = current.version === null;
  throw new ApiError(
    409,
    ErrorCodes.FILE_CHANGED,
    `${what} ${gone ? 'was deleted' : 'has changed'} since you read it; nothing was written. Read the current version and merge your change into it.`,
    {
      baseVersion: expectation === '*' ? null : expectation,
      currentVersion: current.version,
      ...(current.read && !gone ? { current: current.read() } : {}),
    },
  );
}

/** Answers a resource's version in `ETag` (reads, and writes so that the next write can name it). */
export function sendVersion(reply: FastifyReply, version: string | null): void {
  if (version !== null) void reply.header('etag', etagOf(version));
}

/** The version of a resource as a read answers it: SHA-256 of its canonical JSON (key order and absent vs null do not count). */
export const versionOf = (representation: unknown): string => contentHash(representation);

/**
 * A conditional write of a resource that a read answers whole (settings): checks `If-Match`
 * against the version of `read()` and runs `write` in one transaction, then answers the new
 * version in `ETag`. Only for writes that are synchronous (SQLite): nothing can change between
 * the check and the write. Call from the route, after its access rule has let the caller in.
 */
export function writeIfUnchanged<T>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  what: string,
  read: () => unknown,
  write: () => T,
): T {
  const expectation = ifMatchOf(request);
  const result = db.transaction(() => {
    const current = read();
    assertVersion(what, expectation, { version: versionOf(current), read: () => current });
    return write();
  })();
  sendVersion(reply, versionOf(read()));
  return result;
}

/** Answers a read whole with its version in `ETag`. */
export function readVersioned<T>(reply: FastifyReply, representation: T): T {
  sendVersion(reply, versionOf(representation));
  return representation;
}
