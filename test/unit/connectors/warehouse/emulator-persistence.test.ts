import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseTooNewError } from '../../../../src-main/platform/db/connection';
import { WAREHOUSE_EMULATOR_MIGRATIONS } from '../../../../src-main/connectors/warehouse/emulator/migrations';
import { WarehouseEmulator } from '../../../../src-main/connectors/warehouse';
import { ordersView, SALES_DDL, seedSalesTables, tempDir } from './fixtures';

let dir: string;
let cleanup: () => void;
let file: string;

beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  file = join(dir, 'emulators', 'warehouse.sqlite');
});
afterEach(() => cleanup());

describe('the emulator file', () => {
  it('keeps semantic views, helper views, tables, grants and settings across reopening', () => {
    const first = new WarehouseEmulator({ file });
    seedSalesTables(first);
    const session = first.openSession();
    session.execute(SALES_DDL);
    session.execute('CREATE VIEW MODEL_SV_SRC_NATIONS AS SELECT * FROM nations');
    const describe = session.execute('DESCRIBE SEMANTIC VIEW SALES_SV').rows;
    const ddl = session.execute("SELECT GET_DDL('SEMANTIC_VIEW', 'SALES_SV')").rows;
    first.revoke('DRYDOCK', 'CREATE VIEW', { type: 'SCHEMA', database: 'ANALYTICS', schema: 'PUBLIC' });
    first.setQuotedIdentifiersIgnoreCase(true);
    first.setDdlEnabled(false);
    first.close();

    const second = new WarehouseEmulator({ file });
    const again = second.openSession();
    expect(again.execute('SHOW SEMANTIC VIEWS').rows.map((r) => r.name)).toEqual(['SALES_SV']);
    expect(again.execute('DESCRIBE SEMANTIC VIEW SALES_SV').rows).toEqual(describe);
    expect(again.execute("SELECT GET_DDL('SEMANTIC_VIEW', 'SALES_SV')").rows).toEqual(ddl);
    expect(second.describeTable('ANALYTICS', 'PUBLIC', 'MODEL_SV_SRC_NATIONS')?.map((c) => c.name)).toEqual(['N_NATIONKEY', 'N_NAME']);
    expect(second.quotedIdentifiersIgnoreCase()).toBe(true);
    expect(second.isDdlEnabled()).toBe(false);
    // The seed runs once: the revoked grant stays revoked.
    expect(second.listGrants('DRYDOCK').some((g) => g.privilege === 'CREATE VIEW')).toBe(false);
    second.close();
  });

  it('ignores a different seed when reopening an existing file', () => {
    new WarehouseEmulator({ file, seed: { role: 'FIRST' } }).close();
    const reopened = new WarehouseEmulator({ file, seed: { role: 'SECOND' } });
    expect(reopened.seed.role).toBe('FIRST');
    expect(() => reopened.openSession({ role: 'SECOND' })).toThrow(/does not exist/);
    reopened.close();
  });

  it('is a WAL database at the latest migration version', () => {
    new WarehouseEmulator({ file }).close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(Math.max(...WAREHOUSE_EMULATOR_MIGRATIONS.map((m) => m.version)));
    raw.close();
  });

  it('refuses a file written by a newer Drydock', () => {
    new WarehouseEmulator({ file }).close();
    const raw = new Database(file);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => new WarehouseEmulator({ file })).toThrow(DatabaseTooNewError);
  });

  it('shares one catalog between two emulators on the same file', () => {
    const writer = new WarehouseEmulator({ file });
    const reader = new WarehouseEmulator({ file });
    seedSalesTables(writer);
    writer.openSession().execute(ordersView('SHARED'));
    expect(reader.openSession().execute('SHOW SEMANTIC VIEWS').rows.map((r) => r.name)).toEqual(['SHARED']);
    writer.close();
    reader.close();
  });

  it('writes nothing when a statement fails', () => {
    const emulator = new WarehouseEmulator({ file });
    seedSalesTables(emulator);
    const session = emulator.openSession();
    expect(() => session.execute(ordersView('BROKEN', 'METRICS (orders.m AS o_orderkey)'))).toThrow();
    emulator.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT COUNT(*) AS n FROM semantic_views').get()).toEqual({ n: 0 });
    raw.close();
  });
});
