// `npm run bench -- git-scale`: git writes on a 10,000-cube model (the scale benchmark's generated
// project, 12,500 files; issue 28), in process on a real repository:
//   - commits that change, add and remove one file, a commit on the other branch, then a merge
//     commit of the two (tree-rewrite.ts writes only the folders on the way to what changed);
//   - copying the branch into an empty repository on this disk, as a push to the local repository
//     host does (local-transport.ts), next to `git push` of the same branch into an empty bare
//     repository in the same run (git's own pack-objects and index-pack).
// Prints the median and spread of ROUNDS rounds, each on a fresh copy of the repository.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitRepository } from '../../src-main/platform/repo';
import { copyMissingObjects } from '../../src-main/platform/repo/local-transport';
import { generateProject } from './model.bench';
import { median } from './stats';

const CUBES = Number(process.env.CUBES) || 10_000;
const ROUNDS = Number(process.env.ROUNDS) || 5;
const author = { name: 'Bench', email: 'bench@localhost' };
const cube = (name: string) => `cubes:\n  - name: ${name}\n    sql_table: t_${name}\n    measures:\n      - name: count\n        type: count\n`;

const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;

async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
}

export async function run(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'drydock-bench-git-'));
  try {
    const files = generateProject(CUBES, CUBES / 4, true);
    const seed = GitRepository.at(join(root, 'seed'));
    await seed.initialize({ branch: 'main', files, author, message: 'model' });
    await seed.createBranch('dev', 'main');
    console.log(`${files.length.toLocaleString('en-US')} files; ${ROUNDS} rounds, each on a fresh copy`);
    const figures = new Map<string, { ms: number; cpuMs: number }[]>();
    const note = (label: string, figure: { ms: number; cpuMs: number }) => figures.set(label, [...(figures.get(label) ?? []), figure]);
    for (let round = 0; round < ROUNDS; round++) {
      const gitdir = join(root, `r${round}`);
      execFileSync('cp', ['-a', seed.gitdir, gitdir]);
      const repo = GitRepository.at(gitdir);
      await repo.treeOf((await repo.head('dev'))!);
      note('commit changing a cube', await timed(() => repo.commitChanges('dev', [{ path: 'model/cubes/cube_10.yml', content: cube('cube_10') }], { message: 'm', author })));
      note('commit adding a cube', await timed(() => repo.commitChanges('dev', [{ path: 'model/cubes/added.yml', content: cube('added') }], { message: 'a', author })));
      note('commit removing a cube', await timed(() => repo.commitChanges('dev', [{ path: 'model/cubes/cube_11.yml', content: null }], { message: 'r', author })));
      note('commit adding a view on main', await timed(() => repo.commitChanges('main', [{ path: 'model/views/added.yml', content: 'views:\n  - name: added\n    cubes: []\n' }], { message: 'v', author })));
      note('merge commit of dev into main', await timed(() => repo.merge('dev', 'main', { message: 'merge', author })));
      const head = (await repo.head('main'))!;
      const copy = join(root, `copy${round}`);
      execFileSync('git', ['init', '-q', '--bare', copy]);
      note('copy of the branch to an empty repository', await timed(() => copyMissingObjects(gitdir, copy, head)));
      const pushed = join(root, `push${round}`);
      execFileSync('git', ['init', '-q', '--bare', pushed]);
      note('… git push of the same branch (peer)', await timed(async () => execFileSync('git', ['--git-dir', gitdir, 'push', '-q', pushed, 'main'])));
      rmSync(gitdir, { recursive: true, force: true });
      rmSync(copy, { recursive: true, force: true });
      rmSync(pushed, { recursive: true, force: true });
    }
    for (const [label, values] of figures) {
      const ms = values.map((v) => v.ms);
      const cpu = values.map((v) => v.cpuMs);
      console.log(`  ${label.padEnd(44)} ${median(ms).toFixed(0).padStart(6)} ms (${spread(ms)}), this process's CPU ${median(cpu).toFixed(0)} ms`);
    }
    const ours = median(figures.get('copy of the branch to an empty repository')!.map((v) => v.ms));
    const git = median(figures.get('… git push of the same branch (peer)')!.map((v) => v.ms));
    console.log(`  copy / git push: ${(ours / git).toFixed(2)}×`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
