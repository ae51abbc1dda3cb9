#!/usr/bin/env node
// `npm test`: lint (incl. import boundaries), type-check, build, then every test suite —
// unit and API tests (with a real OS keychain in a D-Bus session where the platform needs one),
// and end-to-end tests in Debian's chromium. Prints one closing "N passed, N failed" line.
import './check-node.js';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { childCpuSeconds, slowestFiles, formatStageTimes } from './test-timing.js';

const root = new URL('..', import.meta.url).pathname;
const outDir = join(root, 'test-output');
mkdirSync(outDir, { recursive: true });

const stageTimes = [];

function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const started = { wall: performance.now(), cpu: childCpuSeconds() };
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  stageTimes.push({ title, wall: (performance.now() - started.wall) / 1000, cpu: childCpuSeconds() - started.cpu });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** Runs a command with its output held back, then prints the output under its title; resolves with its status and wall seconds. */
function runBuffered({ title, command, args }) {
  const started = performance.now();
  return new Promise((resolve) => {
    // Colours as on a terminal when `npm test` runs in one (the tools see a pipe here).
    const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...color } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    let finished = false;
    const finish = (status) => {
      // A command that cannot start emits 'error' and may still emit 'close'.
      if (finished) return;
      finished = true;
      const wall = (performance.now() - started) / 1000;
      console.log(`\n▶ ${title} (${wall.toFixed(0)} s)`);
      process.stdout.write(Buffer.concat(output));
      resolve({ status, wall });
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(1);
    });
    child.on('close', (code) => finish(code ?? 1));
  });
}

const has = (bin) => spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status === 0;

let failedSteps = [];
const step = (title, command, args, env) => {
  const status = run(title, command, args, env);
  if (status !== 0) failedSteps.push(title);
  return status;
};

// Lint, type-check and build read the sources and write nothing the others read (the build writes
// out/, which lint ignores and tsc does not emit to): they run at once. Each is single-threaded for
// most of its time, so on 2 cores the three take about as long as the type-check alone (issue 25).
// Their output is printed per step when it ends, not interleaved.
const checks = [
  { title: 'lint (eslint, import boundaries)', command: 'npx', args: ['eslint', '.'] },
  { title: 'type-check (tsc --noEmit)', command: 'npx', args: ['tsc', '--noEmit', '-p', 'tsconfig.json'] },
  { title: 'build (electron-vite)', command: 'npx', args: ['electron-vite', 'build'] },
];
const checksStarted = { wall: performance.now(), cpu: childCpuSeconds() };
const checkResults = await Promise.all(checks.map((check) => runBuffered(check)));
stageTimes.push({
  title: `lint, type-check, build at once (${checkResults.map((r) => `${r.wall.toFixed(0)} s`).join(', ')})`,
  wall: (performance.now() - checksStarted.wall) / 1000,
  cpu: childCpuSeconds() - checksStarted.cpu,
});
for (const [i, result] of checkResults.entries()) if (result.status !== 0) failedSteps.push(checks[i].title);
if (checkResults[2].status !== 0) {
  console.error('\nBuild failed; the tests need the built CLI and renderer.');
  console.log(`0 passed, 1 failed`);
  process.exit(1);
}

const suites = [
  { name: 'unit and API tests', config: 'vitest.config.ts', report: 'vitest-main.json' },
  // Built just above, so the e2e setup need not rebuild.
  { name: 'end-to-end tests (chromium)', config: 'vitest.e2e.config.ts', report: 'vitest-e2e.json', env: { DRYDOCK_E2E_SKIP_BUILD: '1' } },
];

const flakyFile = (suite) => join(outDir, suite.report.replace(/\.json$/, '-flaky.txt'));

// The keychain backend is tested against the real OS keychain. On Linux without a session bus,
// start one with an unlocked gnome-keyring for the duration of the run.
const needsKeyringSession = process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS;
const canStartKeyring = has('dbus-run-session') && has('gnome-keyring-daemon');

for (const suite of suites) {
  if (!existsSync(join(root, suite.config))) continue;
  const reportFile = join(outDir, suite.report);
  rmSync(reportFile, { force: true });
  rmSync(flakyFile(suite), { force: true });
  const vitestArgs = ['vitest', 'run', '--config', suite.config, '--reporter=default', '--reporter=json', '--reporter=./scripts/flaky-reporter.js', `--outputFile.json=${reportFile}`];
  if (needsKeyringSession && canStartKeyring) {
    // A fresh keyring directory per run: an existing login keyring (other password) would stay locked.
    const inner = `export XDG_DATA_HOME="$(mktemp -d)"; echo -n drydock-test | gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null 2>&1; exec npx ${vitestArgs.map((a) => `'${a}'`).join(' ')}`;
    step(suite.name, 'dbus-run-session', ['--', 'sh', '-c', inner], { ...suite.env, DRYDOCK_FLAKY_FILE: flakyFile(suite) });
  } else {
    step(suite.name, 'npx', vitestArgs, { ...suite.env, DRYDOCK_FLAKY_FILE: flakyFile(suite) });
  }
}

let passed = 0;
let failed = 0;
const failedTests = [];
for (const suite of suites) {
  const reportFile = join(outDir, suite.report);
  if (!existsSync(reportFile)) continue;
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const firstLine = String(test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 300);
      failedTests.push(`${file.name.replace(root, '')} › ${test.fullName}\n    ${firstLine}`);
    }
  }
}
const reports = suites.map((suite) => join(outDir, suite.report)).filter((file) => existsSync(file));
console.log(`\n${formatStageTimes(stageTimes)}`);
console.log(`\nTen slowest test files:\n${slowestFiles(reports, root, 10).join('\n')}`);
const flaky = suites.flatMap((suite) => (existsSync(flakyFile(suite)) ? readFileSync(flakyFile(suite), 'utf8').trim().split('\n').filter(Boolean) : []));
const flakyLine = (line) => {
  const [test, why] = line.split('\t');
  return why ? `  ~ ${test}\n      first attempt: ${why}` : `  ~ ${test}`;
};
if (flaky.length > 0) console.error(`\nFlaky tests (failed once, passed on their one retry; fix them):\n${flaky.map(flakyLine).join('\n')}`);
// Repeated at the very end: a CI log is often read from its tail only.
if (failedTests.length > 0) console.error(`\nFailed tests:\n${failedTests.map((t) => `  ✗ ${t}`).join('\n')}`);
if (failedSteps.length > 0) console.error(`\nFailed steps: ${failedSteps.join(', ')}`);
const failures = failed + (failedSteps.length > 0 && failed === 0 ? failedSteps.length : 0);
console.log(`\n${passed} passed, ${failures} failed`);
process.exit(failedSteps.length > 0 ? 1 : 0);
