// `npm run bench -- commit-durability`: what durable git writes cost (issue 23). A commit of 400
// new files (20 folders) through GitRepository.commitChanges — every object written under a
// temporary name and renamed, all of them and their folders fsynced before the branch moves — next
// to the same commit written the way it was before: isomorphic-git's plain writeFile on node's fs,
// nothing fsynced. Prints the median and the spread of ROUNDS rounds of each, on fresh repositories.
import fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git, { type TreeEntry } from 'isomorphic-git';
import { GitRepository } from '../../src-main/platform/repo';
import { median } from './stats';

const ROUNDS = Number(process.env.ROUNDS) || 7;
const FILES = 400;
const FOLDERS = 20;
const author = { name: 'Bench', email: 'bench@localhost' };

const fileOf = (i: number) => ({
  path: `model/f${i % FOLDERS}/cube_${i}.yml`,
  content: `cubes:\n  - name: cube_${i}\n    sql_table: public.t_${i}\n    measures:\n      - name: count\n        type: count\n`,
});

async function durableCommit(root: string): Promise<number> {
  const repo = GitRepository.at(join(root, 'durable'));
  await repo.initialize({ branch: 'main', files: [{ path: 'README.md', content: 'x\n' }], author, message: 'init' });
  const files = Array.from({ length: FILES }, (_, i) => fileOf(i));
  const t = performance.now();
  await repo.commitChanges('main', files, { message: '400 files', author });
  return performance.now() - t;
}

/** The same objects and ref through isomorphic-git on node's fs: what a commit cost before issue 23. */
async function plainCommit(root: string): Promise<number> {
  const gitdir = join(root, 'plain');
  await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
  const files = Array.from({ length: FILES }, (_, i) => fileOf(i));
  const t = performance.now();
  const folders = new Map<string, TreeEntry[]>();
  // Four writes under way at a time, as commitChanges does: the difference left is the fsyncs.
  const oids: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const i = next++;
      oids[i] = await git.writeBlob({ fs, gitdir, blob: Buffer.from(files[i]!.content) });
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  files.forEach((file, i) => {
    const [, folder, name] = file.path.split('/');
    folders.set(folder!, [...(folders.get(folder!) ?? []), { mode: '100644', path: name!, oid: oids[i]!, type: 'blob' }]);
  });
  const model: TreeEntry[] = [];
  for (const [name, entries] of folders) model.push({ mode: '040000', path: name, oid: await git.writeTree({ fs, gitdir, tree: entries }), type: 'tree' });
  const modelTree = await git.writeTree({ fs, gitdir, tree: model });
  const root_ = await git.writeTree({ fs, gitdir, tree: [{ mode: '040000', path: 'model', oid: modelTree, type: 'tree' }] });
  const person = { ...author, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  const commit = await git.writeCommit({ fs, gitdir, commit: { message: '400 files\n', tree: root_, parent: [], author: person, committer: person } });
  await git.writeRef({ fs, gitdir, ref: 'refs/heads/main', value: commit, force: true });
  return performance.now() - t;
}

const range = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

export async function run(): Promise<void> {
  const durable: number[] = [];
  const plain: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const root = mkdtempSync(join(tmpdir(), 'drydock-bench-durable-'));
    try {
      // Alternate which goes first, so neither always meets a warmer disk.
      if (round % 2 === 0) {
        durable.push(await durableCommit(root));
        plain.push(await plainCommit(root));
      } else {
        plain.push(await plainCommit(root));
        durable.push(await durableCommit(root));
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  console.log(`commit of ${FILES} new files in ${FOLDERS} folders, ${ROUNDS} rounds (${tmpdir()})`);
  console.log(`  durable (temp + rename, objects and folders fsynced before the ref): median ${median(durable).toFixed(0)} ms (${range(durable)})`);
  console.log(`  plain writeFile, no fsync (before), 4 writes at a time:          median ${median(plain).toFixed(0)} ms (${range(plain)})`);
  console.log(`  cost of durability: +${(median(durable) - median(plain)).toFixed(0)} ms per 400-file commit`);
}
