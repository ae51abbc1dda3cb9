// How better-sqlite3 is loaded. Through `require`, not `import`: an ES module importing a CommonJS
// package makes Node scan the package's files for their exports (cjs-module-lexer) and build a
// module facade before running them, work `require` skips.
//
// Which compiled addon (issue 25): better-sqlite3 is not an N-API module, so its addon runs only in
// the runtime it was built for — Node 24 (module ABI 137) or Electron 45's Node (ABI 150). One build
// per runtime is kept side by side, and `process.versions.modules` picks one:
//   - Node (tests, `drydock serve`): the addon `npm install` built in the package, build/Release;
//   - Electron (the desktop app's service process): the build `npm start` obtained for Electron's
//     ABI, node_modules/.drydock/better-sqlite3-electron-v<abi>/ (scripts/electron-sqlite.js), or,
//     in a packaged app, resources/native/better-sqlite3-electron-v<abi>/ (electron-builder.yml).
// The Node build is never rebuilt for Electron in place: the tests and `drydock serve` need it as is.
// Giving the path also skips the `bindings` package's search (a stack trace read and a dozen
// candidate paths tried on disk, about 7 ms of a start).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

const requireCjs = createRequire(import.meta.url);

/** better-sqlite3's `Database` class. */
export const SqliteDatabase = requireCjs('better-sqlite3') as typeof BetterSqlite3;

export const ADDON = 'better_sqlite3.node';

/** The folder of the Electron build for a module ABI, under node_modules/.drydock or resources/native. */
export const electronBuildFolder = (abi: string): string => `better-sqlite3-electron-v${abi}`;

export interface SqliteRuntime {
  /** `process.versions.modules`: the module ABI of this runtime. */
  modules: string;
  /** `process.versions.electron`, in Electron's processes. */
  electron?: string;
}

/** No build of the addon for this runtime: says which ABI and where it was looked for. */
export class MissingSqliteBuildError extends Error {
  constructor(runtime: SqliteRuntime, tried: string[]) {
    super(
      `better-sqlite3 has no build for Electron ${runtime.electron} (module ABI ${runtime.modules}); looked in ${tried.join(', ')}. ` +
        'Run `npm start` once on a machine that can download it, or `npm run dist` to package it.',
    );
    this.name = 'MissingSqliteBuildError';
  }
}

/**
 * The addon for `runtime`, from better-sqlite3's package folder. Under Electron only an Electron
 * build of its ABI will do (loading the Node build would fail with a less telling ABI error); under
 * Node, the package's own build, or undefined to let better-sqlite3 search (a Debug build).
 */
export function chooseSqliteBinding(runtime: SqliteRuntime, packageDir: string, exists: (path: string) => boolean = existsSync): string | undefined {
  if (runtime.electron) {
    const folder = electronBuildFolder(runtime.modules);
    const asar = `${sep}app.asar${sep}`;
    const tried = packageDir.includes(asar)
      ? [join(packageDir.slice(0, packageDir.indexOf(asar)), 'native', folder, ADDON)]
      : [join(dirname(packageDir), '.drydock', folder, ADDON)];
    const found = tried.find((file) => exists(file));
    if (!found) throw new MissingSqliteBuildError(runtime, tried);
    return found;
  }
  const release = join(packageDir, 'build', 'Release', ADDON);
  return exists(release) ? release : undefined;
}

let chosen: { file: string | undefined } | null = null;

/** The addon to pass as `nativeBinding` in this process (chosen once). */
export function sqliteNativeBinding(): string | undefined {
  chosen ??= { file: chooseSqliteBinding(process.versions, dirname(requireCjs.resolve('better-sqlite3/package.json'))) };
  return chosen.file;
}
