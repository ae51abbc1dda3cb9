// The model test file (`tests/*.yml`, issue 26) as a JSON Schema: what the editor checks test files
// against, and what `parseTestFile` holds them to (the same object, so the two never disagree).

/** Where a model repository keeps its tests: YAML files directly in `tests/`. */
export const MODEL_TESTS_FOLDER = 'tests/';

export function isModelTestPath(path: string): boolean {
  return path.startsWith(MODEL_TESTS_FOLDER) && !path.slice(MODEL_TESTS_FOLDER.length).includes('/') && /\.ya?ml$/i.test(path);
}

/** A JSON Schema node, the subset the test schema uses. */
export interface SchemaNode {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null' | ('object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null')[];
  description?: string;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  minItems?: number;
  minLength?: number;
  minimum?: number;
  minProperties?: number;
  markdownDescription?: string;
}

const member = (description: string): SchemaNode => ({ type: 'string', minLength: 1, description });
const members = (description: string): SchemaNode => ({ type: 'array', items: member('`cube.member` or `view.member`'), minItems: 1, description });

/** A query in the platform's REST format; the model checks it (a query it refuses is a diagnostic). */
const QUERY: SchemaNode = {
  type: 'object',
  description: 'A query in the REST query format (`measures`, `dimensions`, `timeDimensions`, `filters`, `segments`, `order`, `limit`…).',
  additionalProperties: true,
};

const VALUE: SchemaNode = { type: ['string', 'number', 'boolean', 'null'], description: 'A value: numbers compare within the tolerance, anything else as text' };

const DATA: SchemaNode = {
  type: 'object',
  description: 'The data the tests run on: fixture tables loaded from files into a throwaway DuckDB, or a data source of the deployment.',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    fixtures: {
      type: 'object',
      description: 'Table name (`schema.table`, `table` or `catalog.schema.table`, as the cubes’ `sql_table` names it) → CSV or Parquet file, relative to the test file.',
      additionalProperties: { type: 'string', minLength: 1 },
      minProperties: 1,
    },
    data_source: { type: 'string', minLength: 1, description: 'A data source of the deployment (the service only: `drydock test` runs offline and skips these tests).' },
  },
};

const REFERENCE: SchemaNode = {
  type: 'object',
  description: 'A reference query and the member to read from it (default: the same member).',
  additionalProperties: false,
  required: ['query'],
  properties: { query: QUERY, member: member('Member of the reference query') },
};

const EXPECT: SchemaNode = {
  type: 'object',
  description: 'What the query must return. Every expectation listed must hold.',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    rows: {
      type: 'array',
      description: 'Exactly these rows (each compared on the members it names), in any order unless `ordered`.',
      items: { type: 'object', additionalProperties: VALUE },
    },
    ordered: { type: 'boolean', description: 'Compare `rows` in order.' },
    row_count: { type: 'integer', minimum: 0, description: 'The number of rows.' },
    not_null: members('Members that are never null'),
    unique: members('Members whose values (together) are unique across rows'),
    tolerance: { type: 'number', minimum: 0, description: 'Numbers closer than this are equal in `rows` (default 1e-9).' },
    values: {
      type: 'array',
      minItems: 1,
      description: 'A member’s value: equal to a constant (within `tolerance`), or within `within_percent` of a reference query’s value.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['member'],
        properties: {
          member: member('The member whose value is checked'),
          where: { type: 'object', description: 'The row whose dimensions have these values (default: the query must return one row).', additionalProperties: VALUE },
          equals: VALUE,
          tolerance: { type: 'number', minimum: 0, description: 'Absolute tolerance of `equals` (default 1e-9).' },
          within_percent: { type: 'number', minimum: 0, description: 'The value is within this percentage of the reference `of`.' },
          of: REFERENCE,
        },
      },
    },
    totals_equal: {
      type: 'array',
      minItems: 1,
      description: 'The total of a member over the rows equals the total of a member of another query (e.g. a measure through a view and through its cube).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['member', 'query'],
        properties: {
          member: member('Member of this test’s query'),
          query: QUERY,
          reference: member('Member of the other query (default: `member`)'),
          tolerance: { type: 'number', minimum: 0, description: 'Absolute tolerance (default 1e-9).' },
        },
      },
    },
  },
};

/** The schema of a test file. */
export const MODEL_TEST_FILE_SCHEMA: SchemaNode & { $schema: string; $id: string; title: string } = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://drydock.dev/schemas/model-tests.json',
  title: 'Drydock model tests',
  type: 'object',
  additionalProperties: false,
  required: ['tests'],
  properties: {
    description: { type: 'string' },
    data: DATA,
    tests: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'query', 'expect'],
        properties: {
          name: { type: 'string', minLength: 1, description: 'Names the test in reports; unique in its file.' },
          description: { type: 'string' },
          query: QUERY,
          data: DATA,
          expect: EXPECT,
        },
      },
    },
  },
};
