import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import Ajv from 'ajv';
import { parse as parseYaml } from 'yaml';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkModelTests, MODEL_TEST_FILE_SCHEMA, parseTestFile, testResultDiagnostics } from '../../../src-shared/model/tests';
import { testProject } from '../../../src-main/cli/model-tests/project';
import { compileModel } from '../../../src-shared/model';
import { writeProject } from '../../support/project-dir';
import { ORDERS, yaml } from './helpers';

const CSV = 'id,status,amount,created_at\n1,done,10.5,2024-01-01 10:00:00\n2,done,20,2024-01-02 10:00:00\n3,open,5,2024-02-01 10:00:00\n';

/** A project folder with the helpers' orders cube on `shop.orders`, a fixture CSV and `tests`. */
function project(tests: Record<string, string>): string {
  const dir = writeProject({ 'model/cubes/orders.yml': ORDERS.replace('    joins:\n      - name: customers\n        sql: "{CUBE}.customer_id = {customers.id}"\n        relationship: many_to_one\n', '') });
  mkdirSync(join(dir, 'tests', 'fixtures'), { recursive: true });
  writeFileSync(join(dir, 'tests', 'fixtures', 'orders.csv'), CSV);
  for (const [name, content] of Object.entries(tests)) writeFileSync(join(dir, 'tests', name), content);
  return dir;
}

const FIXTURES = 'data:\n  fixtures:\n    shop.orders: fixtures/orders.csv\n';

describe('model test files', () => {
  it('reports an unknown key, a wrong type and a missing key on their lines, and keeps the valid tests', () => {
    const parsed = parseTestFile({
      path: 'tests/a.yml',
      content: yaml`
        tests:
          - name: fine
            query: { measures: [orders.count] }
            expect: { row_count: 1 }
          - name: unknown key
            query: { measures: [orders.count] }
            expect: { row_count: 1, rowcount: 1 }
          - name: wrong type
            query: { measures: [orders.count] }
            expect: { row_count: many }
          - name: missing expect
            query: { measures: [orders.count] }
      `,
    });
    expect(parsed.tests.map((t) => t.name)).toEqual(['fine']);
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['MODEL_TEST_UNKNOWN_KEY', 7, 29],
      ['MODEL_TEST_INVALID', 10, 26],
      ['MODEL_TEST_INVALID', 11, 5],
    ]);
    expect(parsed.diagnostics[0]!.message).toMatch(/Unknown key `rowcount` in tests\[1\]\.expect; it takes `rows`, `ordered`, `row_count`/);
    expect(parsed.diagnostics[1]!.message).toBe('tests[2].expect.row_count should be an integer, not string.');
    expect(parsed.diagnostics[2]!.message).toBe('tests[3] needs `expect`.');
  });

  it('an unknown key at the top of a file names every key a file takes, and the file’s data still serves its tests', () => {
    const parsed = parseTestFile({ path: 'tests/e.yml', content: `descripton: typo\n${FIXTURES}tests:\n  - { name: x, query: { measures: [orders.count] }, expect: { row_count: 1 } }\n` });
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([
      ['MODEL_TEST_UNKNOWN_KEY', 1, 'Unknown key `descripton` in the file; it takes `description`, `data`, `tests`.'],
    ]);
    expect(parsed.tests.map((t) => [t.name, t.data?.kind])).toEqual([['x', 'fixtures']]);
  });

  it('reports YAML syntax errors, duplicate test names, and fixtures outside the repository or missing', () => {
    expect(parseTestFile({ path: 'tests/b.yml', content: 'tests: [\n' }).diagnostics[0]).toMatchObject({ code: 'MODEL_TEST_SYNTAX', file: 'tests/b.yml' });
    const parsed = parseTestFile(
      {
        path: 'tests/c.yml',
        content: 'data:\n  fixtures:\n    a: ../../etc/passwd.csv\n    b: fixtures/missing.csv\n    c: fixtures/orders.txt\ntests:\n  - { name: x, query: {}, expect: { row_count: 0 } }\n  - { name: x, query: {}, expect: { row_count: 0 } }\n',
      },
      { exists: () => false },
    );
    expect(parsed.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['MODEL_TEST_FIXTURE_NOT_FOUND', 3],
      ['MODEL_TEST_FIXTURE_NOT_FOUND', 4],
      ['MODEL_TEST_INVALID', 5],
      ['MODEL_TEST_INVALID', 8],
    ]);
  });

  it('checks every query against the model: a refused one is a diagnostic on the query’s line', () => {
    const model = compileModel([{ path: 'model/cubes/orders.yml', content: ORDERS }]).model;
    const parsed = parseTestFile({
      path: 'tests/d.yml',
      content: `${FIXTURES}tests:\n  - name: refused\n    query:\n      measures: [orders.nope]\n    expect: { row_count: 1 }\n  - name: no data\n    data: { data_source: warehouse }\n    query: { measures: [orders.count] }\n    expect: { row_count: 1 }\n`,
    });
    expect(checkModelTests(model, [parsed]).map((d) => [d.code, d.line, d.member])).toEqual([['MODEL_TEST_QUERY_REFUSED', 7, 'refused']]);
  });
});

describe('the test file schema (what the editor checks against)', () => {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(MODEL_TEST_FILE_SCHEMA);
  const SAMPLE_TESTS = join(__dirname, '../../../resources/sample-project/tests');

  it('accepts the sample project’s test files, which the parser also reads without a problem', () => {
    for (const name of readdirSync(SAMPLE_TESTS).filter((f) => f.endsWith('.yml'))) {
      const content = readFileSync(join(SAMPLE_TESTS, name), 'utf8');
      expect(validate(parseYaml(content)), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(parseTestFile({ path: `tests/${name}`, content }).diagnostics).toEqual([]);
    }
  });

  it('refuses what the parser refuses: an unknown key, a wrong type, a missing key', () => {
    for (const content of ['tests: [{ name: a, query: {}, expect: { rowcount: 1 } }]', 'tests: [{ name: a, query: {}, expect: { row_count: x } }]', 'tests: [{ name: a, query: {} }]', 'tests: []']) {
      expect(validate(parseYaml(content)), content).toBe(false);
      expect(parseTestFile({ path: 'tests/x.yml', content }).diagnostics.length, content).toBeGreaterThan(0);
    }
  });
});

describe('running model tests on fixture tables', () => {
  it('passes tests whose expectations hold, and reports each failing expectation with what came back', async () => {
    const dir = project({
      'orders.yml': `${FIXTURES}tests:
  - name: passes
    query: { measures: [orders.count, orders.total], dimensions: [orders.status] }
    expect:
      rows:
        - { orders.status: done, orders.count: 2, orders.total: 30.5 }
        - { orders.status: open, orders.count: 1, orders.total: 5 }
      unique: [orders.status]
  - name: fails
    query: { measures: [orders.count], dimensions: [orders.status] }
    expect:
      row_count: 3
      values:
        - { member: orders.count, where: { orders.status: done }, equals: 3 }
        - member: orders.count
          where: { orders.status: open }
          within_percent: 10
          of: { query: { measures: [orders.count] } }
      totals_equal:
        - { member: orders.count, query: { measures: [orders.total] }, reference: orders.total }
`,
    });
    const report = await testProject(dir, {}, dir);
    expect(report.results.map((r) => [r.name, r.status])).toEqual([
      ['passes', 'passed'],
      ['fails', 'failed'],
    ]);
    expect(report.results[1]!.failures.map((f) => [f.line, f.message])).toEqual([
      [15, 'expected 3 rows, got 2'],
      [17, 'orders.count: expected 3, got "2"'],
      [18, 'orders.count: "1" is 66.67 % off the reference orders.count "3" (allowed 10 %)'],
      [23, 'total of orders.count is 3, the other query’s orders.total totals 35.5'],
    ]);
    expect(report.failed).toBe(true);
    // The same outcomes as diagnostics for the Problems panel.
    expect(testResultDiagnostics(report.results).map((d) => [d.code, d.file, d.line])).toEqual([
      ['MODEL_TEST_FAILED', 'tests/orders.yml', 15],
      ['MODEL_TEST_FAILED', 'tests/orders.yml', 17],
      ['MODEL_TEST_FAILED', 'tests/orders.yml', 18],
      ['MODEL_TEST_FAILED', 'tests/orders.yml', 23],
    ]);
  });

  it('errors a test whose query the model refuses or whose fixture does not load, skips data source tests offline', async () => {
    const dir = project({
      'e.yml': `${FIXTURES}tests:
  - { name: refused, query: { measures: [orders.nope] }, expect: { row_count: 1 } }
  - { name: bad table, data: { fixtures: { shop.orders: fixtures/broken.csv } }, query: { measures: [orders.total] }, expect: { row_count: 1 } }
  - { name: warehouse, data: { data_source: default }, query: { measures: [orders.count] }, expect: { row_count: 1 } }
`,
    });
    writeFileSync(join(dir, 'tests', 'fixtures', 'broken.csv'), 'id\n1\n');
    const report = await testProject(dir, {}, dir);
    expect(report.results.map((r) => [r.name, r.status])).toEqual([
      ['refused', 'error'],
      ['bad table', 'error'],
      ['warehouse', 'skipped'],
    ]);
    expect(report.results[0]!.message).toMatch(/^The model refuses the query: /);
    expect(report.results[1]!.message).toMatch(/amount/);
    expect(report.results[2]!.message).toMatch(/data source tests run on the service/);
  });
});
