#!/usr/bin/env node
// `npm run dist`: desktop packages with electron-builder (config: electron-builder.yml). Builds first,
// then packs the Electron binary the `electron` package installed. Without that binary (it is fetched
// on first launch, not at `npm install`, and cannot be fetched offline) it says so and exits 1 rather
// than letting electron-builder fail on a download.
// Targets: this platform's by default (Linux: AppImage and .deb); pass electron-builder flags after
// `--`, e.g. `npm run dist -- --mac dmg` on macOS or `npm run dist -- --win nsis` on Windows.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, ROOT } from './ensure-built.js';
import { downloadElectron, electronPackageDir, electronSqliteFor, findElectronBinary } from './start.js';

export const CONFIG = join(ROOT, 'electron-builder.yml');

/** The folder of an unpacked Electron (what electron-builder's `electronDist` takes), or why there is none. */
export async function resolveElectronDist({ env = process.env, electronDir = electronPackageDir(), download = downloadElectron } = {}) {
  if (env.DRYDOCK_ELECTRON_DIST) return { dist: env.DRYDOCK_ELECTRON_DIST };
  if (!electronDir) return { reason: 'the electron package is not installed (run npm install)' };
  let binary = findElectronBinary(electronDir, env);
  if (!binary && (await download(electronDir))) binary = findElectronBinary(electronDir, env);
  if (binary) return { dist: env.ELECTRON_OVERRIDE_DIST_PATH ?? join(electronDir, 'dist') };
  const version = createRequire(import.meta.url)(join(electronDir, 'package.json')).version;
  return {
    reason:
      `the Electron ${version} binary is not installed (${join(electronDir, 'dist')} is missing) and could not be downloaded from here. ` +
      'electron-builder packs that binary into the AppImage, .deb, dmg and installer, so there is nothing to package without it. ' +
      `Fix: on a machine with network access run \`node ${join('node_modules', 'electron', 'install.js')}\` (or \`npm start\` once), ` +
      `or point DRYDOCK_ELECTRON_DIST at an unpacked electron-v${version} for this platform, then run \`npm run dist\` again.`,
  };
}

/**
 * better-sqlite3 for the packed Electron (electron-builder.yml takes it from node_modules/.drydock
 * into resources/native): `{ file }`, or `{ reason }` why there is none. Built for this platform.
 */
export async function electronSqliteForDist(dist, { electronDir = electronPackageDir(), sqliteFor = electronSqliteFor } = {}) {
  const relative = readFileSync(join(electronDir, 'path.txt'), 'utf8').trim();
  return sqliteFor(join(dist, relative), { electronDir });
}

/** electron-builder's command line for `dist` (the platform's default targets unless flags are given). */
export function builderArgs(dist, extra = []) {
  return ['--config', CONFIG, '--publish', 'never', `--config.electronDist=${dist}`, ...extra];
}

async function main() {
  const extra = process.argv.slice(2);
  const electron = await resolveElectronDist();
  if (!electron.dist) {
    console.error(`npm run dist: cannot package Drydock: ${electron.reason}`);
    process.exit(1);
  }
  const sqlite = await electronSqliteForDist(electron.dist);
  if (!sqlite.file) {
    console.error(`npm run dist: cannot package Drydock: ${sqlite.reason}. The desktop app cannot open its database without it.`);
    process.exit(1);
  }
  ensureBuilt();
  const cli = join(dirname(createRequire(import.meta.url).resolve('electron-builder/package.json')), 'cli.js');
  const child = spawn(process.execPath, [cli, ...builderArgs(electron.dist, extra)], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
