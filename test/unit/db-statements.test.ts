import { describe, expect, it } from 'vitest';
import { cacheStatements, openDatabase } from '../../src-main/platform/db/connection';

describe('statement cache', () => {
  it('prepares each SQL text once and hands back the same statement', () => {
    const db = openDatabase(':memory:', { migrations: [], statementCache: 2 });
    const sql = 'SELECT 1 AS one';
    expect(db.prepare(sql)).toBe(db.prepare(sql));
    expect(db.prepare(sql).get()).toEqual({ one: 1 });
    db.close();
  });

  it('resets a reused statement to whole rows, whatever mode the last caller set', () => {
    const db = openDatabase(':memory:', { migrations: [] });
    cacheStatements(db, 10);
    const sql = 'SELECT 1 AS one, 2 AS two';
    expect(db.prepare(sql).pluck().get()).toBe(1);
    expect(db.prepare(sql).get()).toEqual({ one: 1, two: 2 });
    expect(db.prepare(sql).raw().get()).toEqual([1, 2]);
    expect(db.prepare(sql).get()).toEqual({ one: 1, two: 2 });
    db.close();
  });

  it('drops the least recently used statements past its size and prepares them again when needed', () => {
    const db = openDatabase(':memory:', { migrations: [], statementCache: 2 });
    const first = db.prepare('SELECT 1');
    db.prepare('SELECT 2');
    db.prepare('SELECT 3');
    const again = db.prepare('SELECT 1');
    expect(again).not.toBe(first);
    expect(again.pluck().get()).toBe(1);
    db.close();
  });
});
