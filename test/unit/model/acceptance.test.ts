import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileModel, DiagnosticCodes as C, sqlLocOf, viewDataSources } from '../../../src-shared/model';
import type { ModelFile } from '../../../src-shared/model';
import { base, compile, CUSTOMERS, errors, ORDERS, withCode, yaml } from './helpers';

function sampleProject(): ModelFile[] {
  const root = join(__dirname, '../../../resources/sample-project');
  return ['model/cubes', 'model/views'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => {
        const full = join(f.parentPath, f.name);
        return { path: full.slice(root.length + 1).split('\\').join('/'), content: readFileSync(full, 'utf8') };
      }),
  );
}

describe('what the platform accepts', () => {
  it('accepts join cycles', () => {
    const customers = CUSTOMERS.replace(
      '    dimensions:\n',
      '    joins:\n      - name: orders\n        sql: "{CUBE}.id = {orders.customer_id}"\n        relationship: one_to_many\n    dimensions:\n',
    );
    const orders = ORDERS.replace('    dimensions:\n', '    dimensions:\n      - name: customer_id\n        sql: customer_id\n        type: number\n');
    const result = compile(base({ 'model/cubes/customers.yml': customers, 'model/cubes/orders.yml': orders }));
    expect(errors(result)).toEqual([]);
    expect(result.model.joinGraph.customers!.map((e) => e.to)).toEqual(['orders']);
    expect(result.model.joinGraph.orders!.map((e) => e.to)).toEqual(['customers']);
  });

  it('accepts pre-aggregations naming unknown members, with a warning', () => {
    const cube = `${ORDERS}    pre_aggregations:\n      - name: daily\n        measures: [count, revenue]\n        time_dimension: created_at\n        granularity: day\n`;
    const result = compile(base({ 'model/cubes/orders.yml': cube }));
    expect(result.valid).toBe(true);
    const warnings = withCode(result, C.PRE_AGGREGATION_UNKNOWN_MEMBER);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ severity: 'warning', member: 'orders.daily', line: 26 });
    expect(warnings[0]!.message).toContain("'revenue'");
    expect(result.model.cubes.orders!.preAggregations.daily).toMatchObject({ type: 'rollup', measures: ['count', 'revenue'], timeDimension: 'created_at', granularity: 'day' });
  });

  it('accepts extends chains that resolve, inheriting members and joins', () => {
    const extended = yaml`
      cubes:
        - name: big_orders
          extends: completed_orders
          sql: SELECT * FROM shop.orders WHERE amount > 1000
          measures:
            - name: total
              sql: amount * 1.2
              type: sum
        - name: completed_orders
          extends: orders
          segments:
            - name: recent
              sql: "{CUBE}.created_at > now() - interval '7 day'"
    `;
    const result = compile(base({ 'model/cubes/derived.yml': extended }));
    // The child sets sql while the ancestor has sql_table: that is the sql-xor-sql_table rule, nothing else.
    expect(errors(result).map((d) => d.code)).toEqual([C.SQL_XOR_SQL_TABLE]);
    const big = result.model.cubes.big_orders!;
    expect(big.extendsChain).toEqual(['completed_orders', 'orders']);
    expect(Object.keys(big.dimensions)).toEqual(['id', 'status', 'created_at']);
    expect(big.measures.total!.sql).toBe('amount * 1.2');
    expect(big.measures.total!.loc.file).toBe('model/cubes/derived.yml');
    expect(big.measures.count!.loc.file).toBe('model/cubes/orders.yml');
    expect(Object.keys(big.segments)).toEqual(['recent']);
    expect(big.joins.map((j) => j.name)).toEqual(['customers']);
    expect(big.primaryKey).toBe('id');
  });

  it('an extends chain that only adds members compiles cleanly', () => {
    const child = 'cubes:\n  - name: vip_customers\n    extends: customers\n    segments:\n      - name: vip\n        sql: "{CUBE}.tier = \'vip\'"\n';
    const result = compile(base({ 'model/cubes/vip.yml': child }));
    expect(result.diagnostics).toEqual([]);
    expect(result.model.cubes.vip_customers!.sqlTable).toBe('shop.customers');
  });
});

describe('the sample project', () => {
  it('compiles with zero errors and exposes every feature', () => {
    const result = compileModel(sampleProject());
    expect(errors(result)).toEqual([]);
    expect(result.diagnostics.filter((d) => d.severity === 'warning')).toEqual([]);
    const { cubes, views } = result.model;
    expect(Object.keys(cubes).sort()).toEqual(['customers', 'line_items', 'order_history', 'orders', 'product_categories', 'products']);
    expect(Object.keys(views).sort()).toEqual(['customer_directory', 'order_funnel', 'order_trends', 'orders_overview', 'product_sales']);
    // One view on the lakehouse data source `lake` (what its publication holds), the others on the warehouse.
    expect(Object.keys(views).filter((v) => viewDataSources(result.model, v).includes('lake'))).toEqual(['order_trends']);
    const measureTypes = new Set(Object.values(cubes).flatMap((c) => Object.values(c.measures).map((m) => m.type)));
    for (const t of ['count', 'count_distinct', 'count_distinct_approx', 'sum', 'avg', 'min', 'max', 'number', 'string', 'time', 'boolean']) {
      expect(measureTypes.has(t as never), t).toBe(true);
    }
    expect(Object.values(cubes).some((c) => Object.keys(c.segments).length > 0)).toBe(true);
    expect(Object.values(cubes).some((c) => Object.keys(c.hierarchies).length > 0)).toBe(true);
    expect(Object.values(cubes).some((c) => c.accessPolicy.length > 0)).toBe(true);
    expect(result.model.viewGroups.sales!.views).toEqual(['orders_overview', 'product_sales']);
  });

  it('stays clean with the analyzers on (their findings are warnings or info, never errors)', () => {
    const result = compileModel(sampleProject(), { analyzers: true });
    expect(result.valid).toBe(true);
    expect(result.diagnostics.length).toBeGreaterThan(0);
    expect(result.diagnostics.every((d) => d.severity !== 'error')).toBe(true);
  });

  it('with a new deployment’s data sources, shows one warning: the deliberate, explained one of order_funnel', () => {
    // default: the warehouse (Snowflake); lake: the lakehouse (Databricks, catalog main).
    const dataSources = { default: { kind: 'warehouse' as const }, lake: { kind: 'lakehouse' as const, catalog: 'main' } };
    const result = compileModel(sampleProject(), { analyzers: true, dataSources });
    const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
    expect(warnings.map((d) => `${d.code} ${d.reason} ${d.message.match(/View '(\w+)'/)?.[1]}`)).toEqual(['MODEL_NOT_PUSHABLE MODEL_PUSH_MEASURE_UNSUPPORTED order_funnel']);
    const funnel = sampleProject().find((f) => f.path === 'model/views/order_funnel.yml')!;
    expect(funnel.content).toMatch(/^# The one warning of the sample project, kept on purpose/);
  });
});

describe('analyzers with the deployment’s data sources', () => {
  const cube = (name: string, dataSource: string) =>
    `cubes:\n  - name: ${name}\n    sql_table: s.${name}\n    data_source: ${dataSource}\n    access_policy:\n      - group: g\n        member_level:\n          includes: "*"\n    measures:\n      - name: total\n        sql: x\n        type: number\n    dimensions:\n      - name: id\n        sql: id\n        type: number\n        primary_key: true\n`;
  const view = (name: string, cubeName: string) => `views:\n  - name: ${name}\n    cubes:\n      - join_path: ${cubeName}\n        includes: [id, total]\n`;
  const files = [
    { path: 'model/cubes/w.yml', content: cube('w', 'default') },
    { path: 'model/cubes/l.yml', content: cube('l', 'lake') },
    { path: 'model/views/wv.yml', content: view('wv', 'w') },
    { path: 'model/views/lv.yml', content: view('lv', 'l') },
  ];
  const analyzed = (options: Parameters<typeof compileModel>[1]) =>
    compileModel(files, options)
      .diagnostics.filter((d) => d.code === 'MODEL_NOT_PUSHABLE' || d.code === 'MODEL_NOT_PUBLISHABLE')
      .map((d) => `${d.code}:${d.message.match(/View '(\w+)'/)?.[1]}:${d.reason}`)
      .sort();

  it('checks a warehouse view only for a push and a lakehouse view only for a publication, with the lakehouse’s catalog', () => {
    expect(analyzed({ analyzers: true, dataSources: { default: { kind: 'warehouse' }, lake: { kind: 'lakehouse', catalog: 'main' } } })).toEqual([
      'MODEL_NOT_PUBLISHABLE:lv:MODEL_PUBLISH_ACCESS_POLICY',
      'MODEL_NOT_PUSHABLE:wv:MODEL_PUSH_MEASURE_UNSUPPORTED',
    ]);
    expect(analyzed({ analyzers: true, dataSources: { default: { kind: 'warehouse' }, lake: { kind: 'lakehouse', catalog: null } } })).toContain('MODEL_NOT_PUBLISHABLE:lv:MODEL_PUBLISH_CATALOG_REQUIRED');
  });

  it('without the data sources, checks every view for both', () => {
    const all = analyzed({ analyzers: true });
    expect(all).toEqual(expect.arrayContaining(['MODEL_NOT_PUBLISHABLE:wv:MODEL_PUBLISH_ACCESS_POLICY', 'MODEL_NOT_PUSHABLE:lv:MODEL_PUSH_MEASURE_UNSUPPORTED']));
  });
});

describe('resolution of views', () => {
  it('exposes members with prefix, alias and the source cube and path', () => {
    const result = compile(base());
    const view = result.model.views.overview!;
    expect(Object.keys(view.members)).toEqual(['total', 'status', 'customers_city']);
    expect(view.members.customers_city).toMatchObject({ kind: 'dimension', cube: 'customers', member: 'city', path: ['orders', 'customers'], type: 'string' });
    expect(view.members.total).toMatchObject({ kind: 'measure', cube: 'orders', member: 'total', type: 'sum' });
    expect(view.joinPaths).toEqual([['orders'], ['orders', 'customers']]);
    expect(view.root).toBe('orders');
  });

  it('includes "*" minus excludes, with an alias used as prefix', () => {
    const view = 'views:\n  - name: people\n    cubes:\n      - join_path: customers\n        alias: client\n        prefix: true\n        includes: "*"\n        excludes: [count]\n';
    const result = compile(base({ 'model/views/people.yml': view }));
    expect(errors(result)).toEqual([]);
    expect(Object.keys(result.model.views.people!.members)).toEqual(['client_id', 'client_city']);
  });

  it('include overrides title and description', () => {
    const view = 'views:\n  - name: people\n    cubes:\n      - join_path: customers\n        includes:\n          - name: city\n            alias: town\n            title: Town\n            description: Where they live\n';
    const member = compile(base({ 'model/views/people.yml': view })).model.views.people!.members.town!;
    expect(member).toMatchObject({ member: 'city', title: 'Town', description: 'Where they live' });
  });

  it('including a hierarchy brings its level dimensions', () => {
    const cube = `${CUSTOMERS}    hierarchies:\n      - name: geo\n        levels: [city, id]\n`;
    const view = 'views:\n  - name: people\n    cubes:\n      - join_path: customers\n        includes: [geo]\n';
    const result = compile(base({ 'model/cubes/customers.yml': cube, 'model/views/people.yml': view }));
    expect(errors(result)).toEqual([]);
    expect(Object.values(result.model.views.people!.members).map((m) => `${m.kind}:${m.name}`)).toEqual(['hierarchy:geo', 'dimension:city', 'dimension:id']);
  });

  it('split entries become separate views named <view>_<cube>', () => {
    const view = 'views:\n  - name: people\n    cubes:\n      - join_path: orders\n        includes: [count]\n      - join_path: orders.customers\n        split: true\n        includes: [city]\n';
    const result = compile(base({ 'model/views/people.yml': view }));
    expect(errors(result)).toEqual([]);
    expect(Object.keys(result.model.views.people!.members)).toEqual(['count']);
    expect(result.model.views.people_customers).toMatchObject({ splitOf: 'people', members: { city: { cube: 'customers' } } });
  });

  it('join_path hops that are not direct joins follow the shortest join chain', () => {
    const view = 'views:\n  - name: chain\n    cubes:\n      - join_path: line_items.customers\n        includes: [city]\n';
    const lineItems = 'cubes:\n  - name: line_items\n    sql_table: shop.line_items\n    joins:\n      - name: orders\n        sql: "{CUBE}.order_id = {orders.id}"\n        relationship: many_to_one\n    dimensions:\n      - name: id\n        sql: id\n        type: number\n        primary_key: true\n';
    const result = compile(base({ 'model/views/chain.yml': view, 'model/cubes/line_items.yml': lineItems }));
    expect(errors(result)).toEqual([]);
    expect(result.model.views.chain!.members.city!.path).toEqual(['line_items', 'orders', 'customers']);
  });

  it('views extending views reuse the parent cubes and folders', () => {
    const view = `${base()['model/views/overview.yml']}  - name: overview_plus\n    extends: overview\n    cubes:\n      - join_path: orders\n        includes: [count]\n`;
    const result = compile(base({ 'model/views/overview.yml': view }));
    expect(errors(result)).toEqual([]);
    expect(Object.keys(result.model.views.overview_plus!.members)).toEqual(['total', 'count', 'status', 'customers_city']);
    expect(result.model.views.overview_plus!.extendsChain).toEqual(['overview']);
  });

  it('folders resolve to exposed member names, "*" to all', () => {
    const view = `${base()['model/views/overview.yml']}    folders:\n      - name: All\n        includes: "*"\n      - name: Geo\n        includes:\n          - customers_city\n          - name: Nested\n            includes: [status]\n`;
    const folders = compile(base({ 'model/views/overview.yml': view })).model.views.overview!.folders;
    expect(folders.map((f) => [f.name, f.members])).toEqual([
      ['All', ['total', 'status', 'customers_city']],
      ['Geo', ['customers_city']],
    ]);
    expect(folders[1]!.folders[0]).toMatchObject({ name: 'Nested', members: ['status'] });
  });
});

describe('compiled cubes', () => {
  it('parse equi-join columns, following member references to their columns', () => {
    const join = compile(base()).model.cubes.orders!.joins[0]!;
    expect(join.equi).toEqual([{ source: { cube: 'orders', column: 'customer_id' }, target: { cube: 'customers', member: 'id', column: 'id' } }]);
  });

  it('leave equi null for expression joins', () => {
    const cube = ORDERS.replace('sql: "{CUBE}.customer_id = {customers.id}"', 'sql: "LOWER({CUBE}.email) = {customers.id} OR {CUBE}.x > 1"');
    expect(compile(base({ 'model/cubes/orders.yml': cube })).model.cubes.orders!.joins[0]!.equi).toBeNull();
  });

  it('carry positions, primary keys, data source and typed members', () => {
    const cube = compile(base()).model.cubes.orders!;
    expect(cube).toMatchObject({ name: 'orders', file: 'model/cubes/orders.yml', sqlTable: 'shop.orders', dataSource: 'default', primaryKey: 'id', primaryKeys: ['id'] });
    expect(cube.loc).toEqual({ file: 'model/cubes/orders.yml', line: 2, column: 11 });
    expect(cube.measures.total).toMatchObject({ kind: 'measure', type: 'sum', sql: 'amount', loc: { line: 22, column: 9 }, sqlLine: 23, sqlColumn: 14 });
    expect(sqlLocOf(cube.measures.total!)).toEqual({ file: 'model/cubes/orders.yml', line: 23, column: 14 });
    // A member without sql is found where it is defined.
    expect(cube.measures.count).toMatchObject({ sqlLine: 0, sqlColumn: 0 });
    expect(sqlLocOf(cube.measures.count!)).toBe(cube.measures.count!.loc);
    expect(cube.dimensions.created_at).toMatchObject({ kind: 'dimension', type: 'time', granularities: [] });
  });
});
