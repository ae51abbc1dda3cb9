import { describe, expect, it } from 'vitest';
import { DiagnosticCodes as C } from '../../../src-shared/model';
import { modelMeta } from '../../../src-shared/model/query';
import { base, compile, errors, ORDERS, withCode } from './helpers';

// Values the platform's validator enumerates, and keys it requires together (issue 27): each case
// writes one value outside the enumeration into the valid base project and expects one
// MODEL_VALUE_NOT_ALLOWED naming the file, the member, the value and the allowed values; the
// same key with an allowed value compiles.

const DIMENSION = '      - name: status\n        sql: status\n        type: string\n';
const MEASURE = '      - name: total\n        sql: amount\n        type: sum\n';

interface Case {
  rule: string;
  /** Inserted after the status dimension, the total measure, or at the end of the cube. */
  at: 'dimension' | 'measure' | 'cube';
  bad: string;
  good: string;
  value: string;
  allowed: string;
  member: string;
}

const CASES: Case[] = [
  { rule: "a dimension's order is asc or desc", at: 'dimension', bad: '        order: up\n', good: '        order: desc\n', value: "'up'", allowed: 'asc, desc', member: 'orders.status' },
  { rule: "a dimension's field_type is string", at: 'dimension', bad: '        field_type: number\n', good: '        field_type: string\n', value: "'number'", allowed: 'string', member: 'orders.status' },
  {
    rule: "a link's target is blank or self",
    at: 'dimension',
    bad: '        links:\n          - name: l\n            label: L\n            url: "{CUBE}.status"\n            target: top\n',
    good: '        links:\n          - name: l\n            label: L\n            url: "{CUBE}.status"\n            target: self\n',
    value: "'top'",
    allowed: 'blank, self',
    member: 'orders.status',
  },
  {
    rule: "a time_shift's type is next or prior",
    at: 'measure',
    bad: '        multi_stage: true\n        time_shift:\n          - time_dimension: created_at\n            interval: 1 year\n            type: later\n',
    good: '        multi_stage: true\n        time_shift:\n          - time_dimension: created_at\n            interval: 1 year\n            type: prior\n',
    value: "'later'",
    allowed: 'next, prior',
    member: 'orders.total',
  },
  {
    rule: "an order_by's dir is asc or desc",
    at: 'measure',
    bad: '        multi_stage: true\n        order_by:\n          - sql: "{CUBE.status}"\n            dir: up\n',
    good: '        multi_stage: true\n        order_by:\n          - sql: "{CUBE.status}"\n            dir: asc\n',
    value: "'up'",
    allowed: 'asc, desc',
    member: 'orders.total',
  },
  {
    rule: "a filter's mode is relative or fixed",
    at: 'measure',
    bad: '        multi_stage: true\n        filter:\n          mode: loose\n',
    good: '        multi_stage: true\n        filter:\n          mode: fixed\n',
    value: "'loose'",
    allowed: 'relative, fixed',
    member: 'orders.total',
  },
  {
    rule: "a pre-aggregation's stream_offset is earliest or latest",
    at: 'cube',
    bad: '    pre_aggregations:\n      - name: main\n        measures: [CUBE.count]\n        stream_offset: middle\n',
    good: '    pre_aggregations:\n      - name: main\n        measures: [CUBE.count]\n        stream_offset: latest\n',
    value: "'middle'",
    allowed: 'earliest, latest',
    member: 'orders.main',
  },
  {
    rule: "a pre-aggregation's partition_granularity is hour to year",
    at: 'cube',
    bad: '    pre_aggregations:\n      - name: main\n        measures: [CUBE.count]\n        time_dimension: CUBE.created_at\n        granularity: day\n        partition_granularity: decade\n',
    good: '    pre_aggregations:\n      - name: main\n        measures: [CUBE.count]\n        time_dimension: CUBE.created_at\n        granularity: day\n        partition_granularity: month\n',
    value: "'decade'",
    allowed: 'hour, day, week, month, quarter, year',
    member: 'orders.main',
  },
  {
    rule: "an index's type is regular or aggregate",
    at: 'cube',
    bad: '    pre_aggregations:\n      - name: main\n        measures: [CUBE.count]\n        dimensions: [CUBE.status]\n        indexes:\n          - name: i\n            columns: [CUBE.status]\n            type: hash\n',
    good: '    pre_aggregations:\n      - name: main\n        measures: [CUBE.count]\n        dimensions: [CUBE.status]\n        indexes:\n          - name: i\n            columns: [CUBE.status]\n            type: aggregate\n',
    value: "'hash'",
    allowed: 'regular, aggregate',
    member: 'orders.main',
  },
];

function withOrders(text: string, at: Case['at']): Record<string, string> {
  const cube = at === 'dimension' ? ORDERS.replace(DIMENSION, DIMENSION + text) : at === 'measure' ? ORDERS.replace(MEASURE, MEASURE + text) : ORDERS + text;
  return base({ 'model/cubes/orders.yml': cube });
}

describe('values outside what the platform validator enumerates are refused', () => {
  for (const c of CASES) {
    it(c.rule, () => {
      const found = errors(compile(withOrders(c.bad, c.at)));
      expect(found.map((d) => [d.code, d.file, d.member])).toEqual([[C.VALUE_NOT_ALLOWED, 'model/cubes/orders.yml', c.member]]);
      expect(found[0]!.message).toContain(c.value);
      expect(found[0]!.message).toContain(`expected one of ${c.allowed}`);
      expect(errors(compile(withOrders(c.good, c.at)))).toEqual([]);
    });
  }

  it('a rolling window type is spelled in snake_case, as the platform validator lists it, in JavaScript too', () => {
    const js = 'cube("orders", { sqlTable: "shop.orders", dimensions: { id: { sql: `id`, type: "number", primaryKey: true }, created_at: { sql: `created_at`, type: "time" } },\n' +
      '  measures: { total: { sql: `amount`, type: "sum", rollingWindow: { type: "yearToDate" } }, ytd: { sql: `amount`, type: "sum", rollingWindow: { type: "year_to_date" } } } });\n';
    const found = errors(compile({ 'model/orders.js': js }));
    expect(found.map((d) => [d.code, d.member])).toEqual([[C.INVALID_ROLLING_WINDOW, 'orders.total']]);
  });
});

interface FormCase {
  rule: string;
  at: Case['at'];
  bad: string;
  good: string;
  code: string;
  says: string;
  member: string;
}

const PA = '    pre_aggregations:\n      - name: main\n';
const TIME = '        time_dimension: CUBE.created_at\n';

/** Forms, shapes and relations of the platform's validator: one broken, one kept. */
const FORM_CASES: FormCase[] = [
  { rule: "a rollup's time_dimension needs a granularity", at: 'cube', bad: `${PA}        measures: [CUBE.count]\n${TIME}`, good: `${PA}        measures: [CUBE.count]\n${TIME}        granularity: day\n`, code: C.COMPANION_REQUIRED, says: "without 'granularity'", member: 'orders.main' },
  { rule: "a rollup's granularity needs a time_dimension", at: 'cube', bad: `${PA}        measures: [CUBE.count]\n        granularity: day\n`, good: `${PA}        measures: [CUBE.count]\n`, code: C.COMPANION_REQUIRED, says: "without 'time_dimension'", member: 'orders.main' },
  { rule: 'an original_sql pre-aggregation takes no measures', at: 'cube', bad: `${PA}        type: original_sql\n        measures: [CUBE.count]\n`, good: `${PA}        type: original_sql\n`, code: C.KEY_NOT_ALLOWED, says: "'measures' is not allowed", member: 'orders.main' },
  { rule: 'a rollup_lambda pre-aggregation needs rollups', at: 'cube', bad: `${PA}        type: rollup_lambda\n`, good: `${PA}        type: rollup_lambda\n        rollups: [CUBE.main2]\n      - name: main2\n        measures: [CUBE.count]\n`, code: C.MISSING_PROPERTY, says: "Missing 'rollups'", member: 'orders.main' },
  { rule: 'an auto_rollup max_pre_aggregations is a number', at: 'cube', bad: `${PA}        type: auto_rollup\n        max_pre_aggregations: many\n`, good: `${PA}        type: auto_rollup\n        max_pre_aggregations: 3\n`, code: C.INVALID_VALUE, says: 'must be a number', member: 'orders.main' },
  { rule: 'a build range needs sql', at: 'cube', bad: `${PA}        measures: [CUBE.count]\n        build_range_start:\n          every: 1 day\n`, good: `${PA}        measures: [CUBE.count]\n        build_range_start:\n          sql: SELECT NOW()\n`, code: C.MISSING_PROPERTY, says: "Missing 'sql' in a build or refresh range", member: 'orders.main' },
  { rule: "a pre-aggregation refresh_key's update_window is an interval", at: 'cube', bad: `${PA}        measures: [CUBE.count]\n        refresh_key:\n          every: 1 hour\n          update_window: soon\n`, good: `${PA}        measures: [CUBE.count]\n        refresh_key:\n          every: 1 hour\n          update_window: 2 days\n`, code: C.INVALID_VALUE, says: "'update_window'", member: 'orders.main' },
  { rule: "a cube refresh_key's immutable stands alone", at: 'cube', bad: '    refresh_key:\n      every: 1 hour\n      immutable: true\n', good: '    refresh_key:\n      immutable: true\n', code: C.INVALID_VALUE, says: 'use immutable alone', member: 'orders' },
  { rule: 'a numeric measure takes an ISO 4217 currency', at: 'measure', bad: '        currency: dollars\n', good: '        currency: eur\n', code: C.VALUE_NOT_ALLOWED, says: "'dollars'; expected a 3-letter ISO 4217 code", member: 'orders.total' },
  { rule: 'a string dimension takes no currency', at: 'dimension', bad: '        currency: USD\n', good: '', code: C.KEY_NOT_ALLOWED, says: 'only allowed on dimensions of type number', member: 'orders.status' },
  { rule: 'a dimension takes multi_stage only as true', at: 'dimension', bad: '        multi_stage: false\n', good: '', code: C.VALUE_NOT_ALLOWED, says: 'takes only true', member: 'orders.status' },
  { rule: 'a measure takes case only with multi_stage', at: 'measure', bad: '        case:\n          when:\n            - sql: "1 = 1"\n              label: a\n          else:\n            label: b\n', good: '', code: C.KEY_NOT_ALLOWED, says: "'case' is only allowed on measures with multi_stage: true", member: 'orders.total' },
  { rule: 'a drill filter needs sql', at: 'measure', bad: '        drill_filters:\n          - x: 1\n', good: '        drill_filters:\n          - sql: "{CUBE}.amount > 0"\n', code: C.MISSING_PROPERTY, says: "Missing 'sql' in a drill filter", member: 'orders.total' },
  { rule: 'a mask is a map with sql or a plain value', at: 'dimension', bad: '        mask: [1]\n', good: '        mask: 0\n', code: C.INVALID_VALUE, says: "'mask'", member: 'orders.status' },
  { rule: 'a link needs a label', at: 'dimension', bad: '        links:\n          - name: l\n            url: "{CUBE}.status"\n', good: '        links:\n          - name: l\n            label: L\n            url: "{CUBE}.status"\n', code: C.MISSING_PROPERTY, says: "Missing 'label' in a link", member: 'orders.status' },
  { rule: 'a link has url or dashboard, not both', at: 'dimension', bad: '        links:\n          - name: l\n            label: L\n            url: "{CUBE}.status"\n            dashboard: d\n', good: '        links:\n          - name: l\n            label: L\n            dashboard: d\n', code: C.INVALID_VALUE, says: 'sets url and dashboard', member: 'orders.status' },
  { rule: "a link's name is an identifier", at: 'dimension', bad: '        links:\n          - name: 1l\n            label: L\n            url: "{CUBE}.status"\n', good: '', code: C.INVALID_VALUE, says: "'1l'", member: 'orders.status' },
];

describe("forms and relations of the platform validator's schemas", () => {
  for (const c of FORM_CASES) {
    it(c.rule, () => {
      const found = errors(compile(withOrders(c.bad, c.at)));
      expect(found.map((d) => [d.code, d.file, d.member])).toEqual([[c.code, 'model/cubes/orders.yml', c.member]]);
      expect(found[0]!.message).toContain(c.says);
      expect(errors(compile(withOrders(c.good, c.at)))).toEqual([]);
    });
  }

  it('a granularity sets origin or offset, not both; one written with sql is named after a predefined granularity', () => {
    const cube = (g: string) => base({ 'model/cubes/orders.yml': ORDERS.replace('        type: time\n', `        type: time\n        granularities:\n${g}`) });
    const both = errors(compile(cube('          - name: g\n            interval: 1 week\n            origin: "2024-01-01"\n            offset: 1 day\n')));
    expect(both.map((d) => [d.code, d.member])).toEqual([[C.INVALID_GRANULARITY, 'orders.created_at']]);
    const sqlNamed = errors(compile(cube('          - name: g\n            sql: "{CUBE}.created_at"\n')));
    expect(sqlNamed.map((d) => d.code)).toEqual([C.INVALID_GRANULARITY]);
    expect(sqlNamed[0]!.message).toContain("define 'g' with 'interval' instead");
    expect(errors(compile(cube('          - name: week\n            sql: "{CUBE}.created_at"\n')))).toEqual([]);
  });

  it('a fixed rolling window with neither trailing nor leading is a warning, as the platform accepts it', () => {
    const result = compile(withOrders('        rolling_window:\n          type: fixed\n', 'measure'));
    expect(errors(result)).toEqual([]);
    expect(withCode(result, C.INVALID_ROLLING_WINDOW).map((d) => d.severity)).toEqual(['warning']);
  });
});

describe('access policy keys the platform validator requires together', () => {
  const policy = (text: string) => base({ 'model/cubes/orders.yml': `${ORDERS}    access_policy:\n      - group: analysts\n${text}` });

  it('member_masking needs member_level', () => {
    const found = errors(compile(policy('        member_masking:\n          includes: "*"\n')));
    expect(found.map((d) => [d.code, d.member, d.line])).toEqual([[C.COMPANION_REQUIRED, 'orders', 27]]);
    expect(found[0]!.message).toContain('member_level');
    expect(errors(compile(policy('        member_level:\n          includes: "*"\n        member_masking:\n          includes: "*"\n')))).toEqual([]);
  });

  it('groups is a list, member_level includes a list or "*", a condition needs if', () => {
    expect(errors(compile(base({ 'model/cubes/orders.yml': `${ORDERS}    access_policy:\n      - groups: analysts\n` }))).map((d) => d.code)).toEqual([C.INVALID_VALUE]);
    expect(errors(compile(policy('        member_level:\n          includes: all\n'))).map((d) => d.code)).toEqual([C.INVALID_VALUE]);
    expect(errors(compile(policy('        member_level:\n          includes: [1]\n'))).map((d) => d.code)).toEqual([C.INVALID_VALUE]);
    expect(errors(compile(policy('        conditions:\n          - when: x\n'))).map((d) => d.code)).toContain(C.MISSING_PROPERTY);
  });

  it('a row-level filter has member, an allowed operator and values (none only for set and notSet), or one of or/and', () => {
    const filters = (text: string) => errors(compile(policy(`        row_level:\n          filters:\n${text}`))).map((d) => d.code);
    expect(filters('            - member: id\n              operator: near\n              values: ["1"]\n')).toEqual([C.VALUE_NOT_ALLOWED]);
    expect(filters('            - member: id\n              operator: equals\n')).toEqual([C.MISSING_PROPERTY]);
    expect(filters('            - operator: set\n')).toEqual([C.MISSING_PROPERTY]);
    expect(filters('            - or:\n                - member: id\n                  operator: set\n              and:\n                - member: id\n                  operator: set\n')).toEqual([C.INVALID_VALUE]);
    expect(filters('            - member: id\n              operator: set\n            - or:\n                - member: id\n                  operator: equals\n                  values: ["1"]\n')).toEqual([]);
  });

  it('row_level allow_all takes only true', () => {
    const found = errors(compile(policy('        row_level:\n          allow_all: false\n')));
    expect(found.map((d) => [d.code, d.member])).toEqual([[C.VALUE_NOT_ALLOWED, 'orders']]);
    expect(errors(compile(policy('        row_level:\n          allow_all: true\n')))).toEqual([]);
  });
});

describe('hierarchy levels in views, as the platform brings them along', () => {
  it("a level on another cube lands in that cube's entry of the view, where it can clash with a member of the same name", () => {
    const orders = `${ORDERS}    hierarchies:\n      - name: flow\n        levels:\n          - status\n          - customers.city\n`;
    const view = 'views:\n  - name: overview\n    cubes:\n      - join_path: orders\n        includes:\n          - flow\n      - join_path: orders.customers\n        includes:\n          - count\n';
    const result = compile(base({ 'model/cubes/orders.yml': orders, 'model/views/overview.yml': view }));
    expect(errors(result)).toEqual([]);
    expect(Object.keys(result.model.views.overview!.members).sort()).toEqual(['city', 'count', 'flow', 'status']);
    const clash = view.replace('        includes:\n          - count\n', '        includes:\n          - count\n      - join_path: orders.customers\n        alias: buyer\n        prefix: true\n        includes:\n          - id\n');
    const withId = orders.replace('          - customers.city\n', '          - customers.id\n');
    const ids = errors(compile(base({ 'model/cubes/orders.yml': withId, 'model/views/overview.yml': clash.replace('          - flow\n', '          - flow\n          - id\n') })));
    expect(ids.map((d) => d.code)).toEqual([C.VIEW_MEMBER_CONFLICT]);
  });

  it('a time dimension level written with a granularity brings the time dimension along', () => {
    const orders = `${ORDERS}    hierarchies:\n      - name: timeline\n        levels:\n          - status\n          - CUBE.created_at.month\n`;
    const view = 'views:\n  - name: overview\n    cubes:\n      - join_path: orders\n        includes:\n          - timeline\n';
    const result = compile(base({ 'model/cubes/orders.yml': orders, 'model/views/overview.yml': view }));
    expect(errors(result)).toEqual([]);
    expect(Object.keys(result.model.views.overview!.members).sort()).toEqual(['created_at', 'status', 'timeline']);
    expect(withCode(result, C.HIERARCHY_LEVEL_NOT_DIMENSION)).toEqual([]);
  });
});

describe('hierarchy levels in the meta of a cube', () => {
  it('name full member paths, whichever way the level is written (dim, CUBE.dim, cube.dim, another cube\'s member)', () => {
    const orders = `${ORDERS}    hierarchies:\n      - name: flow\n        levels:\n          - status\n          - CUBE.created_at\n          - orders.id\n          - customers.city\n`;
    const result = compile(base({ 'model/cubes/orders.yml': orders }));
    const cube = modelMeta(result.model, null).cubes.find((c) => c.name === 'orders')!;
    expect(cube.hierarchies).toMatchObject([{ name: 'orders.flow', levels: ['orders.status', 'orders.created_at', 'orders.id', 'customers.city'] }]);
  });
});
