#!/usr/bin/env node
// `npm run conformance`: the differential suite of the model compiler against the platform's own
// compiler at full size (CONFORMANCE_RUNS generated valid models and twice as many faulted ones;
// `npm test` runs a bounded share). Extra arguments go to vitest (e.g. `-t "edge cases"`).
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const runs = process.env.CONFORMANCE_RUNS ?? '1000';
console.log(`Conformance: ${runs} valid models, ${Number(runs) * 2} faulted models, the edge cases and the known differences.`);
const result = spawnSync('npx', ['vitest', 'run', 'test/conformance', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CONFORMANCE_RUNS: runs },
});
process.exit(result.status ?? 1);
