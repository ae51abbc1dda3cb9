#!/usr/bin/env node
// `npm start`: build if needed, then open the desktop app. Where Electron cannot start (no
// display, no binary and none downloadable, spawn failure), say why in one line and serve the
// same UI from the headless service instead, which prints a one-time login link for a browser.
import './check-node.js';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { electronAbi, ensureElectronSqlite } from './electron-sqlite.js';
import { ensureBuilt, ROOT } from './ensure-built.js';

/** How long a first-launch download of the Electron binary may take before we give up on it. */
export const DOWNLOAD_TIMEOUT_MS = Number(process.env.DRYDOCK_ELECTRON_DOWNLOAD_TIMEOUT_MS ?? 20_000);
/** An Electron that exits with an error this soon did not start (missing libraries, bad sandbox…). */
const EARLY_EXIT_MS = 4_000;

/** Why no window can be shown here, or null. */
export function displayProblem(platform, env) {
  if (env.DRYDOCK_HEADLESS === '1' || env.DRYDOCK_HEADLESS === 'true') return 'DRYDOCK_HEADLESS is set';
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'no display';
  return null;
}

/** The installed Electron executable (as the `electron` package records it in path.txt), or null. */
export function findElectronBinary(electronDir, env = process.env, exists = existsSync, read = (p) => readFileSync(p, 'utf8')) {
  if (!electronDir) return null;
  const pathFile = join(electronDir, 'path.txt');
  const relative = exists(pathFile) ? read(pathFile).trim() : null;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const binary = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron');
    return exists(binary) ? binary : null;
  }
  if (!relative) return null;
  const binary = join(electronDir, 'dist', relative);
  return exists(binary) ? binary : null;
}

export function electronPackageDir() {
  try {
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
}

/** Runs the electron package's own installer with a deadline; resolves true if it finished cleanly. */
export function downloadElectron(electronDir, timeoutMs = DOWNLOAD_TIMEOUT_MS) {
  return new Promise((resolve) => {
    const installer = join(electronDir, 'install.js');
    if (!existsSync(installer)) return resolve(false);
    const child = spawn(process.execPath, [installer], { stdio: 'ignore' });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(false);
    }, timeoutMs);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

/**
 * Decides how to start: `{ binary }` for Electron, or `{ reason }` why it cannot start here.
 * Checks the display first, so a headless machine never waits on a download.
 */
export async function resolveElectron({ platform = process.platform, env = process.env, electronDir = electronPackageDir(), download = downloadElectron } = {}) {
  const problem = displayProblem(platform, env);
  if (problem) return { reason: problem };
  if (!electronDir) return { reason: 'the electron package is not installed' };
  let binary = findElectronBinary(electronDir, env);
  if (binary) return { binary };
  console.log('Fetching the Electron binary (first launch)…');
  if (!(await download(electronDir))) return { reason: 'the Electron binary is not installed and could not be downloaded' };
  binary = findElectronBinary(electronDir, env);
  return binary ? { binary } : { reason: 'the Electron binary could not be installed' };
}

/**
 * better-sqlite3 built for this Electron's module ABI (scripts/electron-sqlite.js): `{ file }`, or
 * `{ reason }` why the desktop app cannot open its database here (then the browser path it is).
 */
export async function electronSqliteFor(binary, { root = ROOT, electronDir = electronPackageDir(), abiOf = electronAbi, ensure = ensureElectronSqlite, log = console.log } = {}) {
  const abi = abiOf(binary);
  if (!abi) return { reason: 'the Electron binary did not say its module ABI' };
  const version = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version;
  return ensure({ root, abi, version, log });
}

/** Starts Electron on the app; resolves with its exit code, or rejects with why it did not start. */
export function runElectron(binary, root = ROOT) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    const startedAt = Date.now();
    const child = spawn(binary, [root], { stdio: 'inherit', env });
    forwardSignals(child);
    child.on('error', (error) => reject(new Error(`it could not be started (${error.code ?? error.message})`)));
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal === null && Date.now() - startedAt < EARLY_EXIT_MS) {
        reject(new Error(`it exited with code ${code} right after launch`));
      } else resolve(code ?? 0);
    });
  });
}

/**
 * Arguments for the headless fallback: the user's own, plus `--secrets auto` when the user chose no
 * backend — the OS keychain where one answers, else the 0600 file in the data dir (the service says which).
 */
export function headlessArgs(args, _platform = process.platform, env = process.env) {
  const chose = args.some((a) => a === '--secrets' || a.startsWith('--secrets=')) || Boolean(env.DRYDOCK_SECRETS);
  return chose ? args : [...args, '--secrets', 'auto'];
}

/**
 * `drydock serve --open-login` in this process's terminal; resolves with its exit code. The
 * service stops on its own if this process dies without passing a signal on (DRYDOCK_STOP_WITH_PARENT).
 */
export function runHeadless(args, root = ROOT) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'drydock.js'), 'serve', '--open-login', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DRYDOCK_STOP_WITH_PARENT: '1', DRYDOCK_INVOKED_AS: 'npm run serve --' },
    });
    forwardSignals(child);
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function forwardSignals(child) {
  const forward = (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => forward(signal));
  // npm runs this script through `sh -c` and forwards a SIGTERM or SIGINT only to that shell, which
  // dies without passing it on: when our parent goes, stop the child as if we had been sent SIGTERM.
  onParentExit(() => forward('SIGTERM'));
}

/**
 * Calls `fn` once this process's parent has exited (we are re-parented). Polled, because no
 * portable event says so; the timer does not keep the process alive.
 */
export function onParentExit(fn, intervalMs = 250) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    fn();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

async function main() {
  const args = process.argv.slice(2);
  try {
    ensureBuilt();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  let plan = await resolveElectron();
  if (plan.binary) {
    const sqlite = await electronSqliteFor(plan.binary);
    if (sqlite.reason) plan = { reason: sqlite.reason };
  }
  if (plan.binary) {
    try {
      process.exit(await runElectron(plan.binary));
    } catch (error) {
      plan.reason = error instanceof Error ? error.message : String(error);
    }
  }
  console.log(`Electron cannot start here (${plan.reason}): serving the UI in your browser instead.`);
  process.exit(await runHeadless(headlessArgs(args)));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
