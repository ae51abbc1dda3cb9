import { describe, expect, it } from 'vitest';
import { diffTrees, pathsShadowedByFiles, threeWayMerge, type TreeFile } from '../../../src-main/platform/repo/tree';

const f = (oid: string): TreeFile => ({ oid: oid.padEnd(40, '0'), mode: '100644' });
const tree = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([p, o]) => [p, f(o)]));

describe('tree diff', () => {
  it('reports added, modified and deleted paths sorted by path, and nothing for equal files', () => {
    const changes = diffTrees(tree({ a: '1', b: '2', c: '3' }), tree({ a: '1', b: '9', d: '4' }));
    expect(changes.map((c) => [c.path, c.status])).toEqual([
      ['b', 'modified'],
      ['c', 'deleted'],
      ['d', 'added'],
    ]);
    expect(changes[1]).toMatchObject({ beforeOid: f('3').oid, afterOid: null });
  });

  it('finds every difference of two random trees, in path order, as a comparison of every path would, and only among `among` when given', () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let round = 0; round < 50; round++) {
      const names = Array.from({ length: 40 }, (_, i) => `m/${['a', 'B', 'é', 'z'][i % 4]}${random(30)}.yml`);
      const before = new Map<string, TreeFile>();
      const after = new Map<string, TreeFile>();
      for (const name of names) {
        if (random(3) > 0) before.set(name, f(String(random(3))));
        if (random(3) > 0) after.set(name, random(4) === 0 ? { ...f(String(random(3))), mode: '100755' } : f(String(random(3))));
      }
      // The oracle: every path of either tree, sorted, compared one by one.
      const every = [...new Set([...before.keys(), ...after.keys()])].sort();
      const differs = (p: string) => before.get(p)?.oid !== after.get(p)?.oid || before.get(p)?.mode !== after.get(p)?.mode;
      expect(diffTrees(before, after).map((c) => c.path)).toEqual(every.filter(differs));
      const among = names.filter((_, i) => i % 3 === 0);
      expect(diffTrees(before, after, among).map((c) => c.path)).toEqual(every.filter((p) => among.includes(p) && differs(p)));
    }
  });
});

describe('three-way merge', () => {
  it('takes each side’s change when the sides changed different paths', () => {
    const { merged, conflicts } = threeWayMerge(tree({ a: '1', b: '2' }), tree({ a: '5', b: '2' }), tree({ a: '1', b: '6', c: '7' }));
    expect(conflicts).toEqual([]);
    expect(Object.fromEntries([...merged].map(([p, e]) => [p, e.oid[0]]))).toEqual({ a: '5', b: '6', c: '7' });
  });

  it('accepts the same change made on both sides', () => {
    const { merged, conflicts } = threeWayMerge(tree({ a: '1' }), tree({ a: '2' }), tree({ a: '2' }));
    expect(conflicts).toEqual([]);
    expect(merged.get('a')?.oid[0]).toBe('2');
  });

  it('takes a deletion made on one side when the other side left the file alone', () => {
    const { merged, conflicts } = threeWayMerge(tree({ a: '1', b: '2' }), tree({ a: '1', b: '2' }), tree({ a: '1' }));
    expect(conflicts).toEqual([]);
    expect(merged.has('b')).toBe(false);
  });

  it('reports edit/edit, edit/delete and add/add with different content as conflicts', () => {
    const { conflicts } = threeWayMerge(
      tree({ edit: '1', gone: '2' }),
      tree({ edit: '3', gone: '4', added: '5' }),
      tree({ edit: '6', added: '7' }),
    );
    expect(conflicts).toEqual(['added', 'edit', 'gone']);
  });

  it('reports a file on one side where the other side made it a folder', () => {
    const { conflicts } = threeWayMerge(tree({}), tree({ a: '1' }), tree({ 'a/b': '2' }));
    expect(conflicts).toEqual(['a', 'a/b']);
  });
});

describe('file/folder clashes', () => {
  it('finds a file that is also a folder of another path', () => {
    expect(pathsShadowedByFiles(new Map([['x/y', 1], ['x/y/z', 2], ['x/w', 3]]))).toEqual(['x/y', 'x/y/z']);
    expect(pathsShadowedByFiles(new Map([['x/y', 1], ['x/yz', 2]]))).toEqual([]);
  });
});
