import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LakehouseError } from '../../../../src-main/connectors/lakehouse';
import { tempLakehouse, type TempLakehouse } from './fixtures';
import { METRIC_VIEW_CORPUS } from './vendor-corpus';

// Each documented definition goes through CREATE OR REPLACE VIEW … WITH METRICS on the emulator, as
// Drydock's own principal, and must get the verdict the vendor gives (a refusal naming the key).
describe('lakehouse emulator against the vendor-documented metric view grammar', () => {
  let lake: TempLakehouse;
  beforeAll(() => {
    lake = tempLakehouse();
  });
  afterAll(() => lake.cleanup());

  METRIC_VIEW_CORPUS.forEach((entry, index) => {
    const verdict = entry.verdict.accepted ? 'accepts' : 'refuses';
    it(`${verdict}: ${entry.rule}`, () => {
      const create = () => lake.emulator.createOrReplaceMetricView(lake.emulator.defaultPrincipal, 'main', 'default', `corpus_${index}`, entry.yaml, {});
      if (entry.verdict.accepted) {
        create();
        expect(lake.emulator.getObject('main', 'default', `corpus_${index}`)?.definition).toBe(entry.yaml);
        return;
      }
      let failure: unknown;
      try {
        create();
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(LakehouseError);
      expect((failure as LakehouseError).code).toBe('LAKEHOUSE_INVALID_DEFINITION');
      expect((failure as LakehouseError).errorClass).toBe(entry.verdict.errorClass);
      expect((failure as LakehouseError).message).toContain(entry.verdict.names);
      expect(lake.emulator.getObject('main', 'default', `corpus_${index}`)).toBeNull();
    });
  });
});
