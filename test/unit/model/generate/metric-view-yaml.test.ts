import { describe, expect, it } from 'vitest';
import { parse as parseYaml12 } from 'yaml';
import { compileModel, type ModelFile } from '../../../../src-shared/model';
import { generateMetricViewYaml, renderMetricViewYaml } from '../../../../src-shared/model/generate/metric-view-yaml';
import { parseMetricViewYaml, validateMetricViewYaml } from '../../../../src-main/connectors/lakehouse';

const ORDERS = `cubes:
  - name: orders
    sql_table: sales.orders
    joins:
      - name: customers
        sql: "{CUBE}.customer_id = {customers.id}"
        relationship: many_to_one
      - name: line_items
        sql: "{CUBE}.id = {line_items}.order_id"
        relationship: one_to_many
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: string
        title: Order status
        description: placed, shipped or returned
      - name: is_big
        sql: "CASE WHEN {CUBE}.amount > 100 THEN 'yes' ELSE 'no' END"
        type: string
      - name: quoted
        sql: '"Weird Column"'
        type: string
      - name: big_status
        sql: "{status} || '-' || {is_big}"
        type: string
    measures:
      - name: count
        type: count
      - name: revenue
        sql: amount
        type: sum
        title: Revenue
      - name: average
        sql: amount
        type: avg
      - name: smallest
        sql: amount
        type: min
      - name: largest
        sql: amount
        type: max
      - name: buyers
        sql: customer_id
        type: count_distinct
      - name: shipped
        type: count
        filters:
          - sql: "{CUBE}.status = 'shipped'"
      - name: shipped_share
        sql: "1.0 * {shipped} / NULLIF({count}, 0)"
        type: number
`;

const CUSTOMERS = `cubes:
  - name: customers
    sql_table: sales.customers
    joins:
      - name: regions
        sql: "{CUBE}.region_id = {regions.id}"
        relationship: many_to_one
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: name
        sql: "upper(name)"
        type: string
        title: "No"
      - name: region_id
        sql: region_id
        type: number
    measures:
      - name: count
        type: count
      - name: first_seen
        sql: created_at
        type: min
`;

const REGIONS = `cubes:
  - name: regions
    sql: SELECT * FROM geo.regions WHERE active
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: label
        sql: label
        type: string
`;

const LINE_ITEMS = `cubes:
  - name: line_items
    sql_table: shop.sales.line_items
    joins:
      - name: products
        sql: "{CUBE}.product_id > {products}.id"
        relationship: many_to_one
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: order_id
        sql: order_id
        type: number
    measures:
      - name: count
        type: count
`;

const PRODUCTS = `cubes:
  - name: products
    sql: SELECT id, name FROM catalog_src.products p JOIN catalog_src.extra e ON p.id = e.id
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
`;

const VIEWS = `views:
  - name: order_facts
    title: Order facts
    description: Orders with customers and regions
    cubes:
      - join_path: orders
        includes: [status, is_big, quoted, big_status, count, revenue, average, smallest, largest, buyers, shipped, shipped_share]
      - join_path: orders.customers
        prefix: true
        includes: [name, first_seen, count]
      - join_path: orders.customers.regions
        alias: region
        prefix: true
        includes: [label]
  - name: fan_out
    cubes:
      - join_path: orders
        includes: [status, count]
      - join_path: orders.line_items
        prefix: true
        includes: [count]
  - name: not_equi
    cubes:
      - join_path: line_items
        includes: [count]
      - join_path: line_items.products
        prefix: true
        includes: [id]
  - name: regions_only
    cubes:
      - join_path: regions
        includes: [label]
`;

function model(extra: ModelFile[] = []) {
  const result = compileModel([
    { path: 'model/cubes/orders.yml', content: ORDERS },
    { path: 'model/cubes/customers.yml', content: CUSTOMERS },
    { path: 'model/cubes/regions.yml', content: REGIONS },
    { path: 'model/cubes/line_items.yml', content: LINE_ITEMS },
    { path: 'model/cubes/products.yml', content: PRODUCTS },
    { path: 'model/views/views.yml', content: VIEWS },
    ...extra,
  ]);
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return result.model;
}

type Field = { name: string; expr: string; display_name?: string; comment?: string };
type Spec = { version: number; comment?: string; source: string; filter?: string; joins?: unknown[]; dimensions: Field[]; measures: Field[] };
const exprOf = (fields: Field[], name: string) => fields.find((f) => f.name === name)?.expr;

describe('metric view YAML generator', () => {
  const generated = generateMetricViewYaml(model(), 'order_facts', { catalog: 'main' });
  const spec = parseMetricViewYaml(generated.yaml!) as Spec;

  it('writes spec version 1.1 with comment, the root cube’s table as source (qualified with the catalog) and the view’s members', () => {
    expect(generated.status).toBe('partial');
    expect(spec.version).toBe(1.1);
    expect(spec.comment).toBe('Orders with customers and regions');
    expect(spec.source).toBe('main.sales.orders');
    expect(spec.dimensions.map((d) => d.name)).toEqual(['status', 'is_big', 'quoted', 'big_status', 'customers_name', 'region_label']);
    expect(spec.dimensions[0]).toEqual({ name: 'status', expr: 'source.status', display_name: 'Order status', comment: 'placed, shipped or returned' });
  });

  it('writes a nested join per hop with name, source and an equality `on` naming the parent join', () => {
    expect(spec.joins).toEqual([
      {
        name: 'customers',
        source: 'main.sales.customers',
        on: 'source.customer_id = customers.id',
        // A joined cube read through a query keeps its WHERE (its rows are filtered, not the view's).
        joins: [{ name: 'regions', source: 'SELECT * FROM main.geo.regions WHERE active', on: 'customers.region_id = regions.id' }],
      },
    ]);
    // Fields reach a nested join through its path.
    expect(exprOf(spec.dimensions, 'region_label')).toBe('customers.regions.label');
  });

  it('quotes the `on` key (and other YAML 1.1 booleans) so a YAML 1.1 reader reads them as strings', () => {
    expect(generated.yaml).toContain("'on': source.customer_id = customers.id");
    expect(generated.yaml).not.toMatch(/^\s+on:/m);
    expect(spec.dimensions.find((d) => d.name === 'customers_name')?.display_name).toBe('No');
    // YAML 1.2 readers agree.
    expect(parseYaml12(generated.yaml!)).toEqual(spec);
  });

  it('turns measure types into aggregates: SUM, COUNT, COUNT(DISTINCT), AVG, MIN, MAX, with filters and inlined measure references', () => {
    expect(spec.measures.map((m) => [m.name, m.expr])).toEqual([
      ['count', 'COUNT(1)'],
      ['revenue', 'SUM(source.amount)'],
      ['average', 'AVG(source.amount)'],
      ['smallest', 'MIN(source.amount)'],
      ['largest', 'MAX(source.amount)'],
      ['buyers', 'COUNT(DISTINCT source.customer_id)'],
      ['shipped', "COUNT(1) FILTER (WHERE source.status = 'shipped')"],
      ['shipped_share', "1.0 * (COUNT(1) FILTER (WHERE source.status = 'shipped')) / NULLIF(COUNT(1), 0)"],
      ['customers_first_seen', 'MIN(customers.created_at)'],
    ]);
    expect(spec.measures.find((m) => m.name === 'revenue')?.display_name).toBe('Revenue');
  });

  it('rewrites member SQL: {CUBE} and bare columns become join names, member references are inlined, "quoted" names get backticks, literals and keywords stay', () => {
    expect(exprOf(spec.dimensions, 'is_big')).toBe("CASE WHEN source.amount > 100 THEN 'yes' ELSE 'no' END");
    expect(exprOf(spec.dimensions, 'quoted')).toBe('source.`Weird Column`');
    expect(exprOf(spec.dimensions, 'big_status')).toBe("source.status || '-' || (CASE WHEN source.amount > 100 THEN 'yes' ELSE 'no' END)");
    expect(exprOf(spec.dimensions, 'customers_name')).toBe('upper(customers.name)');
  });

  it('withholds fan-out-unsafe measures (MODEL_MEMBER_WITHHELD) and marks the view partial', () => {
    expect(generated.withheldMembers).toEqual(['customers_count']);
    expect(spec.measures.map((m) => m.name)).not.toContain('customers_count');
    expect(generated.warnings.find((w) => w.code === 'MODEL_MEMBER_WITHHELD')?.member).toBe('order_facts.customers_count');
    // A fan-out-safe aggregate (MIN) of the same joined cube is kept.
    expect(spec.measures.map((m) => m.name)).toContain('customers_first_seen');
  });

  it('produces YAML the lakehouse accepts', () => {
    expect(validateMetricViewYaml(generated.yaml!).problems).toEqual([]);
  });

  it('reads `SELECT * FROM table WHERE condition` as the table with a filter', () => {
    const regions = generateMetricViewYaml(model(), 'regions_only', { catalog: 'main' });
    expect(parseMetricViewYaml(regions.yaml!)).toMatchObject({ source: 'main.geo.regions', filter: 'source.active' });
  });

  it('blocks one-to-many and non-equality joins with MODEL_VIEW_JOIN_NOT_REPRESENTABLE', () => {
    const fanOut = generateMetricViewYaml(model(), 'fan_out', { catalog: 'main' });
    expect(fanOut.status).toBe('blocked');
    expect(fanOut.yaml).toBeNull();
    expect(fanOut.blockedReasons.map((r) => r.code)).toContain('MODEL_VIEW_JOIN_NOT_REPRESENTABLE');
    const notEqui = generateMetricViewYaml(model(), 'not_equi', { catalog: 'main' });
    expect(notEqui.blockedReasons.map((r) => r.code)).toContain('MODEL_VIEW_JOIN_NOT_REPRESENTABLE');
  });

  it('blocks a two-part schema.table source when the data source has no catalog setting, unless the root source is overridden', () => {
    const blocked = generateMetricViewYaml(model(), 'order_facts', {});
    expect(blocked.status).toBe('blocked');
    expect(blocked.blockedReasons.map((r) => r.code)).toContain('MODEL_PUBLISH_CATALOG_REQUIRED');
    const onlyRoot = generateMetricViewYaml(
      model([{ path: 'model/views/solo.yml', content: 'views:\n  - name: solo\n    cubes:\n      - join_path: orders\n        includes: [status, count]\n' }]),
      'solo',
      { rootSource: 'lake.sales.orders_v2' },
    );
    expect(onlyRoot.status).toBe('ok');
    expect(parseMetricViewYaml(onlyRoot.yaml!)).toMatchObject({ source: 'lake.sales.orders_v2' });
  });

  it('keeps three-part names and qualifies the tables of a query source with the catalog', () => {
    const items = generateMetricViewYaml(
      model([
        { path: 'model/views/items.yml', content: 'views:\n  - name: items\n    cubes:\n      - join_path: line_items\n        includes: [order_id, count]\n' },
        { path: 'model/views/prods.yml', content: 'views:\n  - name: prods\n    cubes:\n      - join_path: products\n        includes: [id]\n' },
      ]),
      'items',
      { catalog: 'main' },
    );
    expect(parseMetricViewYaml(items.yaml!)).toMatchObject({ source: 'shop.sales.line_items' });
    const prods = generateMetricViewYaml(model([{ path: 'model/views/prods.yml', content: 'views:\n  - name: prods\n    cubes:\n      - join_path: products\n        includes: [id]\n' }]), 'prods', { catalog: 'main' });
    expect(parseMetricViewYaml(prods.yaml!)).toMatchObject({ source: 'SELECT id, name FROM main.catalog_src.products p JOIN main.catalog_src.extra e ON p.id = e.id' });
  });

  it('blocks dynamic models and unknown views with the analyzer’s reasons', () => {
    const dynamic = compileModel([
      {
        path: 'model/cubes/dyn.js',
        content:
          "const t = process.env.T;\ncube('dyn', { sql_table: 'a.b', dimensions: { id: { sql: () => `id${t}`, type: 'number', primary_key: true } } });\nview('dyn_view', { cubes: [{ join_path: 'dyn', includes: '*' }] });\n",
      },
    ]).model;
    const result = generateMetricViewYaml(dynamic, 'dyn_view', { catalog: 'main' });
    expect(result.status).toBe('blocked');
    expect(result.blockedReasons.map((r) => r.code)).toContain('MODEL_PUBLISH_DYNAMIC_MODEL');
    const unknown = generateMetricViewYaml(model(), 'no_such_view', { catalog: 'main' });
    expect(unknown).toMatchObject({ status: 'blocked', yaml: null });
    expect(unknown.blockedReasons[0].code).toBe('MODEL_UNKNOWN_VIEW');
  });

  it('is deterministic: the same model gives the same YAML', () => {
    expect(generateMetricViewYaml(model(), 'order_facts', { catalog: 'main' }).yaml).toBe(generated.yaml);
  });

  it('renders any spec so YAML 1.1 reads it back unchanged', () => {
    const yaml = renderMetricViewYaml({
      version: 1.1,
      comment: 'yes',
      source: 'a.b.c',
      joins: [{ name: 'on', source: 'a.b.d', on: 'source.x = on.y' }],
      dimensions: [{ name: 'off', expr: '`col`' }],
      measures: [{ name: 'n', expr: 'COUNT(1)' }],
    });
    expect(parseMetricViewYaml(yaml)).toEqual({
      version: 1.1,
      comment: 'yes',
      source: 'a.b.c',
      joins: [{ name: 'on', source: 'a.b.d', on: 'source.x = on.y' }],
      dimensions: [{ name: 'off', expr: '`col`' }],
      measures: [{ name: 'n', expr: 'COUNT(1)' }],
    });
  });
});
