// How better-sqlite3 is loaded (start time, issue 10). Through `require`, not `import`: an ES module
// importing a CommonJS package makes Node scan the package's files for their exports (cjs-module-lexer)
// and build a module facade before running them, work `require` skips.
// Where its compiled addon is: without a path, better-sqlite3 asks the `bindings` package, which reads a stack trace to find the package and then tries a dozen
// candidate paths on disk: about 7 ms of a start's CPU (measured: require + open, 8 runs each,
// 31 ms median with `bindings`, 24 ms with the path given). The path is where `npm install` builds it
// (node-gyp's Release folder), found from the package's own location, so it holds in a clone, in
// the tests, and in the packaged app (electron-builder unpacks better-sqlite3 beside app.asar).
// If the file is not there (a Debug build, another layout), undefined lets `bindings` search as before.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

const requireCjs = createRequire(import.meta.url);

/** better-sqlite3's `Database` class. */
export const SqliteDatabase = requireCjs('better-sqlite3') as typeof BetterSqlite3;

let found: string | null | undefined;

/** The path of better_sqlite3.node to pass as `nativeBinding`, or undefined to let better-sqlite3 search. */
export function sqliteNativeBinding(): string | undefined {
  if (found === undefined) found = locate();
  return found ?? undefined;
}

function locate(): string | null {
  try {
    const root = dirname(requireCjs.resolve('better-sqlite3/package.json'));
    const file = join(root, 'build', 'Release', 'better_sqlite3.node');
    // Inside an asar archive the addon is loaded from its unpacked copy (asarUnpack in electron-builder.yml).
    const unpacked = file.replace(`${sep}app.asar${sep}`, `${sep}app.asar.unpacked${sep}`);
    if (unpacked !== file && existsSync(unpacked)) return unpacked;
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}
