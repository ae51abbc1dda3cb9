// A page of a branch's files is read without merging every path: `pathsAfter` must answer exactly
// what the branch as the user sees it holds after the cursor, with edits that add, change and
// delete files, `paths()` must be that whole list, and `paginateKeys` must page through it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { workingTreeOf } from '../../../src-main/features/data-model/working';
import { decodeCursor, paginateKeys } from '../../../src-main/http/pagination';
import type { TreeFile } from '../../../src-main/platform/repo/tree';

const FILE: TreeFile = { oid: '0'.repeat(40), mode: '100644' } as TreeFile;
const pathArb = fc.stringMatching(/^[a-cA-C_./é]{1,6}$/);

const branchArb = fc.record({
  head: fc.uniqueArray(pathArb, { maxLength: 40 }),
  edits: fc.uniqueArray(fc.tuple(pathArb, fc.option(fc.constant('text'), { nil: null })), { maxLength: 15, selector: ([path]) => path }),
});

function treeOf(head: string[], edits: [string, string | null][]) {
  return workingTreeOf('dev', 'c'.repeat(40), new Map(head.map((path) => [path, FILE])), new Map(edits));
}

/** Every path of the branch as the user sees it, worked out apart from the code under test. */
function seen(head: string[], edits: [string, string | null][]): string[] {
  const files = new Set(head);
  for (const [path, content] of edits) {
    if (content === null) files.delete(path);
    else files.add(path);
  }
  return [...files].sort();
}

describe('a page of a branch’s paths', () => {
  it('is what the merged list of every path holds after the cursor, edits added, changed and deleted', () => {
    fc.assert(
      fc.property(branchArb, fc.option(pathArb, { nil: null }), fc.integer({ min: 1, max: 60 }), ({ head, edits }, after, limit) => {
        const tree = treeOf(head, edits);
        const all = seen(head, edits);
        expect(tree.paths()).toEqual(all);
        const expected = all.filter((path) => after === null || path > after).slice(0, limit);
        expect(tree.pathsAfter(after, limit)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('pages through the whole branch, `first` paths a page, cursor by cursor', () => {
    fc.assert(
      fc.property(branchArb, fc.integer({ min: 1, max: 7 }), ({ head, edits }, first) => {
        const tree = treeOf(head, edits);
        const all = seen(head, edits);
        const read: string[] = [];
        let after: string | undefined;
        for (;;) {
          const page = paginateKeys({ first, after }, tree.pathsAfter);
          expect(page.items).toEqual(all.slice(read.length, read.length + first));
          read.push(...page.items);
          expect(page.pageInfo.hasNextPage).toBe(read.length < all.length);
          if (!page.pageInfo.hasNextPage) break;
          after = page.pageInfo.endCursor!;
          expect(decodeCursor(after)).toBe(read[read.length - 1]);
        }
        expect(read).toEqual(all);
      }),
      { numRuns: 200 },
    );
  });
});
