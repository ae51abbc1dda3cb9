// Drydock's tables of enumerated values (src-shared/model/normalize/keys.ts) are the platform
// validator's: each is compared with the enumeration the validator's Joi schema describes for the
// key (platform-values.ts), so a platform release that adds or drops a value fails here first.
import { describe, expect, it } from 'vitest';
import * as K from '../../src-shared/model/normalize/keys';
import { ROW_LEVEL_FILTER_OPERATORS } from '../../src-shared/model/normalize/shapes';
import { camelToSnake } from './keys';
import { platformEnum, platformValueRules } from './platform-values';

/** Platform path and key → Drydock's set; `snake` when Drydock reads camelCase values as snake_case. */
const ENUMERATIONS: { path: string; key: string; drydock: ReadonlySet<string>; snake?: boolean }[] = [
  { path: 'cube.dimensions.*', key: 'type', drydock: K.DIMENSION_TYPES },
  { path: 'cube.measures.*', key: 'type', drydock: new Set([...K.MEASURE_TYPES, ...K.MULTI_STAGE_ONLY_TYPES]), snake: true },
  { path: 'cube.joins[]', key: 'relationship', drydock: new Set(K.RELATIONSHIPS.keys()), snake: true },
  { path: 'cube.preAggregations.*', key: 'type', drydock: K.PRE_AGGREGATION_TYPES, snake: true },
  { path: 'cube.measures.*.rollingWindow', key: 'type', drydock: K.ROLLING_WINDOW_TYPES },
  { path: 'cube.dimensions.*', key: 'order', drydock: K.DIMENSION_ORDERS },
  { path: 'cube.dimensions.*', key: 'fieldType', drydock: K.FIELD_TYPES },
  { path: 'cube.preAggregations.*', key: 'streamOffset', drydock: K.STREAM_OFFSETS },
  { path: 'cube.preAggregations.*', key: 'partitionGranularity', drydock: K.PARTITION_GRANULARITIES },
  { path: 'cube.preAggregations.*.indexes.*', key: 'type', drydock: K.INDEX_TYPES },
  { path: 'cube.dimensions.*.timeShift[]', key: 'type', drydock: K.TIME_SHIFT_TYPES },
  { path: 'cube.measures.*.timeShift[]', key: 'type', drydock: K.TIME_SHIFT_TYPES },
  { path: 'cube.measures.*.orderBy[]', key: 'dir', drydock: K.ORDER_DIRECTIONS },
  { path: 'cube.dimensions.*.links[]', key: 'target', drydock: K.LINK_TARGETS },
  { path: 'cube.dimensions.*.filter', key: 'mode', drydock: K.FILTER_MODES },
  { path: 'cube.measures.*.filter', key: 'mode', drydock: K.FILTER_MODES },
  { path: 'cube.accessPolicy[].rowLevel.filters[]', key: 'operator', drydock: ROW_LEVEL_FILTER_OPERATORS },
];

describe("Drydock's enumerations are the platform validator's", () => {
  for (const e of ENUMERATIONS) {
    it(`${e.path}.${e.key}`, () => {
      const platform = platformEnum(e.path, e.key).map((v) => (e.snake ? camelToSnake(v) : v));
      expect(new Set(e.drydock), `Drydock's values for ${e.path}.${e.key}`).toEqual(new Set(platform));
    });
  }

  it('the granularity interval and offset grammars are the validator patterns', () => {
    const rules = platformValueRules().keys;
    for (const sample of ['1 year', '2 weeks', '1 year 6 months', '15 minutes', '2 fortnights', '1-day', 'week']) {
      const platform = rules.find((k) => k.path === 'cube.dimensions.*.granularities.*' && k.key === 'interval')!.patterns.every((p) => p.test(sample));
      expect(K.GRANULARITY_INTERVAL.test(sample), sample).toBe(platform);
    }
    for (const sample of ['1 month', '-2 days', '1 year -3 months', 'soon', '1-day']) {
      const platform = rules.find((k) => k.path === 'cube.dimensions.*.granularities.*' && k.key === 'offset')!.patterns.every((p) => p.test(sample));
      expect(K.GRANULARITY_OFFSET.test(sample), sample).toBe(platform);
    }
  });
});
