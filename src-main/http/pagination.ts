import { ErrorCodes } from '../../src-shared/api/errors';
import { ApiError } from './problem';

export const DEFAULT_PAGE_SIZE = 100;

export interface PageRequest {
  first?: number;
  after?: string;
}

export interface PageResult<T> {
  items: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Opaque cursor: base64url of a JSON sort key. Clients must not parse it. */
export function encodeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

export function decodeCursor<K = unknown>(cursor: string): K {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as K;
  } catch {
    throw new ApiError(400, ErrorCodes.INVALID_CURSOR, 'The `after` cursor is not one this service issued.', {
      errors: [{ pointer: '/querystring/after', detail: 'malformed cursor' }],
    });
  }
}

/**
 * Keyset pagination over rows already ordered by a unique key: fetch `first + 1` rows starting
 * after the decoded cursor (see `pageWindow`), then call this to trim and compute `pageInfo`.
 */
export function toPage<R, T>(rows: R[], page: PageRequest, keyOf: (row: R) => unknown, map: (row: R) => T): PageResult<T> {
  const size = page.first ?? DEFAULT_PAGE_SIZE;
  const hasNextPage = rows.length > size;
  const kept = hasNextPage ? rows.slice(0, size) : rows;
  const last = kept[kept.length - 1];
  return {
    items: kept.map(map),
    pageInfo: { hasNextPage, endCursor: last === undefined ? null : encodeCursor(keyOf(last)) },
  };
}

/** The LIMIT to query with and the decoded `after` key (or null for the first page). */
export function pageWindow<K = unknown>(page: PageRequest): { limit: number; after: K | null } {
  return { limit: (page.first ?? DEFAULT_PAGE_SIZE) + 1, after: page.after ? decodeCursor<K>(page.after) : null };
}

/** Pagination of an in-memory ordered list (for small, computed collections). */
export function paginateArray<T>(all: T[], page: PageRequest, keyOf: (item: T) => string | number): PageResult<T> {
  const { limit, after } = pageWindow<string | number>(page);
  let start = 0;
  if (after !== null) {
    const index = all.findIndex((item) => keyOf(item) === after);
    if (index < 0) throw new ApiError(400, ErrorCodes.INVALID_CURSOR, 'The `after` cursor no longer points into this list.');
    start = index + 1;
  }
  return toPage(all.slice(start, start + limit), page, keyOf, (x) => x);
}

/**
 * Keyset pagination of distinct strings in `sort()` order: `window(after, limit)` answers the first
 * `limit` keys after the cursor's key (null: from the first), found by binary searches
 * (`indexAfter`), so a page deep in a long list (12,500 model files) costs what the first one does,
 * a key removed meanwhile still pages on from where it was, and the keys need never be listed whole.
 */
export function paginateKeys(page: PageRequest, window: (after: string | null, limit: number) => string[]): PageResult<string> {
  const { limit, after } = pageWindow<unknown>(page);
  if (after !== null && typeof after !== 'string') {
    throw new ApiError(400, ErrorCodes.INVALID_CURSOR, 'The `after` cursor is not one this list issued.', {
      errors: [{ pointer: '/querystring/after', detail: 'not a cursor of this list' }],
    });
  }
  return toPage(window(after, limit), page, (key) => key, (key) => key);
}

/** The index of the first key of `sorted` (in `sort()` order) after `key`, by a binary search. */
export function indexAfter(sorted: readonly string[], key: string): number {
  let start = 0;
  let high = sorted.length;
  while (start < high) {
    const mid = (start + high) >>> 1;
    if (sorted[mid]! <= key) start = mid + 1;
    else high = mid;
  }
  return start;
}
