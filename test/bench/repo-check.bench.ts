// `npm run bench -- repo-check`: what the start check (issue 23) costs on a repository with a few
// thousand loose objects — 60 commits of 40 files each in 8 folders (~5,000 objects). Prints the
// check of everything (a repository never checked, the bound case), the check after an unclean stop
// with the last commit (~50 objects) written since, and the check after a clean stop (none).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitRepository } from '../../src-main/platform/repo';
import { checkRepository } from '../../src-main/platform/repo/repo-check';
import { median } from './stats';

const COMMITS = 60;
const FILES = 40;
const ROUNDS = Number(process.env.ROUNDS) || 5;
const author = { name: 'Bench', email: 'bench@localhost' };

export async function run(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'drydock-bench-check-'));
  try {
    const repo = GitRepository.at(join(root, 'repo'));
    await repo.initialize({ branch: 'main', files: [{ path: 'README.md', content: 'x\n' }], author, message: 'init' });
    for (let c = 0; c < COMMITS - 1; c++) {
      const files = Array.from({ length: FILES }, (_, i) => ({ path: `model/f${i % 8}/cube_${i}.yml`, content: `cubes:\n  - name: cube_${i}_${c}\n` }));
      await repo.commitChanges('main', files, { message: `commit ${c}`, author });
    }
    await new Promise((resolve) => setTimeout(resolve, 6_000)); // past the check's clock slack
    const since = Date.now();
    const files = Array.from({ length: FILES }, (_, i) => ({ path: `model/f${i % 8}/cube_${i}.yml`, content: `cubes:\n  - name: cube_${i}_last\n` }));
    await repo.commitChanges('main', files, { message: 'last', author });
    const objects = readdirSync(join(repo.gitdir, 'objects')).filter((d) => /^[0-9a-f]{2}$/.test(d)).reduce((n, d) => n + readdirSync(join(repo.gitdir, 'objects', d)).length, 0);
    const time = async (options: { since: number | null }) => {
      const runs: { ms: number; checked: number }[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const report = await checkRepository(repo.gitdir, options);
        runs.push({ ms: report.durationMs, checked: report.checkedObjects });
      }
      return { ms: median(runs.map((r) => r.ms)), checked: runs[0]!.checked };
    };
    const all = await time({ since: null });
    const crash = await time({ since });
    const clean = await time({ since: Date.now() + 60_000 });
    console.log(`repository: ${objects} loose objects, ${COMMITS} commits (${tmpdir()}); median of ${ROUNDS} checks each`);
    console.log(`  everything (never checked, the first start after an upgrade): ${all.ms.toFixed(0)} ms, ${all.checked} objects read back`);
    console.log(`  after an unclean stop, last commit written since:            ${crash.ms.toFixed(0)} ms, ${crash.checked} objects read back`);
    console.log(`  nothing written since (the walk of names and refs only):     ${clean.ms.toFixed(0)} ms, ${clean.checked} objects read back`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
