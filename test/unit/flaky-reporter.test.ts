// `npm test` lists the tests that passed only on their retry, with why their first attempt failed
// (scripts/flaky-reporter.js): a CI log keeps nothing else of that attempt.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('records a test that failed once and passed on its retry, with the first attempt’s error and where it was thrown', () => {
  dir = mkdtempSync(join(tmpdir(), 'drydock-flaky-'));
  writeFileSync(
    join(dir, 'sample.test.ts'),
    [
      "import { expect, it } from 'vitest';",
      'let attempts = 0;',
      "it('passes on its second attempt', () => {",
      '  attempts++;',
      "  expect(attempts, 'the attempt').toBe(2);",
      '});',
      "it('passes at once', () => expect(1).toBe(1));",
      '',
    ].join('\n'),
  );
  const flakyFile = join(dir, 'flaky.txt');
  const run = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'sample.test.ts', '--root', dir, '--retry', '1', `--reporter=${join(ROOT, 'scripts', 'flaky-reporter.js')}`],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, DRYDOCK_FLAKY_FILE: flakyFile } },
  );
  expect(run.status, run.stderr).toBe(0);
  expect(readFileSync(flakyFile, 'utf8')).toBe('sample.test.ts › passes on its second attempt\tthe attempt: expected 1 to be 2 // Object.is equality (at sample.test.ts:5)\n');
}, 60_000);
