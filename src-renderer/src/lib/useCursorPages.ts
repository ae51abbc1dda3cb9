import { useCallback, useState } from 'react';
import type { PageInfo } from '../../../src-shared/api/contract';
import { useQuery } from './useQuery';

export interface CursorPages<T> {
  items: T[] | null;
  /** 1-based number of the page shown. */
  page: number;
  hasNext: boolean;
  hasPrevious: boolean;
  next(): void;
  previous(): void;
  loading: boolean;
  error: ReturnType<typeof useQuery>['error'];
  reload(): void;
}

/**
 * Page-by-page browsing of a `first`/`after` list: keeps the cursors of the pages seen so
 * "Previous" goes back without offsets. A change of `key` (a search, a filter) starts at page 1.
 */
export function useCursorPages<T>(
  load: (after: string | undefined, signal: AbortSignal) => Promise<{ items: T[]; pageInfo: PageInfo }>,
  key: unknown[],
  action = 'Loading',
): CursorPages<T> {
  const keyText = JSON.stringify(key);
  // Cursors of the pages visited so far; [undefined] is the first page.
  const [trail, setTrail] = useState<{ key: string; cursors: (string | undefined)[] }>({ key: keyText, cursors: [undefined] });
  const cursors = trail.key === keyText ? trail.cursors : [undefined];
  const cursor = cursors[cursors.length - 1];
  const query = useQuery((signal) => load(cursor, signal), [keyText, cursor], action);
  const endCursor = query.data?.pageInfo.endCursor ?? null;

  const next = useCallback(() => {
    if (endCursor) setTrail({ key: keyText, cursors: [...cursors, endCursor] });
  }, [endCursor, keyText, cursors]);
  const previous = useCallback(() => {
    if (cursors.length > 1) setTrail({ key: keyText, cursors: cursors.slice(0, -1) });
  }, [keyText, cursors]);

  return {
    items: query.data?.items ?? null,
    page: cursors.length,
    hasNext: Boolean(query.data?.pageInfo.hasNextPage && endCursor),
    hasPrevious: cursors.length > 1,
    next,
    previous,
    loading: query.loading,
    error: query.error,
    reload: query.reload,
  };
}
