import { describe, expect, it } from 'vitest';
import { analyzeLakehousePublish, analyzeWarehousePush, DiagnosticCodes as C, viewDataSources } from '../../../src-shared/model';
import { base, compile, CUSTOMERS, errors, ORDERS, VIEW, withCode } from './helpers';

function modelOf(extra: Record<string, string> = {}) {
  const result = compile(base(extra));
  expect(errors(result)).toEqual([]);
  return result.model;
}

const codes = (ds: { code: string }[]) => ds.map((d) => d.code);

describe('warehouse push (spec push rules 5–6)', () => {
  it('a star view with single-column keys, equi-joins on keys and plain aggregates is pushable', () => {
    const push = analyzeWarehousePush(modelOf(), 'overview');
    expect(push).toEqual({ pushable: true, issues: [], skipped: [], skippedDetails: [] });
  });

  it('rule 5: templated SQL (Jinja or context variables) is not pushable', () => {
    const cube = CUSTOMERS.replace('        sql: city\n', "        sql: \"CASE WHEN {SECURITY_CONTEXT.region.unsafeValue()} = 'eu' THEN city END\"\n");
    const push = analyzeWarehousePush(modelOf({ 'model/cubes/customers.yml': cube }), 'overview');
    expect(push.pushable).toBe(false);
    expect(push.issues).toHaveLength(1);
    expect(push.issues[0]).toMatchObject({ code: C.PUSH_TEMPLATED_SQL, member: 'customers.city', file: 'model/cubes/customers.yml', line: 10 });
  });

  it('rule 5: entities without a single-column primary key (composite or expression) are not pushable', () => {
    const composite = CUSTOMERS.replace('        type: string\n', '        type: string\n        primary_key: true\n');
    const push = analyzeWarehousePush(modelOf({ 'model/cubes/customers.yml': composite }), 'overview');
    expect(codes(push.issues)).toEqual([C.PUSH_PRIMARY_KEY, C.PUSH_JOIN_NOT_PRIMARY_KEY]);
    expect(push.issues[0]!.message).toContain('composite');

    const expression = CUSTOMERS.replace('        sql: id\n', "        sql: \"{CUBE}.region || '-' || {CUBE}.local_id\"\n");
    const push2 = analyzeWarehousePush(modelOf({ 'model/cubes/customers.yml': expression }), 'overview');
    expect(push2.issues[0]).toMatchObject({ code: C.PUSH_PRIMARY_KEY, member: 'customers.id' });
  });

  it('rule 5: non-equi or expression joins are not pushable', () => {
    const cube = ORDERS.replace('sql: "{CUBE}.customer_id = {customers.id}"', 'sql: "{CUBE}.customer_id = {customers.id} OR {CUBE}.alt_id = {customers.id}"');
    const push = analyzeWarehousePush(modelOf({ 'model/cubes/orders.yml': cube }), 'overview');
    expect(push.issues).toHaveLength(1);
    expect(push.issues[0]).toMatchObject({ code: C.PUSH_JOIN_NOT_EQUI, member: 'orders.customers', line: 5 });
  });

  it('rule 5: joins whose referenced side is not the primary key are not pushable', () => {
    const cube = ORDERS.replace('{customers.id}', '{customers}.legacy_id');
    const push = analyzeWarehousePush(modelOf({ 'model/cubes/orders.yml': cube }), 'overview');
    expect(codes(push.issues)).toEqual([C.PUSH_JOIN_NOT_PRIMARY_KEY]);
  });

  it('rule 5: measures other than count, count_distinct, sum, avg, min, max are not pushable', () => {
    const cube = ORDERS.replace(
      '        type: sum\n',
      '        type: sum\n      - name: share\n        sql: "{total} / NULLIF({count}, 0)"\n        type: number\n      - name: paid\n        type: count\n        filters:\n          - sql: "{CUBE}.paid"\n      - name: weekly\n        sql: amount\n        type: sum\n        rolling_window:\n          trailing: 7 days\n      - name: combined\n        sql: "{total}"\n        type: sum\n',
    );
    const view = VIEW.replace('          - total\n', '          - total\n          - share\n          - paid\n          - weekly\n          - combined\n');
    const push = analyzeWarehousePush(modelOf({ 'model/cubes/orders.yml': cube, 'model/views/overview.yml': view }), 'overview');
    expect(push.issues.map((d) => d.member)).toEqual(['orders.share', 'orders.paid', 'orders.weekly', 'orders.combined']);
    expect(codes(push.issues)).toEqual(Array(4).fill(C.PUSH_MEASURE_UNSUPPORTED));
    expect(push.issues[1]!.message).toContain('filters');
    expect(push.issues[2]!.message).toContain('rolling window');
  });

  it('rule 6: skipped features are listed (segments, access policies, hierarchies, granularities, pre-aggregations)', () => {
    const cube = `${ORDERS.replace('        type: time\n', '        type: time\n        granularities:\n          - name: fiscal_year\n            interval: 1 year\n            offset: 1 month\n')}    segments:\n      - name: big\n        sql: "{CUBE}.amount > 100"\n    pre_aggregations:\n      - name: daily\n        measures: [count]\n    access_policy:\n      - group: analysts\n        row_level:\n          allow_all: true\n`;
    const customers = `${CUSTOMERS}    hierarchies:\n      - name: geo\n        levels: [city]\n`;
    const view = VIEW.replace('          - total\n', '          - total\n          - big\n          - created_at\n').replace('          - city\n', '          - geo\n');
    const push = analyzeWarehousePush(modelOf({ 'model/cubes/orders.yml': cube, 'model/cubes/customers.yml': customers, 'model/views/overview.yml': view }), 'overview');
    expect(push.pushable).toBe(true);
    expect(push.skipped).toEqual(['segments', 'access_policies', 'hierarchies', 'granularities', 'pre_aggregations']);
    expect(push.skippedDetails.find((d) => d.feature === 'pre_aggregations')!.items).toEqual(['orders.daily']);
  });

  it('an unknown view is reported, not thrown', () => {
    expect(analyzeWarehousePush(modelOf(), 'nope')).toMatchObject({ pushable: false, issues: [{ code: C.UNKNOWN_VIEW }] });
  });
});

describe('lakehouse publication (spec lakehouse rules 6–7)', () => {
  it('a star view over one data source with a catalog is ok', () => {
    expect(analyzeLakehousePublish(modelOf(), 'overview', { catalogConfigured: true })).toEqual({ status: 'ok', blockedReasons: [], warnings: [], withheldMembers: [] });
  });

  it('rule 6: two-part schema.table sources need the catalog setting', () => {
    const publish = analyzeLakehousePublish(modelOf(), 'overview');
    expect(publish.status).toBe('blocked');
    expect(publish.blockedReasons.map((d) => [d.code, d.member])).toEqual([
      [C.PUBLISH_CATALOG_REQUIRED, 'orders'],
      [C.PUBLISH_CATALOG_REQUIRED, 'customers'],
    ]);
  });

  it('rule 6: dynamic JavaScript or Jinja models are blocked', () => {
    const jinja = CUSTOMERS.replace('sql_table: shop.customers', 'sql_table: "{{ schema }}.customers"');
    const publish = analyzeLakehousePublish(modelOf({ 'model/cubes/customers.yml': jinja }), 'overview', { catalogConfigured: true });
    expect(publish.blockedReasons.map((d) => [d.code, d.member])).toEqual([[C.PUBLISH_DYNAMIC_MODEL, 'customers']]);
    expect(publish.blockedReasons[0]!.message).toContain('Jinja');
  });

  it('rule 6: unflattened extends is blocked', () => {
    const extended = 'cubes:\n  - name: people\n    extends: customers\n';
    const view = VIEW.replace('join_path: orders.customers', 'join_path: orders.people').replace('    joins:\n', '    joins:\n');
    const orders = ORDERS.replace('        relationship: many_to_one\n', '        relationship: many_to_one\n      - name: people\n        sql: "{CUBE}.customer_id = {people.id}"\n        relationship: many_to_one\n');
    const publish = analyzeLakehousePublish(modelOf({ 'model/cubes/people.yml': extended, 'model/cubes/orders.yml': orders, 'model/views/overview.yml': view }), 'overview', { catalogConfigured: true });
    expect(publish.blockedReasons.map((d) => [d.code, d.member])).toEqual([[C.PUBLISH_UNFLATTENED_EXTENDS, 'people']]);
  });

  it('rule 6: an access policy on the view or a referenced entity is blocked', () => {
    const view = `${VIEW}    access_policy:\n      - group: sales\n        row_level:\n          allow_all: true\n`;
    const publish = analyzeLakehousePublish(modelOf({ 'model/views/overview.yml': view }), 'overview', { catalogConfigured: true });
    expect(publish.blockedReasons.map((d) => [d.code, d.member])).toEqual([[C.PUBLISH_ACCESS_POLICY, 'overview']]);
  });

  it('rule 6: mixed data sources and an ambiguous root are blocked', () => {
    const customers = CUSTOMERS.replace('    sql_table: shop.customers\n', '    sql_table: shop.customers\n    data_source: crm\n');
    const view = `${VIEW}  - name: two_roots\n    cubes:\n      - join_path: orders\n        includes: [total]\n      - join_path: customers\n        includes: [city]\n`;
    const model = modelOf({ 'model/cubes/customers.yml': customers, 'model/views/overview.yml': view });
    expect(codes(analyzeLakehousePublish(model, 'overview', { catalogConfigured: true }).blockedReasons)).toEqual([C.PUBLISH_MIXED_DATA_SOURCES]);
    expect(codes(analyzeLakehousePublish(model, 'two_roots', { catalogConfigured: true }).blockedReasons)).toEqual([C.PUBLISH_MIXED_DATA_SOURCES, C.PUBLISH_AMBIGUOUS_ROOT]);
  });

  it('lakehouse scope: a view none of whose cubes use the published data source is MODEL_PUBLISH_OTHER_DATA_SOURCE; its own data source (any case) is not', () => {
    const onLake = (text: string) => text.replace(/( {4}sql_table: [^\n]+\n)/, '$1    data_source: lake\n');
    const model = modelOf({ 'model/cubes/orders.yml': onLake(ORDERS), 'model/cubes/customers.yml': onLake(CUSTOMERS) });
    expect(viewDataSources(model, 'overview')).toEqual(['lake']);
    expect(codes(analyzeLakehousePublish(model, 'overview', { catalogConfigured: true, dataSource: 'lake' }).blockedReasons)).toEqual([]);
    expect(codes(analyzeLakehousePublish(model, 'overview', { catalogConfigured: true, dataSource: 'LAKE' }).blockedReasons)).toEqual([]);
    const other = analyzeLakehousePublish(model, 'overview', { catalogConfigured: true, dataSource: 'default' });
    expect(codes(other.blockedReasons)).toEqual([C.PUBLISH_OTHER_DATA_SOURCE]);
    expect(other.blockedReasons[0]!.message).toContain("'lake'");
    // Cubes that name no data source are on `default`.
    expect(viewDataSources(modelOf({}), 'overview')).toEqual(['default']);
  });

  it('rule 6: non-equality, one-to-many and cyclic joins are MODEL_VIEW_JOIN_NOT_REPRESENTABLE', () => {
    const nonEqui = ORDERS.replace('sql: "{CUBE}.customer_id = {customers.id}"', 'sql: "{CUBE}.customer_id >= {customers.id}"');
    const p1 = analyzeLakehousePublish(modelOf({ 'model/cubes/orders.yml': nonEqui }), 'overview', { catalogConfigured: true });
    expect(p1.blockedReasons.map((d) => [d.code, d.member])).toEqual([[C.VIEW_JOIN_NOT_REPRESENTABLE, 'orders.customers']]);

    const customers = CUSTOMERS.replace('    dimensions:\n', '    joins:\n      - name: orders\n        sql: "{CUBE}.id = {orders}.customer_id"\n        relationship: has_many\n    dimensions:\n');
    const view = 'views:\n  - name: by_customer\n    cubes:\n      - join_path: customers\n        includes: [city]\n      - join_path: customers.orders\n        includes: [status]\n';
    const p2 = analyzeLakehousePublish(modelOf({ 'model/cubes/customers.yml': customers, 'model/views/by_customer.yml': view }), 'by_customer', { catalogConfigured: true });
    expect(p2.blockedReasons.map((d) => [d.code, d.member])).toEqual([[C.VIEW_JOIN_NOT_REPRESENTABLE, 'customers.orders']]);
    expect(p2.blockedReasons[0]!.message).toContain('one-to-many');

    const cyclic = 'views:\n  - name: loop\n    cubes:\n      - join_path: orders\n        includes: [total]\n      - join_path: orders.customers.orders\n        prefix: true\n        alias: again\n        includes: [status]\n';
    const p3 = analyzeLakehousePublish(modelOf({ 'model/cubes/customers.yml': customers, 'model/views/loop.yml': cyclic }), 'loop', { catalogConfigured: true });
    expect(codes(p3.blockedReasons)).toContain(C.VIEW_JOIN_NOT_REPRESENTABLE);
    expect(p3.blockedReasons.some((d) => d.message.includes('cyclic'))).toBe(true);
  });

  it('rule 6: window, ranking, multi-stage and sub-query calculations are blocked', () => {
    const cube = ORDERS.replace(
      '        type: sum\n',
      '        type: sum\n      - name: weekly\n        sql: amount\n        type: sum\n        rolling_window:\n          trailing: 7 days\n      - name: rank_by_total\n        multi_stage: true\n        type: rank\n',
    );
    const view = VIEW.replace('          - total\n', '          - total\n          - weekly\n          - rank_by_total\n');
    const publish = analyzeLakehousePublish(modelOf({ 'model/cubes/orders.yml': cube, 'model/views/overview.yml': view }), 'overview', { catalogConfigured: true });
    expect(publish.blockedReasons.map((d) => [d.code, d.member])).toEqual([
      [C.PUBLISH_UNSUPPORTED, 'orders.weekly'],
      [C.PUBLISH_UNSUPPORTED, 'orders.rank_by_total'],
    ]);
  });

  it('rule 7: fan-out-unsafe measures are withheld (sum/count/avg over a many-to-one join); distinct, min, max are kept', () => {
    const customers = CUSTOMERS.replace(
      '        type: count\n',
      '        type: count\n      - name: cities\n        sql: city\n        type: count_distinct\n      - name: oldest\n        sql: created_at\n        type: min\n      - name: avg_age\n        sql: age\n        type: avg\n',
    );
    const view = VIEW.replace('          - city\n', '          - city\n          - count\n          - cities\n          - oldest\n          - avg_age\n');
    const publish = analyzeLakehousePublish(modelOf({ 'model/cubes/customers.yml': customers, 'model/views/overview.yml': view }), 'overview', { catalogConfigured: true });
    expect(publish.status).toBe('partial');
    expect(publish.blockedReasons).toEqual([]);
    expect(publish.withheldMembers).toEqual(['customers_count', 'customers_avg_age']);
    expect(withCode({ diagnostics: publish.warnings } as never, C.MEMBER_WITHHELD).map((d) => d.member)).toEqual(['overview.customers_count', 'overview.customers_avg_age']);
  });

  it('rule 7: the root cube’s measures are withheld when a one-to-many join fans them out', () => {
    const customers = CUSTOMERS.replace('    dimensions:\n', '    joins:\n      - name: orders\n        sql: "{CUBE}.id = {orders}.customer_id"\n        relationship: one_to_many\n    dimensions:\n');
    const view = 'views:\n  - name: by_customer\n    cubes:\n      - join_path: customers\n        includes: [count]\n      - join_path: customers.orders\n        prefix: true\n        includes: [total]\n';
    const publish = analyzeLakehousePublish(modelOf({ 'model/cubes/customers.yml': customers, 'model/views/by_customer.yml': view }), 'by_customer', { catalogConfigured: true });
    expect(publish.status).toBe('blocked');
    expect(publish.withheldMembers).toEqual(['count']);
  });

  it('rule 7: metadata the lakehouse cannot represent is a warning', () => {
    const customers = CUSTOMERS.replace('        type: string\n', '        type: string\n        meta:\n          pii: true\n');
    const publish = analyzeLakehousePublish(modelOf({ 'model/cubes/customers.yml': customers }), 'overview', { catalogConfigured: true });
    expect(publish.status).toBe('ok');
    expect(publish.warnings.map((d) => [d.code, d.member])).toEqual([[C.METADATA_NOT_REPRESENTABLE, 'overview.customers_city']]);
  });
});

describe('analyzers in the editor', () => {
  it('are off by default', () => {
    const cube = ORDERS.replace('{customers.id}', '{customers}.legacy_id');
    expect(withCode(compile(base({ 'model/cubes/orders.yml': cube })), C.NOT_PUSHABLE)).toEqual([]);
  });

  it('surface findings as warnings with the specific reason when analyzers: true', () => {
    const cube = ORDERS.replace('{customers.id}', '{customers}.legacy_id');
    const result = compile(base({ 'model/cubes/orders.yml': cube }), { analyzers: true });
    expect(result.valid).toBe(true);
    const push = withCode(result, C.NOT_PUSHABLE);
    expect(push).toHaveLength(1);
    expect(push[0]).toMatchObject({ severity: 'warning', reason: C.PUSH_JOIN_NOT_PRIMARY_KEY, file: 'model/cubes/orders.yml', line: 5 });
    expect(push[0]!.message).toContain("View 'overview'");
    // Located at the cube's join, the finding names the view's own file too (the editor marks both).
    expect(push[0]!.viewFile).toBe('model/views/overview.yml');
    const publish = withCode(result, C.NOT_PUBLISHABLE);
    expect(publish.map((d) => d.reason)).toEqual([C.PUBLISH_CATALOG_REQUIRED, C.PUBLISH_CATALOG_REQUIRED]);
  });
});
