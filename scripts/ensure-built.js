#!/usr/bin/env node
// Builds Drydock (electron-vite) when `out/` is missing or older than its sources, so `npm start`
// and `npm run serve` work on a fresh clone without a separate build step.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the build produces; all must exist. */
export const OUTPUTS = ['out/main/index.js', 'out/main/service-process.js', 'out/main/cli.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
/** What the build reads. */
export const SOURCES = [
  'src-main',
  'src-renderer',
  'src-shared',
  'electron.vite.config.ts',
  'package.json',
  'tsconfig.json',
  // Build plugins (see electron.vite.config.ts).
  'scripts/ascii.js',
  'scripts/contract-snapshot.js',
];

/** Newest modification time under `path` (a file or a folder, recursively), or 0 if absent. */
export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** Why a build is needed (`null` when `out/` is complete and newer than every source). */
export function buildReason(root = ROOT) {
  const missing = OUTPUTS.find((file) => !existsSync(join(root, file)));
  if (missing) return `${missing} is missing`;
  const oldestOutput = Math.min(...OUTPUTS.map((file) => statSync(join(root, file)).mtimeMs));
  const changed = SOURCES.find((source) => newestMtime(join(root, source)) > oldestOutput);
  return changed ? `${changed} changed since the last build` : null;
}

/** Runs the build if needed; throws if it fails. Returns whether it built. */
export function ensureBuilt(root = ROOT, log = console.log) {
  const reason = buildReason(root);
  if (!reason) return false;
  log(`Building Drydock (${reason})…`);
  const cli = join(dirname(createRequire(import.meta.url).resolve('electron-vite/package.json')), 'bin', 'electron-vite.js');
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`The build failed (electron-vite exited with ${result.status}); run \`npm run build\` to see why.`);
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    ensureBuilt();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
