import { describe, expect, it } from 'vitest';
import { compileModel } from '../../../src-shared/model';
import { completionsAt } from '../../../src-renderer/src/features/models/completions';
import { definitionAt, dottedNameAt, enclosingEntityInText, markerRange, referenceContextAt, yamlContextAt } from '../../../src-renderer/src/features/models/language';
import { symbolsOf } from '../../../src-renderer/src/features/models/protocol';

const ORDERS = `cubes:
  - name: orders
    sql_table: shop.orders
    joins:
      - name: customers
        sql: "{CUBE}.customer_id = {customers.id}"
        relationship: many_to_one
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: string
      - name: created_at
        sql: created_at
        type: time
    measures:
      - name: count
        type: count
        drill_members:
          - status
          - customers.name
      - name: completed
        sql: "{CUBE}.amount"
        type: sum
    pre_aggregations:
      - name: daily
        measures:
          - count
        time_dimension: created_at
        granularity: day
`;

const CUSTOMERS = `cubes:
  - name: customers
    sql_table: shop.customers
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: name
        sql: name
        type: string
    measures:
      - name: count
        type: count
`;

const VIEW = `views:
  - name: overview
    cubes:
      - join_path: orders
        includes:
          - status
      - join_path: orders.customers
        prefix: true
        includes:
          - name
`;

const files = [
  { path: 'model/cubes/orders.yml', content: ORDERS },
  { path: 'model/cubes/customers.yml', content: CUSTOMERS },
  { path: 'model/views/overview.yml', content: VIEW },
];
const compiled = compileModel(files);
const symbols = symbolsOf(compiled.model);

/** `text` with `|` marking the cursor → text without it, line and column (1-based). */
function cursor(text: string): { text: string; line: number; column: number } {
  const at = text.indexOf('|');
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return { text: text.slice(0, at) + text.slice(at + 1), line, column };
}

function complete(text: string, file = 'model/cubes/orders.yml') {
  const c = cursor(text);
  return completionsAt(c.text, c.line, c.column, file, symbols);
}

const labels = (result: ReturnType<typeof complete>) => result?.suggestions.map((s) => s.label) ?? [];

describe('the fixture', () => {
  it('compiles without errors, so symbols are complete', () => {
    expect(compiled.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('YAML context', () => {
  it('finds the path of keys above a key being typed in a member', () => {
    const c = cursor(ORDERS.replace('        type: string', '        ty|'));
    expect(yamlContextAt(c.text, c.line, c.column)).toMatchObject({ kind: 'key', path: ['cubes', 'dimensions'], node: 'dimension', partial: 'ty' });
  });

  it('lists the keys already present in the same list item only', () => {
    const c = cursor(ORDERS.replace('        type: string', '        |'));
    const ctx = yamlContextAt(c.text, c.line, c.column);
    expect(ctx?.kind === 'key' && ctx.siblings.sort()).toEqual(['name', 'sql']);
  });

  it('returns nothing inside a multi-line scalar', () => {
    const text = 'cubes:\n  - name: a\n    sql: >\n      SELECT 1\n      |\n';
    const c = cursor(text);
    expect(yamlContextAt(c.text, c.line, c.column)).toBeNull();
  });

  it('treats `- x` under a list of names as an item, not a key', () => {
    const c = cursor(ORDERS.replace('          - status\n          - customers.name', '          - st|'));
    expect(yamlContextAt(c.text, c.line, c.column)).toMatchObject({ kind: 'item', parentKey: 'drill_members', parentNode: 'measure', partial: 'st' });
  });
});

describe('completion of keys from the format', () => {
  it('offers top-level keys at the top of a file', () => {
    expect(labels(complete('|'))).toEqual(['cubes', 'views', 'view_groups']);
  });

  it('offers cube keys in a cube, without the ones already written', () => {
    const result = labels(complete(ORDERS.replace('    sql_table: shop.orders', '    |')));
    expect(result).toEqual(expect.arrayContaining(['sql_table', 'sql', 'segments', 'hierarchies', 'data_source', 'extends', 'refresh_key']));
    for (const present of ['name', 'joins', 'dimensions', 'measures', 'pre_aggregations']) expect(result).not.toContain(present);
  });

  it('offers dimension, measure and join keys by where the cursor is', () => {
    expect(labels(complete(ORDERS.replace('        type: string', '        |')))).toEqual(expect.arrayContaining(['type', 'primary_key', 'granularities', 'case']));
    expect(labels(complete(ORDERS.replace('        type: count\n', '        |\n')))).toEqual(expect.arrayContaining(['rolling_window', 'filters', 'type']));
    expect(labels(complete(ORDERS.replace('        relationship: many_to_one', '        |')))).toEqual(['relationship']);
  });

  it('offers view and view-cube keys in a view', () => {
    expect(labels(complete(VIEW.replace('        prefix: true', '        |'), 'model/views/overview.yml'))).toEqual(expect.arrayContaining(['alias', 'split', 'excludes']));
    expect(labels(complete(VIEW.replace('    cubes:\n', '    |\n'), 'model/views/overview.yml'))).toEqual(expect.arrayContaining(['folders', 'description']));
  });

  it('inserts a list with a first item for member sections', () => {
    const section = complete(ORDERS.replace('    sql_table: shop.orders', '    |'))!.suggestions.find((s) => s.label === 'segments')!;
    expect(section.insertText).toBe('segments:\n  - name: ${1}');
    expect(section.snippet).toBe(true);
  });
});

describe('completion of values', () => {
  it('offers measure types for a measure and dimension types for a dimension', () => {
    const measure = labels(complete(ORDERS.replace('        type: sum', '        type: |')));
    expect(measure).toEqual(expect.arrayContaining(['count', 'count_distinct', 'sum', 'avg', 'number', 'rank']));
    expect(measure).not.toContain('running_total');
    const dimension = labels(complete(ORDERS.replace('        type: string', '        type: s|')));
    expect(dimension).toEqual(['string', 'number', 'boolean', 'time', 'geo', 'switch']);
  });

  it('offers relationships, legacy names last and deprecated', () => {
    const result = complete(ORDERS.replace('relationship: many_to_one', 'relationship: |'))!;
    expect(result.suggestions.slice(0, 3).map((s) => s.label).sort()).toEqual(['many_to_one', 'one_to_many', 'one_to_one']);
    expect(result.suggestions.find((s) => s.label === 'belongs_to')).toMatchObject({ deprecated: true });
  });

  it('offers cubes joined from the previous hop of a join path', () => {
    const result = complete(VIEW.replace('join_path: orders.customers', 'join_path: orders.|'), 'model/views/overview.yml')!;
    expect(labels(result)).toEqual(['customers']);
  });

  it('offers the join_path cube’s members in a view’s includes', () => {
    const result = labels(complete(VIEW.replace('          - name\n', '          - |\n'), 'model/views/overview.yml'));
    expect(result).toEqual(expect.arrayContaining(['id', 'name', 'count']));
    expect(result).not.toContain('status');
  });

  it('offers only the cube’s measures in a pre-aggregation’s measures', () => {
    expect(labels(complete(ORDERS.replace('          - count\n        time_dimension', '          - |\n        time_dimension')))).toEqual(['count', 'completed']);
  });
});

describe('completion of references inside {…}', () => {
  it('offers the cube’s own members, CUBE and every cube and view', () => {
    const result = labels(complete(ORDERS.replace('sql: "{CUBE}.amount"', 'sql: "{|"')));
    expect(result).toEqual(expect.arrayContaining(['id', 'status', 'count', 'CUBE', 'orders', 'customers', 'overview']));
  });

  it('offers the members of the named cube after a dot', () => {
    const result = complete(ORDERS.replace('{customers.id}', '{customers.n|}'))!;
    expect(labels(result)).toEqual(['id', 'name', 'count']);
    expect(result.suggestions.find((s) => s.label === 'name')).toMatchObject({ kind: 'dimension', detail: 'dimension · string of customers' });
  });

  it('offers the enclosing cube’s members after CUBE.', () => {
    expect(labels(complete(ORDERS.replace('sql: "{CUBE}.amount"', 'sql: "{CUBE.|"')))).toEqual(expect.arrayContaining(['id', 'status', 'created_at', 'count']));
  });

  it('does not treat Jinja as a reference', () => {
    expect(referenceContextAt('sql: "{{ x', 11)).toBeNull();
    expect(referenceContextAt('sql: "{% if', 10)).toBeNull();
  });

  it('works inside ${…} of JS model files', () => {
    expect(referenceContextAt('  sql: `${customers.na', 23)).toEqual({ qualifier: ['customers'], partial: 'na', startColumn: 21 });
  });
});

describe('go to definition', () => {
  /** Definition at the start of `marker` (plus `offset` characters) in `text`. */
  function define(text: string, marker: string, file = 'model/cubes/orders.yml', offset = 0) {
    const index = text.indexOf(marker) + offset;
    const before = text.slice(0, index);
    const line = before.split('\n').length;
    const column = index - before.lastIndexOf('\n');
    return definitionAt(text, line, column, file, symbols);
  }

  it('resolves {cube.member} to the member in another file', () => {
    expect(define(ORDERS, 'id}"')).toMatchObject({ kind: 'dimension', qualifiedName: 'customers.id', file: 'model/cubes/customers.yml', line: 5 });
  });

  it('resolves the cube part of {cube.member} to the cube', () => {
    expect(define(ORDERS, 'customers.id}')).toMatchObject({ kind: 'cube', name: 'customers', file: 'model/cubes/customers.yml', line: 2 });
  });

  it('resolves {CUBE} to the enclosing cube', () => {
    expect(define(ORDERS, 'CUBE}.amount')).toMatchObject({ kind: 'cube', name: 'orders', file: 'model/cubes/orders.yml' });
  });

  it('resolves join names, join paths and include lists', () => {
    expect(define(ORDERS, 'customers\n        sql:')).toMatchObject({ name: 'customers', kind: 'cube' });
    expect(define(VIEW, 'customers\n        prefix', 'model/views/overview.yml')).toMatchObject({ name: 'customers', kind: 'cube' });
    expect(define(VIEW, 'status', 'model/views/overview.yml')).toMatchObject({ qualifiedName: 'orders.status', line: 13 });
    expect(define(VIEW, 'name\n', 'model/views/overview.yml')).toMatchObject({ qualifiedName: 'customers.name' });
  });

  it('resolves qualified names in drill_members and a pre-aggregation’s time dimension', () => {
    expect(define(ORDERS, 'name\n      - name: completed')).toMatchObject({ qualifiedName: 'customers.name' });
    expect(define(ORDERS, 'time_dimension: created_at', 'model/cubes/orders.yml', 16)).toMatchObject({ qualifiedName: 'orders.created_at', line: 16 });
  });

  it('does not treat plain SQL as a reference', () => {
    expect(define(ORDERS, 'status\n        type: string')).toBeNull();
  });

  it('finds the dotted name and the part under the cursor', () => {
    expect(dottedNameAt('  join_path: orders.customers', 22)).toEqual({ parts: ['orders', 'customers'], index: 1, range: { startColumn: 14, endColumn: 30 } });
    expect(dottedNameAt('  join_path: orders.customers', 15)?.index).toBe(0);
  });
});

describe('marker ranges', () => {
  it('underlines the reference a message names', () => {
    const line = '        sql: "100.0 * {completed_cnt} / NULLIF({count}, 0)"';
    expect(markerRange(line, 14, "Unresolved reference {completed_cnt} in measure 'orders.rate'")).toEqual({ startColumn: 23, endColumn: 38 });
  });

  it('underlines the value word at the column', () => {
    expect(markerRange('        type: running_total', 15, 'Unknown type')).toEqual({ startColumn: 15, endColumn: 28 });
  });

  it('underlines key and value at a key', () => {
    expect(markerRange('      - name: count', 9, 'Duplicate member')).toEqual({ startColumn: 9, endColumn: 20 });
  });

  it('underlines the line when the column is past its end', () => {
    expect(markerRange('  foo', 40, 'x')).toEqual({ startColumn: 3, endColumn: 6 });
  });
});

describe('the cube or view at the cursor, from a YAML file’s text (before the compiler has analysed it)', () => {
  const text = [
    'cubes:',
    '  - name: orders',
    '    sql_table: shop.orders',
    '    measures:',
    '      - name: count',
    '        type: count',
    '  - sql_table: shop.items',
    '    name: "line_items"',
    '',
    'views:',
    '  - name: product_sales',
    '    cubes:',
    '      - join_path: line_items',
  ].join('\n');
  it('is the item the line belongs to, not a member named inside it', () => {
    expect(enclosingEntityInText(text, 5)).toEqual({ name: 'orders', kind: 'cube' });
    expect(enclosingEntityInText(text, 8)).toEqual({ name: 'line_items', kind: 'cube' });
    expect(enclosingEntityInText(text, 13)).toEqual({ name: 'product_sales', kind: 'view' });
  });
  it('above the first item it is the first; a file with no cube or view has none', () => {
    expect(enclosingEntityInText(`# header\n${text}`, 1)).toEqual({ name: 'orders', kind: 'cube' });
    expect(enclosingEntityInText('data_source: default\n', 1)).toBeUndefined();
  });
});

describe('completion in model test files (tests/*.yml)', () => {
  const TEST = 'tests/orders.yml';
  it('offers the keys the test file schema allows where the cursor is, not the model’s', () => {
    expect(labels(complete('|', TEST))).toEqual(['description', 'data', 'tests']);
    expect(labels(complete('tests:\n  - name: counts\n    |', TEST))).toEqual(['description', 'query', 'data', 'expect']);
    expect(labels(complete('tests:\n  - name: counts\n    expect:\n      row_count: 1\n      |', TEST))).toEqual(expect.arrayContaining(['rows', 'values', 'totals_equal', 'not_null']));
    expect(labels(complete('tests:\n  - name: counts\n    expect:\n      row_count: 1\n      |', TEST))).not.toContain('row_count');
    expect(labels(complete('data:\n  |', TEST))).toEqual(['fixtures', 'data_source']);
  });

  it('offers the query keys under `query` and member names in its lists and in `member`', () => {
    expect(labels(complete('tests:\n  - name: counts\n    query:\n      |', TEST))).toEqual(expect.arrayContaining(['measures', 'dimensions', 'timeDimensions', 'filters']));
    expect(labels(complete('tests:\n  - name: counts\n    query:\n      measures:\n        - |', TEST))).toEqual(['customers.count', 'orders.count', 'orders.completed']);
    expect(labels(complete('tests:\n  - name: counts\n    query:\n      dimensions:\n        - |', TEST))).toEqual(expect.arrayContaining(['orders.status', 'overview.customers_name']));
    expect(labels(complete('tests:\n  - name: counts\n    expect:\n      values:\n        - member: |', TEST))).toContain('orders.completed');
  });
});
