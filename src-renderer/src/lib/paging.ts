import type { PageInfo } from '../../../src-shared/api/contract';

/** Follows `pageInfo.endCursor` until the last page (or `max` items), for lists the UI shows whole. */
export async function fetchAllPages<T>(page: (after: string | undefined) => Promise<{ items: T[]; pageInfo: PageInfo }>, max = 5000): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (;;) {
    const result = await page(after);
    items.push(...result.items);
    if (!result.pageInfo.hasNextPage || !result.pageInfo.endCursor || items.length >= max) return items;
    after = result.pageInfo.endCursor;
  }
}
