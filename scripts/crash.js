#!/usr/bin/env node
// `npm run crash [-- POINTS [SEED]]`: the git crash test (test/api/git-crash.test.ts) with more kill
// points than `npm test` runs (default 100): `drydock serve` is killed with SIGKILL during commits,
// merges, uploads and pulls, restarted, and every branch must read and `git fsck --full` pass.
// Prints the seed to replay a run. Needs a build (`npm run build`).
import { spawnSync } from 'node:child_process';

const [points = '100', seed] = process.argv.slice(2);
if (!/^\d+$/.test(points) || (seed !== undefined && !/^\d+$/.test(seed))) {
  console.error('usage: npm run crash -- [POINTS] [SEED]');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const result = spawnSync('npx', ['vitest', 'run', '--retry=0', 'test/api/git-crash.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DRYDOCK_CRASH_POINTS: points, ...(seed ? { DRYDOCK_CRASH_SEED: seed } : {}) },
});
process.exit(result.status ?? 1);
