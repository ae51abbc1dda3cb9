import type Database from 'better-sqlite3';

/** One numbered schema step. Numbers are never reused or edited once released. */
export interface Migration {
  version: number;
  name: string;
  up: string | ((db: Database.Database) => void);
}
