// better-sqlite3 for Electron (issue 25). Its addon is not N-API: the one `npm install` built in
// node_modules/better-sqlite3/build/Release is for Node 24 (the tests, `drydock serve`), and
// Electron's Node (another module ABI) cannot load it. `npm start` and `npm run dist` obtain a
// second build for Electron's ABI and keep it beside the first, never in its place:
//   node_modules/.drydock/better-sqlite3-electron-v<abi>/better_sqlite3.node
// (src-main/platform/db/native-binding.ts picks one by process.versions.modules). Two ways, in a
// scratch copy of the package so that nothing in node_modules/better-sqlite3 changes: the prebuilt
// addon better-sqlite3 publishes for each Electron release (prebuild-install), else a build from
// its sources against Electron's headers (node-gyp). Both download; where neither can, the caller
// says so in one line.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const ADDON = 'better_sqlite3.node';
/** A download that does not finish in this time has failed (a prebuilt addon is a few MB). */
const DOWNLOAD_TIMEOUT_MS = Number(process.env.DRYDOCK_SQLITE_DOWNLOAD_TIMEOUT_MS ?? 60_000);
/** Compiling SQLite from source takes a few minutes on two cores. */
const BUILD_TIMEOUT_MS = 15 * 60_000;

/** Where the Electron build for module ABI `abi` is kept (must match native-binding.ts). */
export function electronSqliteFile(root, abi) {
  return join(root, 'node_modules', '.drydock', `better-sqlite3-electron-v${abi}`, ADDON);
}

/** The module ABI of an Electron binary (its `process.versions.modules`), or null if it cannot say. */
export function electronAbi(binary, run = spawnSync) {
  const result = run(binary, ['-p', 'process.versions.modules'], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8', timeout: 30_000 });
  const abi = String(result.stdout ?? '').trim();
  return result.status === 0 && /^\d+$/.test(abi) ? abi : null;
}

/** Runs `node script args` in `cwd` with a deadline; resolves whether it exited 0. */
function runNode(script, args, cwd, timeoutMs, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
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

/** A tool's script as the installed package finds it (`installedDir`: node_modules/better-sqlite3), or null. */
function toolScript(installedDir, request) {
  try {
    return createRequire(join(installedDir, 'package.json')).resolve(request);
  } catch {
    return null;
  }
}

/** The published prebuilt addon for Electron `version`, fetched into `packageDir`'s build/Release. */
export function fetchPrebuilt({ packageDir, installedDir, version, platform, arch }) {
  const bin = toolScript(installedDir, 'prebuild-install/bin.js');
  if (!bin) return Promise.resolve(false);
  return runNode(bin, ['--runtime', 'electron', '--target', version, '--platform', platform, '--arch', arch], packageDir, DOWNLOAD_TIMEOUT_MS);
}

/** The addon compiled in `packageDir` against Electron `version`'s headers (downloaded by node-gyp). */
export function buildFromSource({ packageDir, installedDir, version, arch }) {
  const gyp = toolScript(installedDir, 'node-gyp/bin/node-gyp.js');
  if (!gyp) return Promise.resolve(false);
  const args = ['rebuild', '--release', '--runtime=electron', `--target=${version}`, `--arch=${arch}`, '--dist-url=https://electronjs.org/headers'];
  // A nodedir set for the Node build (npm_config_nodedir) would build against Node's headers instead.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.toLowerCase() !== 'npm_config_nodedir'));
  return runNode(gyp, args, packageDir, BUILD_TIMEOUT_MS, env);
}

/**
 * The Electron build of better-sqlite3 for module ABI `abi`: `{ file }` when there is one (already,
 * or obtained now), else `{ reason }`. `ways` are tried in order on a scratch copy of the package;
 * the first whose addon appears wins and is moved into place whole (a rename), so an interrupted
 * attempt never leaves half a file where the app looks.
 */
export async function ensureElectronSqlite({
  root,
  abi,
  version,
  platform = process.platform,
  arch = process.arch,
  packageDir = dirname(createRequire(join(root, 'package.json')).resolve('better-sqlite3/package.json')),
  ways = [fetchPrebuilt, buildFromSource],
  log = () => {},
}) {
  const file = electronSqliteFile(root, abi);
  if (existsSync(file)) return { file };
  log(`Fetching better-sqlite3 for Electron ${version} (module ABI ${abi}, first launch)…`);
  const scratch = mkdtempSync(join(tmpdir(), 'drydock-sqlite-electron-'));
  try {
    const copy = join(scratch, 'better-sqlite3');
    // The package without its Node build: what prebuild-install and node-gyp write goes to the copy.
    cpSync(packageDir, copy, { recursive: true, filter: (source) => !source.startsWith(join(packageDir, 'build')) });
    for (const way of ways) {
      rmSync(join(copy, 'build'), { recursive: true, force: true });
      if (!(await way({ packageDir: copy, installedDir: packageDir, version, platform, arch }))) continue;
      const built = join(copy, 'build', 'Release', ADDON);
      if (!existsSync(built)) continue;
      mkdirSync(dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      cpSync(built, temporary);
      renameSync(temporary, file);
      return { file };
    }
    return {
      reason: `no build of better-sqlite3 for Electron ${version} (module ABI ${abi}): its prebuilt addon and a build against Electron's headers both need a download that failed here`,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
