// `drydock test [DIR]` (issue 26) of the built CLI: the sample project's tests pass offline on their
// fixture CSVs; a failing project exits 1 and reports each failure on its line as text, JSON, JUnit
// and SARIF; an unreadable folder exits 2.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliEnv, jsonOf, runCli } from '../support/cli';
import { writeProject } from '../support/project-dir';

const ROOT = join(__dirname, '../..');

function failingProject(): string {
  const dir = writeProject({
    'model/cubes/orders.yml': 'cubes:\n  - name: orders\n    sql_table: shop.orders\n    dimensions:\n      - name: status\n        sql: status\n        type: string\n    measures:\n      - name: count\n        type: count\n',
    'tests/fixtures/orders.csv': 'id,status\n1,done\n2,done\n3,open\n',
    'tests/orders.yml': [
      'data:',
      '  fixtures:',
      '    shop.orders: fixtures/orders.csv',
      'tests:',
      '  - name: counts by status',
      '    query: { measures: [orders.count], dimensions: [orders.status] }',
      '    expect:',
      '      rows:',
      '        - { orders.status: done, orders.count: 2 }',
      '        - { orders.status: open, orders.count: 1 }',
      '  - name: wrong count',
      '    query: { measures: [orders.count] }',
      '    expect:',
      '      values:',
      '        - { member: orders.count, equals: 4 }',
      '',
    ].join('\n'),
    'tests/typo.yml': 'tests:\n  - name: a\n    query: { measures: [orders.count] }\n    expect: { rowcount: 1 }\n',
  });
  return dir;
}

describe('drydock test', { timeout: 120_000 }, () => {
  it('passes the sample project’s tests offline on their fixture CSVs', async () => {
    const result = await runCli(['test', 'resources/sample-project'], { env: cliEnv(), cwd: ROOT });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('✔ resources/sample-project/tests/orders.yml › counts orders by status');
    expect(result.stdout).toMatch(/✔ 17 passed, 0 failed in 3 test files \(resources\/sample-project, \d+ ms\)$/m);
  });

  it('exits 1 and reports each failing expectation and file problem on its line', async () => {
    const dir = failingProject();
    const text = await runCli(['test', dir], { env: cliEnv(), cwd: dir });
    expect(text.status).toBe(1);
    expect(text.stdout).toContain('✔ tests/orders.yml › counts by status');
    expect(text.stdout).toContain('✖ tests/orders.yml › wrong count');
    expect(text.stdout).toContain('tests/orders.yml:15:11  orders.count: expected 4, got "3"');
    expect(text.stdout).toMatch(/tests\/typo\.yml:4:15 {2}error {2}Unknown key `rowcount`/);
    expect(text.stdout).toMatch(/✖ 1 passed, 1 failed, 1 problem in 2 test files/);

    const json = jsonOf(await runCli(['test', dir, '--format', 'json'], { env: cliEnv(), cwd: dir }));
    expect(json.passed).toBe(false);
    expect(json.summary).toMatchObject({ total: 2, passed: 1, failed: 1 });
    expect(json.diagnostics).toEqual([expect.objectContaining({ code: 'MODEL_TEST_UNKNOWN_KEY', file: 'tests/typo.yml', line: 4 })]);

    const out = mkdtempSync(join(tmpdir(), 'drydock-test-reports-'));
    const junit = await runCli(['test', dir, '--format', 'junit', '--output', join(out, 'junit.xml')], { env: cliEnv(), cwd: dir });
    expect(junit.status).toBe(1);
    expect(junit.stdout).toContain('✖ tests/orders.yml › wrong count');
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(xml).toMatch(/<testsuite name="tests\/orders.yml" time="[\d.]+" tests="2" failures="1" errors="0"/);
    expect(xml).toMatch(/<testsuite name="tests\/typo.yml" time="0" tests="1" failures="0" errors="1"/);
    expect(xml).toContain('<failure message="orders.count: expected 4, got &quot;3&quot;" type="MODEL_TEST_FAILED"');

    await runCli(['test', dir, '--format', 'sarif', '--output', join(out, 'tests.sarif')], { env: cliEnv(), cwd: dir });
    const sarif = JSON.parse(readFileSync(join(out, 'tests.sarif'), 'utf8'));
    const results = sarif.runs[0].results.map((r: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }) => [
      r.ruleId,
      r.level,
      r.locations[0]!.physicalLocation.artifactLocation.uri,
      r.locations[0]!.physicalLocation.region.startLine,
    ]);
    expect(results).toEqual([
      ['MODEL_TEST_UNKNOWN_KEY', 'error', 'tests/typo.yml', 4],
      ['MODEL_TEST_FAILED', 'error', 'tests/orders.yml', 15],
    ]);
  });

  it('drydock validate checks the test files too, without running them', async () => {
    const dir = failingProject();
    const result = await runCli(['validate', dir, '--format', 'json'], { env: cliEnv(), cwd: dir });
    expect(result.status).toBe(1);
    expect(jsonOf(result).diagnostics).toEqual([expect.objectContaining({ code: 'MODEL_TEST_UNKNOWN_KEY', file: 'tests/typo.yml', line: 4 })]);
    const sample = await runCli(['validate', 'resources/sample-project', '--format', 'json'], { env: cliEnv(), cwd: ROOT });
    expect(sample.status).toBe(0);
    expect(jsonOf(sample).diagnostics.filter((d: { file: string }) => d.file.startsWith('tests/'))).toEqual([]);
  });

  it('exits 2 when the folder cannot be read, and says so when there are no tests', async () => {
    const missing = await runCli(['test', '/nonexistent/project'], { env: cliEnv() });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^PROJECT_NOT_FOUND: /);
    const empty = writeProject({ 'model/cubes/a.yml': 'cubes:\n  - name: a\n    sql_table: t\n    measures:\n      - name: count\n        type: count\n' });
    mkdirSync(join(empty, 'tests'));
    writeFileSync(join(empty, 'tests', 'README.md'), 'no tests yet');
    const none = await runCli(['test', empty], { env: cliEnv(), cwd: empty });
    expect(none.status).toBe(0);
    expect(none.stdout).toContain('No test files in tests (tests/*.yml).');
  });
});
