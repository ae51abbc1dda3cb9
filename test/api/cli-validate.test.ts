// `drydock validate`: the built CLI on project folders, offline (no service anywhere).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileModel, DiagnosticCodes } from '../../src-shared/model';
import { BIN, cliEnv, jsonOf, runCli } from '../support/cli';
import { writeProject } from '../support/project-dir';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SAMPLE = join(ROOT, 'resources', 'sample-project');

/** The official SARIF 2.1.0 JSON schema (draft-04), as Microsoft's SARIF SDK ships it. */
const SARIF_SCHEMA = join(dirname(createRequire(import.meta.url).resolve('@microsoft/jest-sarif/package.json')), 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');

function sarifValidator() {
  // The schema has a language pattern that is not valid with the `u` flag; the rest is plain draft-04.
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')));
}

function expectValidSarif(log: unknown): void {
  const validate = sarifValidator();
  expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
}

const project = (files: Record<string, string>) => writeProject(files, 'drydock-validate-');

const ORDERS_WITH_ERRORS = `cubes:
  - name: orders
    sql_table: public.orders
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: strin
    measures:
      - name: total
        sql: "{missing.amount}"
        type: sum
`;
const BROKEN_YAML = 'cubes:\n  - name: x\n    sql_table: t\n   bad: [\n';
const CLEAN_CUBE = `cubes:
  - name: customers
    sql_table: public.customers
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: country
        sql: country
        type: string
    measures:
      - name: count
        type: count
`;
/** Valid, with one warning: the view excludes a member the cube does not define. */
const VIEW_WITH_WARNING = `views:
  - name: customer_view
    cubes:
      - join_path: customers
        includes: "*"
        excludes:
          - nickname
`;

let invalid: string;
let warnings: string;
beforeAll(() => {
  invalid = project({ 'model/cubes/orders.yml': ORDERS_WITH_ERRORS, 'model/cubes/broken.yml': BROKEN_YAML, 'model/cubes/customers.yml': CLEAN_CUBE });
  warnings = project({ 'model/cubes/customers.yml': CLEAN_CUBE, 'model/views/customer_view.yml': VIEW_WITH_WARNING, 'README.md': '# not a model file\n' });
});

// Each test spawns the CLI several times: generous on a loaded machine.
describe('drydock validate', { timeout: 120_000 }, () => {
  it('exits 0 on the sample project and says so in one line', async () => {
    const result = await runCli(['validate', SAMPLE], { cwd: ROOT });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^✔ 0 errors, 0 warnings in 11 model files \(resources\/sample-project, \d+ ms\)\n$/);
  });

  it('exits 1 on errors and prints each as path:line:column, severity, message and code', async () => {
    const result = await runCli(['validate', invalid]);
    expect(result.status).toBe(1);
    const orders = join(invalid, 'model/cubes/orders.yml');
    const where = relative(process.cwd(), orders);
    expect(result.stdout).toContain(`${where}:11:15  error  Unknown type 'strin'`);
    expect(result.stdout).toMatch(/MODEL_UNKNOWN_MEMBER_TYPE/);
    expect(result.stdout).toMatch(/broken\.yml:4:1 {2}error {2}YAML syntax error/);
    // Syntax errors come with a code frame pointing at the column.
    expect(result.stdout).toContain('    > 4 |    bad: [');
    expect(result.stdout).toMatch(/✖ \d+ errors, 0 warnings in 3 model files/);
  });

  it('reports exactly what the service’s compiler reports (the same compiler, the same files)', async () => {
    const result = await runCli(['validate', invalid, '--format', 'json']);
    const report = jsonOf(result);
    const files = ['model/cubes/broken.yml', 'model/cubes/customers.yml', 'model/cubes/orders.yml'].map((path) => ({
      path,
      content: readFileSync(join(invalid, path), 'utf8'),
    }));
    const expected = compileModel(files).diagnostics;
    expect(report.diagnostics).toEqual(expected.map((d) => JSON.parse(JSON.stringify(d))));
    expect(report).toMatchObject({ valid: false, passed: false, fileCount: 3, errorCount: expected.filter((d) => d.severity === 'error').length, warningCount: 0 });
  });

  it('--format json has the service’s validate shape with project-relative file paths', async () => {
    const report = jsonOf(await runCli(['validate', warnings, '--format', 'json']));
    expect(report).toEqual({
      directory: expect.any(String),
      valid: true,
      passed: true,
      fileCount: 2,
      errorCount: 0,
      warningCount: 1,
      infoCount: 0,
      maxWarnings: null,
      diagnostics: [
        {
          severity: 'warning',
          code: DiagnosticCodes.VIEW_EXCLUDE_UNKNOWN_MEMBER,
          message: expect.stringContaining("excludes 'nickname'"),
          file: 'model/views/customer_view.yml',
          line: 7,
          column: 13,
          member: 'customer_view',
        },
      ],
    });
  });

  it('warnings pass by default; more than --max-warnings fail with exit 1', async () => {
    expect((await runCli(['validate', warnings])).status).toBe(0);
    expect((await runCli(['validate', warnings, '--max-warnings', '1'])).status).toBe(0);
    const strict = await runCli(['validate', warnings, '--max-warnings', '0']);
    expect(strict.status).toBe(1);
    expect(strict.stdout).toMatch(/✖ 0 errors, 1 warning \(more than --max-warnings 0\)/);
    const bad = await runCli(['validate', warnings, '--max-warnings', 'many']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--max-warnings must be an integer/);
  });

  it('--analyzers adds what cannot be pushed or published, as warnings', async () => {
    const plain = jsonOf(await runCli(['validate', SAMPLE, '--format', 'json']));
    const analyzed = jsonOf(await runCli(['validate', SAMPLE, '--format', 'json', '--analyzers']));
    expect(plain.warningCount).toBe(0);
    expect(analyzed.warningCount).toBeGreaterThan(0);
    expect(analyzed.diagnostics.map((d: { code: string }) => d.code)).toContain(DiagnosticCodes.NOT_PUSHABLE);
  });

  it('--format sarif is valid SARIF 2.1.0 with a rule, a relative file URI, a line and a column for every result', async () => {
    const result = await runCli(['validate', invalid, '--format', 'sarif']);
    expect(result.status).toBe(1);
    const sarif = jsonOf(result);
    expectValidSarif(sarif);
    expect(sarif.version).toBe('2.1.0');
    const run = sarif.runs[0];
    expect(run.tool.driver.name).toBe('drydock');
    const ruleIds = run.tool.driver.rules.map((r: { id: string }) => r.id);
    // Every compiler code is a rule, so rule ids and indexes are stable between runs.
    for (const code of Object.values(DiagnosticCodes)) expect(ruleIds).toContain(code);
    const expected = jsonOf(await runCli(['validate', invalid, '--format', 'json'])).diagnostics;
    expect(run.results).toHaveLength(expected.length);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- SARIF results are asserted field by field
    run.results.forEach((r: Record<string, any>, i: number) => {
      const d = expected[i];
      expect(r.ruleId).toBe(d.code);
      expect(run.tool.driver.rules[r.ruleIndex].id).toBe(d.code);
      expect(r.level).toBe(d.severity === 'info' ? 'note' : d.severity);
      const location = r.locations[0].physicalLocation;
      // Relative to the working directory (the repository root in CI), under %SRCROOT%.
      expect(location.artifactLocation.uriBaseId).toBe('%SRCROOT%');
      expect(location.artifactLocation.uri).not.toMatch(/^(\/|[a-z]+:)/);
      expect(existsSync(join(process.cwd(), decodeURI(location.artifactLocation.uri)))).toBe(true);
      expect(location.artifactLocation.uri.endsWith(d.file)).toBe(true);
      expect(location.region).toEqual({ startLine: d.line, startColumn: d.column });
    });
    expect(run.originalUriBaseIds['%SRCROOT%'].uri).toMatch(/^file:\/\/.*\/$/);
    // The validator does reject what code scanning would: a line 0 region.
    const broken = structuredClone(sarif);
    broken.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
    expect(sarifValidator()(broken)).toBe(false);
  });

  it('--format sarif on a clean project is valid SARIF with no results (code scanning closes old alerts)', async () => {
    const result = await runCli(['validate', SAMPLE, '--format', 'sarif'], { cwd: ROOT });
    expect(result.status).toBe(0);
    const sarif = jsonOf(result);
    expectValidSarif(sarif);
    expect(sarif.runs[0].results).toEqual([]);
  });

  it('--format junit has one test case per model file, failing exactly where there are errors', async () => {
    const result = await runCli(['validate', invalid, '--format', 'junit']);
    expect(result.status).toBe(1);
    const xml = result.stdout;
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(xml).toMatch(/<testsuites name="drydock validate" tests="3" failures="2" errors="0" skipped="0">/);
    const cases = [...xml.matchAll(/<testcase classname="drydock.validate" name="([^"]+)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)];
    expect(cases.map((c) => c[1]!.split('/').pop())).toEqual(['broken.yml', 'customers.yml', 'orders.yml']);
    expect(cases[0]![3]).toContain('<failure');
    expect(cases[1]![3] ?? '').not.toContain('<failure');
    expect(cases[2]![3]).toMatch(/<failure message="2 errors, 0 warnings: [^"]*" type="MODEL_UNKNOWN_MEMBER_TYPE"/);
    // Warnings fail a test case only when they fail the run.
    const lenient = await runCli(['validate', warnings, '--format', 'junit']);
    expect(lenient.stdout).toMatch(/failures="0"/);
    expect(lenient.stdout).toContain('<system-out>');
    const strict = await runCli(['validate', warnings, '--format', 'junit', '--max-warnings', '0']);
    expect(strict.stdout).toMatch(/<testsuites name="drydock validate" tests="2" failures="1"/);
  });

  it('--output writes the report to the file and prints the text summary to stdout', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'drydock-validate-out-')), 'reports', 'drydock.sarif');
    const result = await runCli(['validate', invalid, '--format', 'sarif', '--output', out]);
    expect(result.status).toBe(1);
    expect(JSON.parse(readFileSync(out, 'utf8')).version).toBe('2.1.0');
    expect(result.stdout).toMatch(/✖ \d+ errors/);
  });

  it('a folder that does not exist, or has no model/ folder, exits 2 with a code', async () => {
    const missing = await runCli(['validate', join(tmpdir(), 'drydock-no-such-folder')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^PROJECT_NOT_FOUND: .* does not exist\./);
    const empty = await runCli(['validate', mkdtempSync(join(tmpdir(), 'drydock-empty-'))]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/^NO_MODEL_FOLDER: /);
    const format = await runCli(['validate', SAMPLE, '--format', 'xml']);
    expect(format.status).toBe(1);
    expect(format.stderr).toMatch(/Allowed choices are text, json, sarif, junit/);
  });

  it('loads neither the service nor Fastify, SQLite or the warehouse drivers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'drydock-trace-'));
    const trace = join(dir, 'trace.txt');
    writeFileSync(join(dir, 'hooks.mjs'), `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(trace)}, resolved.url + '\\n');
  return resolved;
}\n`);
    writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
    // Packages loaded with require() (createRequire: better-sqlite3, the drivers) go past the hooks above.
    writeFileSync(join(dir, 'require.cjs'), `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolveFilename.apply(this, args);
  appendFileSync(${JSON.stringify(trace)}, file + '\\n');
  return file;
};\n`);
    const { spawn } = await import('node:child_process');
    const status = await new Promise<number | null>((resolve) => {
      const args = ['--import', join(dir, 'register.mjs'), '--require', join(dir, 'require.cjs'), BIN, 'validate', SAMPLE, '--format', 'sarif'];
      const child = spawn(process.execPath, args, { env: cliEnv(), stdio: 'ignore' });
      child.on('close', resolve);
    });
    expect(status).toBe(0);
    const loaded = readFileSync(trace, 'utf8');
    expect(loaded).toMatch(/out\/main\/chunks\/model-/); // the compiler
    expect(loaded).toMatch(/node-sarif-builder/);
    for (const heavy of ['/chunks/service-', 'fastify', 'better-sqlite3', 'snowflake-sdk', '@databricks', 'isomorphic-git', '@duckdb', 'typebox']) {
      expect(loaded, heavy).not.toContain(heavy);
    }
  });
});
