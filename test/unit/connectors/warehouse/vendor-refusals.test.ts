import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warehouseSelectSql, type EmulatorSession, type WarehouseEmulator } from '../../../../src-main/connectors/warehouse';
import { memoryEmulator, warehouseError } from './fixtures';
import { SEMANTIC_VIEW_REFUSALS } from './vendor-refusals';

// Each statement a Snowflake account refuses runs on the emulator and must fail with the account's
// error: code, error number, SQLSTATE and the exact text; a refused CREATE leaves nothing behind.
describe('warehouse emulator refuses what Snowflake refuses, with its error', () => {
  let emulator: WarehouseEmulator;
  let session: EmulatorSession;
  beforeAll(() => {
    emulator = memoryEmulator();
    session = emulator.openSession();
  });
  afterAll(() => emulator.close());

  it('covers at least fifteen refusals', () => {
    expect(SEMANTIC_VIEW_REFUSALS.length).toBeGreaterThanOrEqual(15);
  });

  for (const entry of SEMANTIC_VIEW_REFUSALS) {
    it(`${entry.vendorCode ?? entry.code}: ${entry.rule}`, () => {
      for (const statement of entry.setup ?? []) session.execute(statement);
      const created = /SEMANTIC VIEW (\w+)/.exec(entry.sql)?.[1];
      const before = created ? session.execute(`SHOW SEMANTIC VIEWS LIKE '${created}'`).rows.length : 0;
      // A query over a semantic view is compiled as the connector's query() compiles it.
      const run = entry.sql.startsWith('SELECT') ? () => warehouseSelectSql(emulator, session.context, entry.sql) : () => session.execute(entry.sql);
      const error = warehouseError(run);
      expect({ code: error.code, vendorCode: error.vendorCode, sqlState: error.sqlState }).toEqual({ code: entry.code, vendorCode: entry.vendorCode, sqlState: entry.sqlState });
      expect(error.message).toBe(entry.message);
      if (created) expect(session.execute(`SHOW SEMANTIC VIEWS LIKE '${created}'`).rows).toHaveLength(before);
    });
  }
});
