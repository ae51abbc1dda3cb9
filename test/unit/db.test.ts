import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DatabaseTooNewError, openDatabase } from '../../src-main/platform/db/connection';
import { MIGRATIONS } from '../../src-main/platform/db/migrations';

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'dd-db-')), 'drydock.sqlite');
const latest = Math.max(...MIGRATIONS.map((m) => m.version));

describe('storage', () => {
  it('records the applied migrations in user_version', () => {
    const db = openDatabase(tempFile());
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    db.close();
  });

  it('opens in WAL mode with foreign keys and a busy timeout', () => {
    const db = openDatabase(tempFile());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    db.close();
  });

  it('applies pending migrations in one transaction: a failing step leaves the file untouched', () => {
    const file = tempFile();
    const broken = [
      { version: 1, name: 'ok', up: 'CREATE TABLE a (id INTEGER);' },
      { version: 2, name: 'bad', up: 'CREATE TABLE b (id INTEGER); THIS IS NOT SQL;' },
    ];
    expect(() => openDatabase(file, { migrations: broken })).toThrow();
    const raw = new Database(file);
    expect(raw.pragma('user_version', { simple: true })).toBe(0);
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()).toEqual([]);
    raw.close();
  });

  it('applies only the steps newer than user_version on reopen', () => {
    const file = tempFile();
    openDatabase(file, { migrations: [{ version: 1, name: 'a', up: 'CREATE TABLE a (id INTEGER);' }] }).close();
    const db = openDatabase(file, {
      migrations: [
        { version: 1, name: 'a', up: 'CREATE TABLE a (id INTEGER);' },
        { version: 2, name: 'b', up: 'CREATE TABLE b (id INTEGER);' },
      ],
    });
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });

  it('refuses a database written by a newer version with a clear message', () => {
    const file = tempFile();
    const raw = new Database(file);
    raw.pragma(`user_version = ${latest + 5}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(DatabaseTooNewError);
    expect(() => openDatabase(file)).toThrow(/newer Drydock/);
  });

  it('enforces foreign keys', () => {
    const db = openDatabase(tempFile());
    expect(() =>
      db.prepare("INSERT INTO api_keys (user_id, name, key_hash, key_prefix, created_at) VALUES (999, 'x', 'h', 'p', 'now')").run(),
    ).toThrow(/FOREIGN KEY/);
    db.close();
  });
});
