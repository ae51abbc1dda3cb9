import { createHmac, timingSafeEqual } from 'node:crypto';
import { ErrorCodes } from '../../src-shared/api/errors';
import { ApiError } from './problem';

/**
 * Seals list cursors at the HTTP boundary, so no list can be handed a cursor it did not issue.
 *
 * Areas keep producing and reading plain cursors (`encodeCursor`/`decodeCursor` in pagination.ts).
 * On the way out, the route layer appends an HMAC over the cursor and the list's identity (the
 * operation and its path parameters); on the way in it checks that MAC before the area sees the
 * cursor. A crafted cursor (any JSON shape, base64 of anything), a cursor altered by one
 * character, or one from another list, answers 400 `INVALID_CURSOR`. Filters are not part of the
 * identity (a list's key has the same shape under every filter, as before); where a query field
 * changes the key's shape (the reports' `sortBy`), the area keeps it in its cursor and checks it.
 *
 * The key is derived from the service's token signing key (kept in the SecretStore), so cursors
 * survive a restart. Bump VERSION when the shape of any area's cursor changes: cursors issued
 * before then are refused cleanly instead of reaching code that expects the new shape.
 */
const VERSION = 'v1';
/** 16 bytes of HMAC-SHA256, base64url: forging one takes 2^128 tries. */
const MAC_LENGTH = 22;

export interface ListIdentity {
  operationId: string;
  params: unknown;
}

/** Stable JSON: object keys sorted, so `{a,b}` and `{b,a}` name the same list. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const identityText = (list: ListIdentity): string => `${VERSION}\n${list.operationId}\n${canonical(list.params ?? {})}`;

export function invalidCursor(detail = 'The `after` cursor is not one this list issued: start again from the first page.'): ApiError {
  return new ApiError(400, ErrorCodes.INVALID_CURSOR, detail, {
    errors: [{ pointer: '/querystring/after', detail: 'not a cursor of this list' }],
  });
}

export class CursorSealer {
  constructor(private readonly key: Uint8Array) {}

  private mac(list: ListIdentity, cursor: string): string {
    return createHmac('sha256', this.key).update(identityText(list)).update('\n').update(cursor).digest('base64url').slice(0, MAC_LENGTH);
  }

  /** `cursor.mac`; the area's cursor stays opaque to clients either way. */
  seal(list: ListIdentity, cursor: string): string {
    return `${cursor}.${this.mac(list, cursor)}`;
  }

  /** The area's cursor inside a sealed one, or 400 `INVALID_CURSOR`. */
  open(list: ListIdentity, sealed: string): string {
    const dot = sealed.lastIndexOf('.');
    if (dot <= 0 || sealed.length - dot - 1 !== MAC_LENGTH) throw invalidCursor();
    const cursor = sealed.slice(0, dot);
    const given = Buffer.from(sealed.slice(dot + 1));
    const expected = Buffer.from(this.mac(list, cursor));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
    return cursor;
  }
}

/** Seals `pageInfo.endCursor` of a list response (other results pass through unchanged). */
export function sealPage<T>(sealer: CursorSealer, list: ListIdentity, result: T): T {
  if (result === null || typeof result !== 'object') return result;
  const pageInfo = (result as { pageInfo?: { endCursor?: unknown } }).pageInfo;
  if (!pageInfo || typeof pageInfo.endCursor !== 'string') return result;
  return { ...result, pageInfo: { ...pageInfo, endCursor: sealer.seal(list, pageInfo.endCursor) } };
}
