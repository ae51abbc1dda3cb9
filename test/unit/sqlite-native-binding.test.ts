// better-sqlite3 is given the path of its addon so a start skips the `bindings` search (start time,
// issue 10): if the package's layout changes, this fails instead of the start silently slowing down.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-main/platform/db/connection';
import { sqliteNativeBinding } from '../../src-main/platform/db/native-binding';

describe('better-sqlite3 addon path', () => {
  it('is the addon npm built inside the installed better-sqlite3 package', () => {
    const root = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
    expect(sqliteNativeBinding()).toBe(join(root, 'build', 'Release', 'better_sqlite3.node'));
  });

  it('loads the same addon `bindings` finds: a database opened either way reads the other one\'s writes', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'dd-addon-')), 'drydock.sqlite');
    const db = openDatabase(file, { migrations: [] });
    db.exec('CREATE TABLE t (v TEXT); INSERT INTO t VALUES (\'written\')');
    const other = new Database(file, { readonly: true });
    expect(other.prepare('SELECT v FROM t').pluck().get()).toBe('written');
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    other.close();
    db.close();
  });
});
