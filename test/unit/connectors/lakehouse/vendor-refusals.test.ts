import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LakehouseError } from '../../../../src-main/connectors/lakehouse';
import { failure, tempLakehouse, type TempLakehouse } from './fixtures';
import { METRIC_VIEW_REFUSALS } from './vendor-refusals';

// Each definition a workspace refuses goes through CREATE OR REPLACE VIEW … WITH METRICS on the
// emulator and must fail with the workspace's error: class, SQLSTATE and text, nothing written.
describe('lakehouse emulator refuses what Databricks refuses, with its error', () => {
  let lake: TempLakehouse;
  beforeAll(() => {
    lake = tempLakehouse();
  });
  afterAll(() => lake.cleanup());

  it('covers at least fifteen refusals', () => {
    expect(METRIC_VIEW_REFUSALS.length).toBeGreaterThanOrEqual(15);
  });

  METRIC_VIEW_REFUSALS.forEach((entry, index) => {
    it(`${entry.errorClass}: ${entry.rule}`, async () => {
      const name = `refused_${index}`;
      const error: LakehouseError = await failure(lake.connector.createOrReplaceMetricView('main', 'default', name, entry.yaml, {}, { replaceWithAlter: false }));
      expect(error).toMatchObject({ code: 'LAKEHOUSE_INVALID_DEFINITION', errorClass: entry.errorClass, sqlState: entry.sqlState, definitionWritten: false });
      expect(error.message).toBe(entry.message);
      expect(error.details.length).toBeGreaterThan(0);
      expect(lake.emulator.getObject('main', 'default', name)).toBeNull();
    });
  });

  it('RECURSIVE_VIEW: a metric view altered to read itself', async () => {
    await lake.connector.createOrReplaceMetricView('main', 'default', 'loop', 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: n\n    expr: COUNT(1)\n', {}, { replaceWithAlter: false });
    const error = await failure(
      lake.connector.createOrReplaceMetricView('main', 'default', 'loop', 'version: 1.1\nsource: main.default.loop\nmeasures:\n  - name: n\n    expr: COUNT(1)\n', {}, { replaceWithAlter: true }),
    );
    expect(error).toMatchObject({ errorClass: 'RECURSIVE_VIEW', sqlState: '42K0H' });
    expect(error.message).toBe('[RECURSIVE_VIEW] Recursive view `main`.`default`.`loop` detected (cycle: `main`.`default`.`loop` -> `main`.`default`.`loop`). SQLSTATE: 42K0H');
    expect(lake.emulator.getObject('main', 'default', 'loop')?.definition).toContain('source: main.default.orders');
  });

  it('reports the first problem as the workspace does and keeps every problem in the details', async () => {
    const yaml = 'version: 1.1\nsource: main.default.orders\nmeasures:\n  - name: a\n    expr: amount\n  - name: a\n    expr: SUM(amount)\n';
    const error = await failure(lake.connector.createOrReplaceMetricView('main', 'default', 'two_problems', yaml, {}, { replaceWithAlter: false }));
    expect(error.errorClass).toBe('MISSING_AGGREGATION');
    expect(error.details).toEqual([
      'measures[0] (a): a measure expression must use an aggregate function such as SUM or COUNT, got "amount"',
      'measures[1]: duplicate name "a" (first used by measures[0])',
    ]);
  });
});
