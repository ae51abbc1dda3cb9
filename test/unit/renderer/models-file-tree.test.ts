// The Models file tree: what buildTree makes of a branch's paths, at the size of a sample project
// and of a 12,500-file branch.
import { describe, expect, it } from 'vitest';
import { buildTree } from '../../../src-renderer/src/features/models/file-tree';

type Node = ReturnType<typeof buildTree>[number];
const shape = (nodes: Node[]): unknown[] => nodes.map((n) => (n.kind === 'folder' ? { [`${n.path}/`]: shape(n.children) } : n.path));

describe('the file tree of a branch', () => {
  it('puts folders before files and sorts each by name as localeCompare does, every node with its full path', () => {
    const tree = buildTree(['model/views/sales.yml', 'README.md', 'model/cubes/orders.yml', 'model/cubes/Customers.yml', 'model/cubes/b/deep.yml', 'a.txt']);
    expect(shape(tree)).toEqual([
      { 'model/': [{ 'model/cubes/': [{ 'model/cubes/b/': ['model/cubes/b/deep.yml'] }, 'model/cubes/Customers.yml', 'model/cubes/orders.yml'] }, { 'model/views/': ['model/views/sales.yml'] }] },
      'a.txt',
      'README.md',
    ]);
    const names = tree[0]!.children[0]!.children.filter((n) => n.kind === 'file').map((n) => n.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('holds every file of a 12,500-file branch once, in folders of 10,000 and 2,500', () => {
    const paths = [
      ...Array.from({ length: 10_000 }, (_, i) => `model/cubes/cube_${i}.yml`),
      ...Array.from({ length: 2_500 }, (_, i) => `model/views/view_${i}.yml`),
    ];
    const tree = buildTree(paths);
    const [model] = tree;
    expect(model!.children.map((n) => [n.path, n.children.length])).toEqual([
      ['model/cubes', 10_000],
      ['model/views', 2_500],
    ]);
    const files = model!.children.flatMap((folder) => folder.children.map((n) => n.path));
    expect(new Set(files)).toEqual(new Set(paths));
  });
});
