// better-sqlite3 is not N-API: its addon loads only in the runtime it was built for (issue 25). One
// build per runtime is kept side by side and the process's module ABI picks one
// (src-main/platform/db/native-binding.ts); the path is given, so a start skips the `bindings` search.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-main/platform/db/connection';
import { chooseSqliteBinding, MissingSqliteBuildError, sqliteNativeBinding } from '../../src-main/platform/db/native-binding';

const packageDir = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));

describe('which better-sqlite3 addon a process loads', () => {
  const dev = '/home/u/drydock/node_modules/better-sqlite3';
  const packaged = '/opt/Drydock/resources/app.asar/node_modules/better-sqlite3';
  const only = (...files: string[]) => (path: string) => files.includes(path);

  it('Node takes the build npm made in the package (build/Release)', () => {
    const release = `${dev}/build/Release/better_sqlite3.node`;
    expect(chooseSqliteBinding({ modules: '137' }, dev, only(release))).toBe(release);
  });

  it("Electron takes the build for its own ABI from node_modules/.drydock, never the Node build", () => {
    const release = `${dev}/build/Release/better_sqlite3.node`;
    const electron150 = '/home/u/drydock/node_modules/.drydock/better-sqlite3-electron-v150/better_sqlite3.node';
    const electron145 = '/home/u/drydock/node_modules/.drydock/better-sqlite3-electron-v145/better_sqlite3.node';
    expect(chooseSqliteBinding({ modules: '150', electron: '45.4.1' }, dev, only(release, electron145, electron150))).toBe(electron150);
  });

  it('a packaged app takes the Electron build from resources/native, outside the asar archive', () => {
    const file = '/opt/Drydock/resources/native/better-sqlite3-electron-v150/better_sqlite3.node';
    expect(chooseSqliteBinding({ modules: '150', electron: '45.4.1' }, packaged, only(file))).toBe(file);
  });

  it('Electron without a build of its ABI fails with a message naming the ABI and where it looked', () => {
    const release = `${dev}/build/Release/better_sqlite3.node`;
    const wrongAbi = '/home/u/drydock/node_modules/.drydock/better-sqlite3-electron-v145/better_sqlite3.node';
    const choose = () => chooseSqliteBinding({ modules: '150', electron: '45.4.1' }, dev, only(release, wrongAbi));
    expect(choose).toThrow(MissingSqliteBuildError);
    expect(choose).toThrow(/Electron 45\.4\.1 \(module ABI 150\); looked in \/home\/u\/drydock\/node_modules\/\.drydock\/better-sqlite3-electron-v150\/better_sqlite3\.node/);
  });

  it('Node without its build lets better-sqlite3 search (a Debug build)', () => {
    expect(chooseSqliteBinding({ modules: '137' }, dev, only())).toBeUndefined();
  });

  it('this Node process takes the Release build of the installed package', () => {
    expect(process.versions.electron).toBeUndefined();
    expect(sqliteNativeBinding()).toBe(join(packageDir, 'build', 'Release', 'better_sqlite3.node'));
  });

  it("loads the same addon `bindings` finds: a database opened either way reads the other one's writes", () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dd-addon-')), 'drydock.sqlite');
    const db = openDatabase(file, { migrations: [] });
    db.exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('written')");
    const other = new Database(file, { readonly: true });
    expect(other.prepare('SELECT v FROM t').pluck().get()).toBe('written');
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    other.close();
    db.close();
  });
});
