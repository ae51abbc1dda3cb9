import { describe, expect, it } from 'vitest';
import { DiagnosticCodes as C } from '../../../src-shared/model';
import { base, compile, CUSTOMERS, errors, ORDERS, VIEW, withCode, yaml } from './helpers';

// One test per check the platform makes (issue 3, "Checks the platform makes"). Each starts from a valid project
// and introduces one mistake, so the finding can only come from that rule.

function single(result: ReturnType<typeof compile>, code: string) {
  const found = withCode(result, code);
  expect(found, JSON.stringify(result.diagnostics, null, 1)).toHaveLength(1);
  return found[0]!;
}

describe('baseline', () => {
  it('the base project compiles without diagnostics', () => {
    const result = compile(base());
    expect(result.diagnostics).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe('checks the platform makes', () => {
  it('unknown top-level key', () => {
    const result = compile(base({ 'model/cubes/extra.yml': 'cubes: []\nmeasures:\n  - name: x\n' }));
    const d = single(result, C.UNKNOWN_TOP_LEVEL_KEY);
    expect(d).toMatchObject({ severity: 'error', file: 'model/cubes/extra.yml', line: 2, column: 1 });
    expect(d.message).toContain("'measures'");
    expect(result.valid).toBe(false);
  });

  it('members not a list', () => {
    const cube = ORDERS.replace('    measures:\n      - name: count\n        type: count\n      - name: total\n        sql: amount\n        type: sum\n', '    measures:\n      count:\n        type: count\n');
    const result = compile(base({ 'model/cubes/orders.yml': cube, 'model/views/overview.yml': 'views: []\n' }));
    const d = single(result, C.MEMBERS_NOT_LIST);
    expect(d).toMatchObject({ file: 'model/cubes/orders.yml', line: 20, column: 7 });
    expect(d.message).toContain("'measures'");
    expect(d.message).toContain("cube 'orders'");
  });

  it('duplicate cube name', () => {
    const result = compile(base({ 'model/cubes/z_orders_copy.yml': ORDERS }));
    const d = single(result, C.DUPLICATE_CUBE);
    expect(d).toMatchObject({ file: 'model/cubes/z_orders_copy.yml', line: 2, column: 11, member: 'orders' });
    expect(d.message).toContain('model/cubes/orders.yml');
  });

  it('cube and view with the same name', () => {
    const result = compile(base({ 'model/views/customers.yml': 'views:\n  - name: customers\n    cubes:\n      - join_path: orders\n        includes: "*"\n' }));
    const d = single(result, C.CUBE_VIEW_NAME_CONFLICT);
    expect(d).toMatchObject({ file: 'model/views/customers.yml', line: 2, column: 11, member: 'customers' });
  });

  it('duplicate member in a cube', () => {
    const cube = CUSTOMERS.replace('      - name: city\n', '      - name: city\n        sql: city\n        type: string\n      - name: city\n');
    const d = single(compile(base({ 'model/cubes/customers.yml': cube })), C.DUPLICATE_MEMBER);
    expect(d).toMatchObject({ file: 'model/cubes/customers.yml', line: 12, column: 15, member: 'customers.city' });
  });

  it('duplicate member in a long section: each repeat past the 32nd member is reported once', () => {
    const many = Array.from({ length: 40 }, (_, n) => `      - name: extra_${n}\n        sql: extra_${n}\n        type: string\n`).join('');
    const repeats = '      - name: extra_3\n        sql: x\n        type: string\n      - name: extra_39\n        sql: y\n        type: string\n';
    const cube = CUSTOMERS.replace('      - name: city\n', `${many}${repeats}      - name: city\n`);
    const found = withCode(compile(base({ 'model/cubes/customers.yml': cube })), C.DUPLICATE_MEMBER);
    expect(found.map((d) => d.member)).toEqual(['customers.extra_3', 'customers.extra_39']);
  });

  it('duplicate member: a measure and a dimension with one name', () => {
    const cube = CUSTOMERS.replace('      - name: count\n        type: count\n', '      - name: city\n        type: count\n');
    const d = single(compile(base({ 'model/cubes/customers.yml': cube })), C.DUPLICATE_MEMBER);
    expect(d.member).toBe('customers.city');
    expect(d.message).toContain('dimension');
    expect(d.message).toContain('measure');
    expect(d).toMatchObject({ line: 13, column: 9 });
  });

  it('unresolvable {cube.member}', () => {
    const cube = ORDERS.replace('sql: amount', 'sql: "{customers.lifetime_value}"');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.UNRESOLVED_REFERENCE);
    expect(d).toMatchObject({ severity: 'error', file: 'model/cubes/orders.yml', line: 23, column: 14, member: 'orders.total' });
    expect(d.message).toContain('{customers.lifetime_value}');
    expect(d.message).toContain("'customers'");
  });

  it('unresolvable {member} of the same cube', () => {
    const cube = ORDERS.replace('sql: amount', 'sql: "{amount_cents} / 100"');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.UNRESOLVED_REFERENCE);
    expect(d.member).toBe('orders.total');
    expect(d.message).toContain('{amount_cents}');
  });

  it('an unresolved reference names the place it is written and files it under its member, wherever it is', () => {
    const cube = yaml`
      cubes:
        - name: places
          sql_table: shop.places
          dimensions:
            - name: id
              sql: id
              type: number
              primary_key: true
            - name: created_at
              sql: "{nowhere_a}"
              type: time
              granularities:
                - name: fiscal
                  sql: "{nowhere_b}"
          measures:
            - name: total
              sql: "{nowhere_c}"
              type: sum
              filters:
                - sql: "{nowhere_d} > 0"
              drill_members:
                - nowhere_e
          segments:
            - name: big
              sql: "{nowhere_f} > 10"
    `;
    const view = yaml`
      views:
        - name: places_view
          cubes:
            - join_path: places
              includes: "*"
          measures:
            - name: extra
              sql: "{nowhere_g}"
              type: number
    `;
    const result = compile(base({ 'model/cubes/places.yml': cube, 'model/views/places_view.yml': view }));
    const found = withCode(result, C.UNRESOLVED_REFERENCE).map((d) => ({ member: d.member, where: /in (.*?): /.exec(d.message)?.[1] }));
    expect(found).toEqual(
      expect.arrayContaining([
        { member: 'places.created_at', where: "dimension 'places.created_at'" },
        { member: 'places.created_at', where: "granularity 'fiscal' of dimension 'places.created_at'" },
        { member: 'places.total', where: "measure 'places.total'" },
        { member: 'places.total', where: "a filter of measure 'places.total'" },
        { member: 'places.total', where: "drill_members of measure 'places.total'" },
        { member: 'places.big', where: "segment 'places.big'" },
      ]),
    );
    const unknownInView = withCode(result, C.UNRESOLVED_REFERENCE).concat(withCode(result, C.UNKNOWN_CUBE)).find((d) => d.message.includes('{nowhere_g}'));
    expect(unknownInView).toMatchObject({ member: 'places_view.extra' });
    expect(unknownInView!.message).toContain("in measure 'places_view.extra'");
  });

  it('unknown cube in a reference', () => {
    const cube = ORDERS.replace('sql: amount', 'sql: "{payments.amount}"');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.UNKNOWN_CUBE);
    expect(d).toMatchObject({ severity: 'error', member: 'orders.total', line: 23, column: 14 });
    expect(d.message).toContain("'payments'");
  });

  it('a reference cut short after the dot ({customers.}) is an error the platform also refuses', () => {
    const cube = ORDERS.replace('sql: amount', 'sql: "{customers.} + 1"');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.INCOMPLETE_REFERENCE);
    expect(d).toMatchObject({ severity: 'error', file: 'model/cubes/orders.yml', line: 23, column: 14, member: 'orders.total' });
    expect(d.message).toContain('{customers.}');
    expect(d.message).toContain('a member name must follow the dot');
  });

  it('incomplete references in every spelling: {CUBE.}, {orders.id.}, {.}, in join SQL too', () => {
    for (const text of ['{CUBE.}', '{ orders.id. }', '{.}']) {
      const cube = ORDERS.replace('sql: status', `sql: "${text}"`);
      const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.INCOMPLETE_REFERENCE);
      expect(d.member).toBe('orders.status');
      expect(d.message).toContain(text);
    }
    const joined = ORDERS.replace('{customers.id}', '{customers.}');
    const d = single(compile(base({ 'model/cubes/orders.yml': joined })), C.INCOMPLETE_REFERENCE);
    expect(d).toMatchObject({ severity: 'error', member: 'orders.customers' });
  });

  it('a reference with a leading dot reads as the name after it, as the platform reads it ({.status} is {status})', () => {
    expect(compile(base({ 'model/cubes/orders.yml': ORDERS.replace('sql: amount', 'sql: "{.status}"') })).diagnostics).toEqual([]);
    const d = single(compile(base({ 'model/cubes/orders.yml': ORDERS.replace('sql: amount', 'sql: "{.nope}"') })), C.UNRESOLVED_REFERENCE);
    expect(d.message).toContain('{nope}');
  });

  it('a cube as a table with a dot and no column ({CUBE}.) is a warning, as the platform compiles it', () => {
    const cube = ORDERS.replace('sql: status', 'sql: "{CUBE}."');
    const result = compile(base({ 'model/cubes/orders.yml': cube }));
    const d = single(result, C.DANGLING_COLUMN_DOT);
    expect(d).toMatchObject({ severity: 'warning', member: 'orders.status' });
    expect(result.valid).toBe(true);
    // A column after the dot, quoted or not, is fine.
    for (const sql of ['{CUBE}.status', '{CUBE}.\\"status\\"', 'lower({CUBE}.status)']) {
      expect(withCode(compile(base({ 'model/cubes/orders.yml': ORDERS.replace('sql: status', `sql: "${sql}"`) })), C.DANGLING_COLUMN_DOT)).toEqual([]);
    }
  });

  it('in a JavaScript model `{customers.}` is literal text (the platform accepts it) and `${CUBE}.` still warns', () => {
    const js = 'cube(`shop`, {\n  sql_table: `shop.t`,\n  dimensions: {\n    id: { sql: `id`, type: `number`, primary_key: true },\n    a: { sql: `{customers.}`, type: `string` },\n    b: { sql: `${CUBE}.`, type: `string` },\n  },\n});\n';
    const result = compile({ 'model/cubes/shop.js': js });
    expect(withCode(result, C.INCOMPLETE_REFERENCE)).toEqual([]);
    expect(single(result, C.DANGLING_COLUMN_DOT)).toMatchObject({ member: 'shop.b', severity: 'warning' });
  });

  it('unknown cube in extends', () => {
    const result = compile(base({ 'model/cubes/big_orders.yml': 'cubes:\n  - name: big_orders\n    extends: orderz\n' }));
    const d = single(result, C.UNKNOWN_EXTENDS);
    expect(d).toMatchObject({ file: 'model/cubes/big_orders.yml', line: 3, column: 14, member: 'big_orders' });
    expect(d.message).toContain("'orderz'");
  });

  it('unknown cube in a join', () => {
    const cube = ORDERS.replace('      - name: customers\n        sql: "{CUBE}.customer_id = {customers.id}"', '      - name: clients\n        sql: "{CUBE}.customer_id = {clients.id}"');
    const result = compile(base({ 'model/cubes/orders.yml': cube, 'model/views/overview.yml': 'views: []\n' }));
    const d = single(result, C.UNKNOWN_JOIN_CUBE);
    expect(d).toMatchObject({ file: 'model/cubes/orders.yml', line: 5, column: 9, member: 'orders.clients' });
    expect(d.message).toContain("'clients'");
  });

  it('unknown cube in a view join_path', () => {
    const view = yaml`
      views:
        - name: overview
          cubes:
            - join_path: orders.clients
              includes: "*"
    `;
    const d = single(compile(base({ 'model/views/overview.yml': view })), C.UNKNOWN_JOIN_PATH_CUBE);
    expect(d).toMatchObject({ file: 'model/views/overview.yml', line: 4, column: 20, member: 'overview' });
    expect(d.message).toContain("'clients'");
  });

  it('join path with no joins between the cubes is a warning (the platform compiles it)', () => {
    const view = 'views:\n  - name: overview\n    cubes:\n      - join_path: customers.orders\n        includes: "*"\n';
    const d = single(compile(base({ 'model/views/overview.yml': view })), C.JOIN_PATH_NOT_FOUND);
    expect(d.severity).toBe('warning');
    expect(d.message).toContain("'customers'");
    expect(d.message).toContain("'orders'");
  });

  it('primary key required when the cube has joins', () => {
    const cube = ORDERS.replace('        primary_key: true\n', '');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.PRIMARY_KEY_REQUIRED);
    expect(d).toMatchObject({ file: 'model/cubes/orders.yml', line: 2, column: 11, member: 'orders' });
  });

  it('two joins to the same cube', () => {
    const cube = ORDERS.replace(
      '        relationship: many_to_one\n',
      '        relationship: many_to_one\n      - name: customers\n        sql: "{CUBE}.billing_customer_id = {customers.id}"\n        relationship: many_to_one\n',
    );
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.DUPLICATE_JOIN);
    expect(d).toMatchObject({ file: 'model/cubes/orders.yml', line: 8, column: 15, member: 'orders.customers' });
  });

  it('sql and sql_table both', () => {
    const cube = CUSTOMERS.replace('sql_table: shop.customers', 'sql_table: shop.customers\n    sql: SELECT * FROM shop.customers');
    const d = single(compile(base({ 'model/cubes/customers.yml': cube })), C.SQL_XOR_SQL_TABLE);
    expect(d).toMatchObject({ file: 'model/cubes/customers.yml', line: 2, member: 'customers' });
    expect(d.message).toContain('both');
  });

  it('sql and sql_table neither', () => {
    const cube = CUSTOMERS.replace('    sql_table: shop.customers\n', '');
    const d = single(compile(base({ 'model/cubes/customers.yml': cube })), C.SQL_XOR_SQL_TABLE);
    expect(d.message).toContain("'customers'");
  });

  it('sql missing on a non-count measure', () => {
    const cube = ORDERS.replace('        sql: amount\n', '');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.SQL_REQUIRED);
    expect(d).toMatchObject({ file: 'model/cubes/orders.yml', line: 22, column: 9, member: 'orders.total' });
  });

  it('sql not needed on a count measure', () => {
    expect(withCode(compile(base()), C.SQL_REQUIRED)).toEqual([]);
  });

  it('sql missing on a segment', () => {
    const cube = `${CUSTOMERS}    segments:\n      - name: local\n`;
    const d = single(compile(base({ 'model/cubes/customers.yml': cube })), C.SQL_REQUIRED);
    expect(d).toMatchObject({ line: 16, column: 9, member: 'customers.local' });
  });

  it('unknown measure type', () => {
    const cube = ORDERS.replace('type: sum', 'type: summ');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.UNKNOWN_MEMBER_TYPE);
    expect(d).toMatchObject({ line: 24, column: 15, member: 'orders.total' });
    expect(d.message).toContain("'summ'");
  });

  it('unknown measure type: running_total is rejected', () => {
    const cube = ORDERS.replace('type: sum', 'type: running_total');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.UNKNOWN_MEMBER_TYPE);
    expect(d.message).toContain('running_total');
  });

  it('unknown dimension type', () => {
    const cube = CUSTOMERS.replace('        type: string', '        type: text');
    const d = single(compile(base({ 'model/cubes/customers.yml': cube })), C.UNKNOWN_MEMBER_TYPE);
    expect(d).toMatchObject({ line: 11, column: 15, member: 'customers.city' });
  });

  it('bad relationship', () => {
    const cube = ORDERS.replace('relationship: many_to_one', 'relationship: many_to_many');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.INVALID_RELATIONSHIP);
    expect(d).toMatchObject({ line: 7, column: 23 });
    expect(d.message).toContain("'many_to_many'");
  });

  it('legacy relationships are accepted and normalized', () => {
    const cube = ORDERS.replace('relationship: many_to_one', 'relationship: belongs_to');
    const result = compile(base({ 'model/cubes/orders.yml': cube }));
    expect(errors(result)).toEqual([]);
    expect(result.model.cubes.orders!.joins[0]).toMatchObject({ relationship: 'many_to_one', declaredRelationship: 'belongs_to' });
  });

  it('bad rolling-window interval', () => {
    const cube = ORDERS.replace('        type: sum\n', '        type: sum\n        rolling_window:\n          trailing: 7 dayz\n');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.INVALID_ROLLING_WINDOW);
    expect(d).toMatchObject({ line: 26, column: 21, member: 'orders.total' });
    expect(d.message).toContain('7 dayz');
  });

  it('unknown property', () => {
    const cube = CUSTOMERS.replace('        type: string', '        type: string\n        colour: red');
    const d = single(compile(base({ 'model/cubes/customers.yml': cube })), C.UNKNOWN_PROPERTY);
    expect(d).toMatchObject({ line: 12, column: 9, member: 'customers.city' });
    expect(d.message).toContain("'colour'");
  });

  it('unknown property: camelCase keys in YAML', () => {
    const cube = CUSTOMERS.replace('sql_table:', 'sqlTable:');
    const result = compile(base({ 'model/cubes/customers.yml': cube }));
    expect(single(result, C.UNKNOWN_PROPERTY).message).toContain("'sql_table'");
  });

  it('bad identifier', () => {
    const cube = CUSTOMERS.replace('name: city', 'name: 2nd-city');
    const d = single(compile(base({ 'model/cubes/customers.yml': cube, 'model/views/overview.yml': 'views: []\n' })), C.INVALID_IDENTIFIER);
    expect(d).toMatchObject({ line: 9, column: 15 });
    expect(d.message).toContain("'2nd-city'");
  });

  it('a member name is letters, digits and _ and does not start with a digit (ASCII letters only)', () => {
    const names = ['_city', 'City2', 'x', '2nd', 'a-b', 'naïve', 'a.b', '_', 'Z_9'];
    const dimensions = names.map((name) => `      - name: "${name}"\n        sql: c\n        type: string\n`).join('');
    const cube = `cubes:\n  - name: places\n    sql_table: t\n    dimensions:\n${dimensions}`;
    const result = compile(base({ 'model/cubes/places.yml': cube }));
    const refused = withCode(result, C.INVALID_IDENTIFIER).map((d) => d.member);
    expect(refused).toEqual(['places.2nd', 'places.a-b', 'places.naïve', 'places.a.b']);
  });

  it('view includes a member no cube defines', () => {
    const view = VIEW.replace('          - total\n', '          - total\n          - revenue\n');
    const d = single(compile(base({ 'model/views/overview.yml': view })), C.VIEW_INCLUDE_UNKNOWN_MEMBER);
    expect(d).toMatchObject({ file: 'model/views/overview.yml', line: 8, column: 13, member: 'overview.revenue' });
    expect(d.message).toContain("'orders'");
  });

  it('included member conflicts with another (suggests exclude or alias)', () => {
    const view = yaml`
      views:
        - name: overview
          cubes:
            - join_path: orders
              includes: [count]
            - join_path: orders.customers
              includes: [count]
    `;
    const d = single(compile(base({ 'model/views/overview.yml': view })), C.VIEW_MEMBER_CONFLICT);
    expect(d).toMatchObject({ line: 7, column: 20, member: 'overview.count' });
    expect(d.message).toMatch(/exclude/);
    expect(d.message).toMatch(/alias/);
  });

  it('included member conflict is resolved by an alias', () => {
    const view = 'views:\n  - name: overview\n    cubes:\n      - join_path: orders\n        includes: [count]\n      - join_path: orders.customers\n        includes:\n          - name: count\n            alias: customer_count\n';
    const result = compile(base({ 'model/views/overview.yml': view }));
    expect(errors(result)).toEqual([]);
    expect(Object.keys(result.model.views.overview!.members)).toEqual(['count', 'customer_count']);
  });

  it('folder names a member that does not exist', () => {
    const view = `${VIEW}    folders:\n      - name: Money\n        includes:\n          - total\n          - revenue\n`;
    const d = single(compile(base({ 'model/views/overview.yml': view })), C.FOLDER_UNKNOWN_MEMBER);
    expect(d).toMatchObject({ line: 16, column: 13, member: 'overview.revenue' });
    expect(d.message).toContain("'Money'");
  });

  it('a hierarchy level that is a measure, another cube\'s member or a granularity is accepted with a warning, as the platform accepts it', () => {
    const cube = `${CUSTOMERS}    hierarchies:\n      - name: geo\n        levels:\n          - city\n          - count\n          - orders.status\n          - orders.created_at.month\n`;
    const result = compile(base({ 'model/cubes/customers.yml': cube }));
    expect(errors(result)).toEqual([]);
    const warnings = withCode(result, C.HIERARCHY_LEVEL_NOT_DIMENSION);
    expect(warnings.map((d) => [d.severity, d.line, d.member])).toEqual([
      ['warning', 19, 'customers.geo'],
      ['warning', 20, 'customers.geo'],
      ['warning', 21, 'customers.geo'],
    ]);
    expect(warnings[0]!.message).toContain("'count'");
  });

  it('a hierarchy level that resolves to nothing is an unresolved reference', () => {
    const cube = `${CUSTOMERS}    hierarchies:\n      - name: geo\n        levels:\n          - city\n          - country\n          - orders.created_at.fortnight\n`;
    const found = withCode(compile(base({ 'model/cubes/customers.yml': cube })), C.UNRESOLVED_REFERENCE);
    expect(found.map((d) => [d.severity, d.line, d.member])).toEqual([
      ['error', 19, 'customers.geo'],
      ['error', 20, 'customers.geo'],
    ]);
  });

  it('a view including a hierarchy with a measure level refuses it, naming the view', () => {
    const cube = `${CUSTOMERS}    hierarchies:\n      - name: geo\n        levels:\n          - city\n          - count\n`;
    const view = 'views:\n  - name: places\n    cubes:\n      - join_path: customers\n        includes:\n          - geo\n';
    const errs = errors(compile(base({ 'model/cubes/customers.yml': cube, 'model/views/places.yml': view })));
    expect(errs.map((e) => [e.code, e.member, e.line])).toEqual([[C.HIERARCHY_LEVEL_NOT_DIMENSION, 'places.geo', 6]]);
    expect(errs[0]!.message).toContain("'count' is a measure");
    const star = view.replace('        includes:\n          - geo\n', '        includes: "*"\n');
    expect(errors(compile(base({ 'model/cubes/customers.yml': cube, 'model/views/places.yml': star }))).map((e) => e.member)).toEqual(['places.geo']);
  });

  it('split together with prefix', () => {
    const view = VIEW.replace('        prefix: true\n', '        prefix: true\n        split: true\n');
    expect(single(compile(base({ 'model/views/overview.yml': view })), C.VIEW_SPLIT_WITH_PREFIX)).toMatchObject({ line: 10, column: 9 });
  });

  it('extends cycle', () => {
    const result = compile(base({ 'model/cubes/a.yml': 'cubes:\n  - name: a\n    extends: b\n  - name: b\n    extends: a\n' }));
    expect(withCode(result, C.EXTENDS_CYCLE).map((d) => d.member).sort()).toEqual(['a', 'b']);
  });

  it('invalid granularity interval', () => {
    const cube = ORDERS.replace('        type: time\n', '        type: time\n        granularities:\n          - name: fortnight\n            interval: 2 fortnights\n');
    const d = single(compile(base({ 'model/cubes/orders.yml': cube })), C.INVALID_GRANULARITY);
    expect(d.message).toContain('2 fortnights');
  });

  it('unknown view in a view group', () => {
    const d = single(compile(base({ 'model/views/groups.yml': 'view_groups:\n  - name: sales\n    views: [overview, missing]\n' })), C.UNKNOWN_VIEW_IN_GROUP);
    expect(d.message).toContain("'missing'");
  });
});
