// The Syncs screen's view pickers compile a branch's views once per file set: a branch without
// uncommitted changes is known by its commit (one one-file page), one with them by every model
// file's hash; a miss reads the branch's text in pages. The service's answers are faked; the
// compile runs in-process, as the worker would run it.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteDef } from '../../../src-shared/api/contract';
import { compileModel, type ModelFile } from '../../../src-shared/model';

const fake = vi.hoisted(() => ({
  branch: { commit: 'c1', uncommitted: false, files: [] as { path: string; content: string }[] },
  calls: [] as string[],
  compiles: 0,
}));

vi.mock('../../../src-renderer/src/app/session', () => ({
  api: {
    call: async (def: RouteDef, input: { query?: Record<string, unknown> }) => {
      if (def.operationId !== 'getDataModelFiles') throw new Error(`unexpected ${def.operationId}`);
      const { first = 1000, after, content } = (input.query ?? {}) as { first?: number; after?: string; content?: boolean };
      fake.calls.push(`${content ? 'text' : 'list'} first=${first}${after ? ` after=${after}` : ''}`);
      const sorted = [...fake.branch.files].sort((a, b) => (a.path < b.path ? -1 : 1));
      const from = after ? sorted.findIndex((f) => f.path === after) + 1 : 0;
      const page = sorted.slice(from, from + first);
      const { createHash } = await import('node:crypto');
      const hash = (text: string) => createHash('sha256').update(text).digest('hex');
      return {
        items: page.map((f) => ({ path: f.path, size: f.content.length, sha256: hash(f.content), uncommitted: fake.branch.uncommitted, ...(content ? { content: f.content } : {}) })),
        pageInfo: { hasNextPage: from + first < sorted.length, endCursor: page.length > 0 ? page[page.length - 1]!.path : null },
        branchName: 'dev-1',
        commit: fake.branch.commit,
        hasUncommittedChanges: fake.branch.uncommitted,
      };
    },
  },
}));

// The views worker, run in-process: the same compile and the same answer.
vi.mock('../../../src-renderer/src/features/syncs/views.worker?worker', async () => {
  const { viewsOf } = await import('../../../src-renderer/src/features/syncs/views');
  return {
    default: class {
      onmessage: ((event: { data: unknown }) => void) | null = null;
      onerror: ((event: unknown) => void) | null = null;
      postMessage(files: ModelFile[]) {
        fake.compiles++;
        const compiled = compileModel(files);
        queueMicrotask(() => this.onmessage?.({ data: { views: viewsOf(compiled.model), errorCount: 0 } }));
      }
      terminate() {}
    },
  };
});

const { loadModelViews } = await import('../../../src-renderer/src/features/syncs/modelViews');

const cube = (n: number) => ({ path: `model/cubes/c${n}.yml`, content: `cubes:\n  - name: c${n}\n    sql_table: t${n}\n    measures:\n      - name: count\n        type: count\n` });
const view = (name: string, cubeName: string) => ({ path: `model/views/${name}.yml`, content: `views:\n  - name: ${name}\n    cubes:\n      - join_path: ${cubeName}\n        includes: "*"\n` });

let deployment = 0;
beforeEach(() => {
  deployment++;
  fake.calls = [];
  fake.compiles = 0;
  fake.branch = { commit: 'c1', uncommitted: false, files: [...Array.from({ length: 2500 }, (_, n) => cube(n)), view('first_view', 'c1')] };
});

describe('the Syncs screen’s views of a branch', () => {
  it('names a branch without uncommitted changes by its commit: a visit of a known commit reads one one-file page and compiles nothing', async () => {
    const first = await loadModelViews(deployment, 'dev-1');
    expect(first.views.map((v) => v.name)).toEqual(['first_view']);
    expect(first.commit).toBe('c1');
    // A one-file page, then the text in pages of 1,000: no list of every file's hash.
    expect(fake.calls[0]).toBe('list first=1');
    expect(fake.calls.slice(1).map((c) => c.split(' after=')[0])).toEqual(['text first=1000', 'text first=1000', 'text first=1000']);
    fake.calls = [];
    expect(await loadModelViews(deployment, 'dev-1')).toBe(first);
    expect(fake.calls).toEqual(['list first=1']);
    expect(fake.compiles).toBe(1);
    // A new commit is compiled again.
    fake.branch.commit = 'c2';
    fake.branch.files.push(view('second_view', 'c2'));
    expect((await loadModelViews(deployment, 'dev-1')).views.map((v) => v.name)).toEqual(['first_view', 'second_view']);
    expect(fake.compiles).toBe(2);
  });

  it('names a branch with uncommitted changes by its model files’ hashes, read whole', async () => {
    fake.branch.uncommitted = true;
    const first = await loadModelViews(deployment, 'dev-1');
    expect(fake.calls.filter((c) => c.startsWith('list'))).toHaveLength(4);
    fake.calls = [];
    expect(await loadModelViews(deployment, 'dev-1')).toBe(first);
    expect(fake.calls.every((c) => c.startsWith('list'))).toBe(true);
    // An edit changes a hash: compiled again, with the edit.
    fake.branch.files = fake.branch.files.map((f) => (f.path === 'model/views/first_view.yml' ? view('renamed_view', 'c1') : f));
    expect((await loadModelViews(deployment, 'dev-1')).views.map((v) => v.name)).toEqual(['renamed_view']);
    expect(fake.compiles).toBe(2);
  });
});
