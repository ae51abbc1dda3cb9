import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DescribeRow, EmulatorSession, WarehouseEmulator } from '../../../../src-main/connectors/warehouse';
import { memoryEmulator, warehouseError } from './fixtures';
import { SEMANTIC_VIEW_CORPUS } from './vendor-corpus';

// Each documented statement runs on the emulator and must get the vendor's verdict. What is
// accepted must also survive DESCRIBE and GET_DDL: the printed DDL runs again and describes the same.
describe('warehouse emulator against the vendor-documented CREATE SEMANTIC VIEW grammar', () => {
  let emulator: WarehouseEmulator;
  let session: EmulatorSession;
  beforeAll(() => {
    emulator = memoryEmulator();
    session = emulator.openSession();
  });
  afterAll(() => emulator.close());

  const describeView = (name: string) => session.execute(`DESCRIBE SEMANTIC VIEW ${name}`).rows as unknown as DescribeRow[];
  const ddlOf = (name: string) => Object.values(session.execute(`SELECT GET_DDL('SEMANTIC_VIEW', '${name}')`).rows[0]!)[0] as string;

  for (const entry of SEMANTIC_VIEW_CORPUS) {
    const name = /SEMANTIC VIEW (?:IF NOT EXISTS )?(\w+)/.exec(entry.sql)![1]!;
    it(`${entry.verdict.accepted ? 'accepts' : 'refuses'}: ${entry.rule}`, () => {
      if (entry.verdict.accepted) {
        session.execute(entry.sql);
        const described = describeView(name);
        session.execute(ddlOf(name));
        expect(describeView(name)).toEqual(described);
        return;
      }
      const error = warehouseError(() => session.execute(entry.sql));
      expect(error.code).toBe(entry.verdict.code);
      expect(error.message).toContain(entry.verdict.message);
    });
  }

  it('keeps derived metrics, window metrics and the instruction clauses in DESCRIBE and GET_DDL', () => {
    const rows = [...describeView('C_DERIVED'), ...describeView('C_WINDOW'), ...describeView('C_AI')];
    const derived = rows.filter((r) => r.object_name === 'REVENUE_PER_ORDER');
    expect(derived).toContainEqual({ object_kind: 'METRIC', object_name: 'REVENUE_PER_ORDER', parent_entity: null, property: 'EXPRESSION', property_value: 'line_items.revenue / orders.order_count' });
    expect(derived.some((r) => r.property === 'TABLE')).toBe(false);
    expect(rows).toContainEqual(expect.objectContaining({ object_name: 'AVG_7_DAYS', property: 'EXPRESSION', property_value: expect.stringMatching(/^AVG\(orders\.order_count\) OVER \(PARTITION BY EXCLUDING orders\.day/) }));
    expect(rows).toContainEqual({ object_kind: null, object_name: null, parent_entity: null, property: 'AI_SQL_GENERATION', property_value: 'Round revenue to two decimals and always filter out test customers.' });
    expect(rows).toContainEqual({ object_kind: null, object_name: null, parent_entity: null, property: 'AI_QUESTION_CATEGORIZATION', property_value: 'Questions about inventory are out of scope: say so.' });
    expect(ddlOf('C_DERIVED')).toContain('\t\tREVENUE_PER_ORDER as line_items.revenue / orders.order_count');
    expect(ddlOf('C_AI')).toMatch(/comment='Orders'\n\tai_sql_generation 'Round revenue[^']*'\n\tai_question_categorization 'Questions about inventory[^']*';$/);
  });
});
