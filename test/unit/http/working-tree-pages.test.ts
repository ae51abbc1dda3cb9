// A page of a branch's files is read without merging every path: `pathsAfter` must answer exactly
// what the whole merged list (`paths()`) holds after the cursor, with edits that add, change and
// delete files, and `paginateKeys` must page through it as `paginateSorted` pages the whole list.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { workingTreeOf } from '../../../src-main/features/data-model/working';
import { decodeCursor, paginateKeys, paginateSorted } from '../../../src-main/http/pagination';
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

describe('a page of a branch’s paths', () => {
  it('is what the merged list of every path holds after the cursor, edits added, changed and deleted', () => {
    fc.assert(
      fc.property(branchArb, fc.option(pathArb, { nil: null }), fc.integer({ min: 1, max: 60 }), ({ head, edits }, after, limit) => {
        const tree = treeOf(head, edits);
        const all = tree.paths();
        const expected = all.filter((path) => after === null || path > after).slice(0, limit);
        expect(tree.pathsAfter(after, limit)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('pages through the branch as paginateSorted pages its whole list, cursor by cursor', () => {
    fc.assert(
      fc.property(branchArb, fc.integer({ min: 1, max: 7 }), ({ head, edits }, first) => {
        const tree = treeOf(head, edits);
        let after: string | undefined;
        for (;;) {
          const page = paginateKeys({ first, after }, tree.pathsAfter);
          const whole = paginateSorted(tree.paths(), { first, after });
          expect(page).toEqual(whole);
          if (!page.pageInfo.hasNextPage) break;
          after = page.pageInfo.endCursor!;
          expect(typeof decodeCursor(after)).toBe('string');
        }
      }),
      { numRuns: 200 },
    );
  });
});
