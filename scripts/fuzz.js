#!/usr/bin/env node
// `npm run fuzz [-- REQUESTS [SEED]]`: the schema-driven fuzzer (test/api/fuzz.test.ts) with at least
// 20,000 hostile requests over every operation of the OpenAPI document (npm test sends one per
// operation). Fails on any 5xx, any 4xx that is not problem+json with a stable code, any 2xx body that
// does not match its schema, a python-run answer holding the host's or the service's secrets (the
// escape tricks of test/support/fuzz-tricks-python.ts run as a published dashboard's widgets, each in
// turn), or a service that stops answering. Prints the seed to replay a run.
import { spawnSync } from 'node:child_process';

const [requests = '20000', seed] = process.argv.slice(2);
if (!/^\d+$/.test(requests) || (seed !== undefined && !/^\d+$/.test(seed))) {
  console.error('usage: npm run fuzz -- [REQUESTS] [SEED]');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const result = spawnSync('npx', ['vitest', 'run', 'test/api/fuzz.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, DRYDOCK_FUZZ_REQUESTS: requests, ...(seed ? { DRYDOCK_FUZZ_SEED: seed } : {}) },
});
process.exit(result.status ?? 1);
