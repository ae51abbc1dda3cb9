import { describe, expect, it } from 'vitest';
import { MAX_METRIC_VIEW_YAML_CHARS, parseMetricViewYaml, validateMetricViewYaml } from '../../../../src-main/connectors/lakehouse';
import { yamlAliasBomb } from '../../../support/model-bombs';
import { ORDERS_YAML } from './fixtures';

const problemsOf = (yaml: string, columns?: Record<string, string[]>) =>
  validateMetricViewYaml(yaml, { columnsOf: (parts) => columns?.[parts.join('.')] }).problems;

const minimal = (body: string) => `version: 1.1\nsource: main.default.orders\n${body}`;
/** A minimal definition with the joins given (a YAML list) and one measure `n`. */
const withJoins = (joins: string) => minimal(`joins:\n${joins.replace(/^\n/, '')}measures:\n  - name: n\n    expr: COUNT(1)\n`);

describe('metric view YAML validation (specification 1.1)', () => {
  it('accepts a complete definition with joins, display names, synonyms and formats', () => {
    const result = validateMetricViewYaml(ORDERS_YAML);
    expect(result.problems).toEqual([]);
    expect(result.tables.map((t) => t.parts.join('.'))).toEqual(['main.default.orders', 'main.default.customers']);
  });

  it('rejects unknown top-level keys', () => {
    const problems = problemsOf(minimal('dimensions:\n  - name: s\n    expr: status\ncubes: []\n'));
    expect(problems).toEqual([expect.stringContaining('unknown top-level key "cubes"')]);
  });

  it('requires a source', () => {
    const problems = problemsOf('version: 1.1\nmeasures:\n  - name: n\n    expr: COUNT(1)\n');
    expect(problems).toEqual([expect.stringContaining('"source" is required')]);
  });

  it('requires a supported specification version (0.1 or 1.1) and names them when it is wrong or missing', () => {
    expect(problemsOf('version: 2.0\nsource: main.default.orders\nmeasures:\n  - name: n\n    expr: COUNT(1)\n')).toEqual([
      expect.stringMatching(/^Invalid YAML version: 2\.0 \(supported: 0\.1, 1\.1\)$/),
    ]);
    expect(problemsOf('source: main.default.orders\nmeasures:\n  - name: n\n    expr: COUNT(1)\n')).toEqual([
      expect.stringContaining('"version" is required'),
    ]);
    expect(problemsOf('version: "1.1"\nsource: main.default.orders\nmeasures:\n  - name: n\n    expr: COUNT(1)\n')).toEqual([]);
  });

  it('rejects a measure whose expression has no aggregate', () => {
    const problems = problemsOf(minimal('measures:\n  - name: amount\n    expr: source.amount * 2\n'));
    expect(problems).toEqual([expect.stringContaining('measures[0] (amount): a measure expression must use an aggregate')]);
  });

  it('does not take an aggregate name inside a string literal for an aggregate', () => {
    const problems = problemsOf(minimal(`measures:\n  - name: label\n    expr: "CONCAT('SUM(', status, ')')"\n`));
    expect(problems).toEqual([expect.stringContaining('must use an aggregate')]);
  });

  it('accepts MEASURE() composition of another measure and rejects MEASURE() of an unknown one', () => {
    const ok = minimal('measures:\n  - name: revenue\n    expr: SUM(amount)\n  - name: orders\n    expr: COUNT(1)\n  - name: aov\n    expr: MEASURE(revenue) / MEASURE(orders)\n');
    expect(problemsOf(ok)).toEqual([]);
    const bad = minimal('measures:\n  - name: revenue\n    expr: SUM(amount)\n  - name: ratio\n    expr: MEASURE(revenue) / MEASURE(margin)\n');
    expect(problemsOf(bad)).toEqual([expect.stringContaining('MEASURE(margin) refers to no measure')]);
  });

  it('rejects an aggregate in a dimension or in the filter', () => {
    expect(problemsOf(minimal('dimensions:\n  - name: total\n    expr: SUM(amount)\n'))).toEqual([
      expect.stringContaining('a dimension expression cannot use an aggregate'),
    ]);
    expect(problemsOf(minimal('filter: COUNT(1) > 2\ndimensions:\n  - name: s\n    expr: status\n'))).toEqual([
      expect.stringContaining('filter: aggregate functions are not allowed'),
    ]);
  });

  it('rejects a dimension that references an unknown join alias', () => {
    const problems = problemsOf(minimal('dimensions:\n  - name: region\n    expr: customer.region\n'));
    expect(problems).toEqual([expect.stringContaining('"customer" is not "source" or a join name')]);
  });

  it('accepts references to nested (snowflake) join names and ignores dots inside literals and function names', () => {
    const yaml = minimal(`joins:
  - name: customer
    source: main.default.customers
    'on': source.customer_id = customer.id
    joins:
      - name: nation
        source: main.default.products
        using: [id]
dimensions:
  - name: nation_name
    expr: customer.nation.name
  - name: label
    expr: "CASE WHEN status = 'a.b' THEN system.builtin.lower(status) ELSE 'x.y' END"
  - name: ratio
    expr: source.amount * 1.5
`);
    expect(problemsOf(yaml)).toEqual([]);
  });

  it('accepts a struct field of a known source column as not being a join alias', () => {
    const yaml = minimal('dimensions:\n  - name: city\n    expr: address.city\n');
    expect(problemsOf(yaml, { 'main.default.orders': ['id', 'address'] })).toEqual([]);
    expect(problemsOf(yaml, { 'main.default.orders': ['id'] })).toEqual([expect.stringContaining('"address" is not')]);
  });

  it('rejects duplicate names across dimensions and measures, case-insensitively', () => {
    const problems = problemsOf(minimal('dimensions:\n  - name: Status\n    expr: status\nmeasures:\n  - name: status\n    expr: COUNT(1)\n'));
    expect(problems).toEqual([expect.stringContaining('measures[0]: duplicate name "status" (first used by dimensions[0])')]);
  });

  it('rejects duplicate join names and a join named source', () => {
    const yaml = withJoins(`
  - name: c
    source: main.default.customers
    using: [id]
  - name: C
    source: main.default.customers
    using: [id]
  - name: source
    source: main.default.products
    using: [id]
`);
    const problems = problemsOf(yaml);
    expect(problems).toContainEqual(expect.stringContaining('duplicate join name "C"'));
    expect(problems).toContainEqual(expect.stringContaining('a join cannot be named "source"'));
  });

  it('requires exactly one of on and using on each join, and a join source', () => {
    const yaml = withJoins(`
  - name: a
    source: main.default.customers
  - name: b
    source: main.default.customers
    'on': source.customer_id = b.id
    using: [id]
  - name: c
    using: [id]
`);
    const problems = problemsOf(yaml);
    expect(problems).toContainEqual(expect.stringContaining('joins[0] (a): a join needs "on" or "using"'));
    expect(problems).toContainEqual(expect.stringContaining('joins[1] (b): use either "on" or "using", not both'));
    expect(problems).toContainEqual(expect.stringContaining('joins[2] (c): "source" is required'));
  });

  it('reads an unquoted on key as the key "on": metric view YAML is standard YAML 1.2', () => {
    const yaml = withJoins(`
  - name: customer
    source: main.default.customers
    on: source.customer_id = customer.id
`);
    expect(problemsOf(yaml)).toEqual([]);
  });

  it('rejects unknown keys in dimensions, measures and windows', () => {
    const yaml = minimal(`dimensions:
  - name: s
    expr: status
    type: string
measures:
  - name: n
    expr: COUNT(1)
    drill_members: [s]
    window:
      - order: s
        range: cumulative
        frame: rows
`);
    const problems = problemsOf(yaml);
    expect(problems).toContainEqual(expect.stringContaining('dimensions[0]: unknown key "type"'));
    expect(problems).toContainEqual(expect.stringContaining('measures[0]: unknown key "drill_members"'));
    expect(problems).toContainEqual(expect.stringContaining('measures[0].window[0]: unknown key "frame"'));
  });

  it('requires at least one dimension or measure, each with name and expr', () => {
    expect(problemsOf('version: 1.1\nsource: main.default.orders\n')).toEqual([
      expect.stringContaining('at least one field (dimension) or measure is required'),
    ]);
    const problems = problemsOf(minimal('dimensions:\n  - expr: status\n  - name: x\n'));
    expect(problems).toContainEqual('dimensions[0]: "name" is required');
    expect(problems).toContainEqual('dimensions[1] (x): "expr" is required');
  });

  it('reports YAML that does not parse', () => {
    expect(problemsOf('version: 1.1\nsource: [unclosed\n')[0]).toMatch(/^YAML does not parse/);
  });

  it('lists the tables a SQL query source reads, skipping CTE names', () => {
    const yaml = `version: 1.1
source: |
  WITH recent AS (SELECT * FROM main.default.orders WHERE created_at > '2024-01-01 from x')
  SELECT r.*, c.region FROM recent r JOIN main.default.customers c ON r.customer_id = c.id
measures:
  - name: n
    expr: COUNT(1)
`;
    const result = validateMetricViewYaml(yaml);
    expect(result.problems).toEqual([]);
    expect(result.tables.map((t) => t.parts.join('.'))).toEqual(['main.default.orders', 'main.default.customers']);
  });
});

describe('metric view column resolution (when the tables’ columns are known)', () => {
  const columns = {
    'main.default.orders': ['id', 'customer_id', 'amount', 'created_at', 'details'],
    'main.default.customers': ['id', 'region', 'product_id'],
    'main.default.products': ['id', 'category'],
  };
  const errorsOf = (yaml: string) => validateMetricViewYaml(yaml, { columnsOf: (parts) => columns[parts.join('.') as keyof typeof columns] }).errors;
  const snowflake = (expr: string) =>
    minimal(`joins:
  - name: buyer
    source: main.default.customers
    'on': source.customer_id = buyer.id
    joins:
      - name: item
        source: main.default.products
        'on': buyer.product_id = item.id
fields:
  - name: f
    expr: ${expr}
measures:
  - name: n
    expr: COUNT(1)
`);

  it('resolves a snowflake join by its path: a column of the nested join is known, a missing one is UNRESOLVED_COLUMN named by the path', () => {
    expect(errorsOf(snowflake('buyer.item.category'))).toEqual([]);
    expect(errorsOf(snowflake('buyer.item.categry'))).toEqual([
      expect.objectContaining({ errorClass: 'UNRESOLVED_COLUMN.WITH_SUGGESTION', text: expect.stringMatching(/^A column, variable, or function parameter with name `buyer`\.`item`\.`categry` cannot be resolved\. Did you mean one of the following\? \[`item`\.`category`/) }),
    ]);
  });

  it('reads a field of a struct column as a column reference (source.details.sku is the column details)', () => {
    expect(errorsOf(minimal('fields:\n  - name: sku\n    expr: source.details.sku\nmeasures:\n  - name: n\n    expr: COUNT(1)\n'))).toEqual([]);
  });

  it('leaves columns unchecked when the table’s columns are not known', () => {
    expect(validateMetricViewYaml(minimal('measures:\n  - name: n\n    expr: SUM(source.whatever)\n')).errors).toEqual([]);
  });

  it('does not take a qualified function call or a string literal for a column', () => {
    expect(errorsOf(minimal("fields:\n  - name: d\n    expr: \"system.builtin.upper('source.nope')\"\nmeasures:\n  - name: n\n    expr: COUNT(1)\n"))).toEqual([]);
  });
});

describe('metric view YAML built to exhaust the reader (issue 23)', () => {
  it('an alias bomb is a validation problem and LAKEHOUSE_INVALID_DEFINITION, at once and without expanding it', () => {
    const bomb = `version: 1.1\nsource: main.default.orders\n${yamlAliasBomb()}`;
    const started = performance.now();
    expect(problemsOf(bomb)).toEqual([expect.stringContaining('too complex')]);
    expect(() => parseMetricViewYaml(bomb)).toThrow(expect.objectContaining({ code: 'LAKEHOUSE_INVALID_DEFINITION' }));
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('a definition over 8 MiB is refused unread', () => {
    const huge = `version: 1.1\nsource: main.default.orders\n#${'x'.repeat(MAX_METRIC_VIEW_YAML_CHARS)}`;
    expect(problemsOf(huge)).toEqual([expect.stringContaining('more than')]);
    expect(() => parseMetricViewYaml(huge)).toThrow(expect.objectContaining({ code: 'LAKEHOUSE_INVALID_DEFINITION' }));
  });

  it('anchors and aliases within the bound still read', () => {
    const yaml = minimal('dimensions:\n  - name: s\n    expr: &e status\n  - name: t\n    expr: *e\nmeasures:\n  - name: n\n    expr: COUNT(1)\n');
    expect(problemsOf(yaml)).toEqual([]);
  });
});
