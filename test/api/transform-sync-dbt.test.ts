import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compileModel } from '../../src-shared/model';
import { filePathProblem } from '../../src-shared/api/data-model';
import { checkManifest, dimensionType, generateCubes, modelName, refTarget } from '../../src-main/features/transform-sync/dbt';

type Cube = { name: string; sql_table: string; joins?: { name: string; sql: string }[]; dimensions?: Record<string, unknown>[]; measures: Record<string, unknown>[] };
const cubesOf = (manifest: unknown) => {
  const result = generateCubes(manifest, { outputPath: 'model/dbt' });
  return { ...result, cubes: Object.fromEntries(result.files.map((f) => [f.cube, (parse(f.content) as { cubes: Cube[] }).cubes[0]])) };
};

const node = (name: string, extra: Record<string, unknown> = {}) => ({
  unique_id: `model.p.${name}`,
  resource_type: 'model',
  name,
  package_name: 'p',
  database: 'db',
  schema: 'sch',
  alias: name,
  columns: {},
  ...extra,
});

describe('dbt manifest → cubes', () => {
  it('rejects what is not a dbt manifest', () => {
    expect(() => checkManifest([])).toThrow(/not a JSON object/);
    expect(() => checkManifest({ metadata: {} })).toThrow(/no `nodes`/);
    expect(() => checkManifest({ nodes: { x: { name: 'x' } } })).toThrow(/resource_type/);
    expect(() => checkManifest({ nodes: {} })).not.toThrow();
  });

  it('reads tests of older manifests (no attached_node) through the ref() of their model argument', () => {
    const { cubes } = cubesOf({
      nodes: {
        a: node('orders', { columns: { id: { name: 'id' } } }),
        b: node('customers', { columns: { id: { name: 'id' } } }),
        t1: { resource_type: 'test', name: 'u', test_metadata: { name: 'unique', kwargs: { column_name: 'id', model: "{{ get_where_subquery(ref('orders')) }}" } } },
        t2: { resource_type: 'test', name: 'n', test_metadata: { name: 'not_null', kwargs: { column_name: 'id', model: "{{ get_where_subquery(ref('orders')) }}" } } },
        t3: {
          resource_type: 'test',
          name: 'r',
          test_metadata: { name: 'relationships', kwargs: { column_name: 'customer_id', to: 'ref("customers")', field: 'id', model: "{{ get_where_subquery(ref('orders')) }}" } },
        },
      },
    });
    expect(cubes.orders.dimensions?.find((d) => d.name === 'id')?.primary_key).toBe(true);
    expect(cubes.customers.dimensions?.find((d) => d.name === 'id')?.primary_key).toBeUndefined();
    expect(cubes.orders.joins).toEqual([{ name: 'customers', sql: '{CUBE}.customer_id = {customers}.id', relationship: 'many_to_one' }]);
    // No relation_name: the relation is database.schema.alias.
    expect(cubes.orders.sql_table).toBe('db.sch.orders');
  });

  it('takes primary keys from primary-key constraints too, and warns about several key columns', () => {
    const { cubes, warnings } = cubesOf({
      nodes: {
        a: node('events', { columns: { event_id: { name: 'event_id', constraints: [{ type: 'primary_key' }] }, alt_id: { name: 'alt_id' } } }),
        b: node('sessions', { constraints: [{ type: 'primary_key', columns: ['session_id'] }] }),
        u: { resource_type: 'test', name: 'u', attached_node: 'model.p.events', test_metadata: { name: 'unique', kwargs: { column_name: 'alt_id' } } },
        n: { resource_type: 'test', name: 'n', attached_node: 'model.p.events', test_metadata: { name: 'not_null', kwargs: { column_name: 'alt_id' } } },
      },
    });
    expect(cubes.events.dimensions?.filter((d) => d.primary_key).map((d) => d.name)).toEqual(['alt_id']);
    expect(warnings.some((w) => w.includes('several key columns'))).toBe(true);
    // A key column the model does not document still becomes a dimension.
    expect(cubes.sessions.dimensions).toEqual([{ name: 'session_id', sql: 'session_id', type: 'string', primary_key: true }]);
  });

  it('quotes columns that are not plain identifiers and makes names usable as cube and member names', () => {
    const { cubes, files } = cubesOf({ nodes: { a: node('2024 Orders', { columns: { 'Order Total': { name: 'Order Total', data_type: 'DOUBLE' } } }) } });
    expect(Object.keys(cubes)).toEqual(['_2024_Orders']);
    expect(cubes._2024_Orders.dimensions).toEqual([{ name: 'Order_Total', sql: '"Order Total"', type: 'number' }]);
    expect(compileModel(files.map((f) => ({ path: f.path, content: f.content }))).valid).toBe(true);
    expect(modelName('--x--')).toBe('x');
  });

  it('joins a cube to another at most once and warns about relationships to models that are not generated', () => {
    const rel = (column: string, to: string) => ({
      resource_type: 'test',
      name: `r_${column}`,
      attached_node: 'model.p.orders',
      test_metadata: { name: 'relationships', kwargs: { column_name: column, to: `ref('${to}')`, field: 'id' } },
    });
    const { cubes, warnings } = cubesOf({
      nodes: { a: node('orders'), b: node('customers'), r1: rel('billing_customer_id', 'customers'), r2: rel('shipping_customer_id', 'customers'), r3: rel('store_id', 'stores') },
    });
    expect(cubes.orders.joins).toEqual([{ name: 'customers', sql: '{CUBE}.billing_customer_id = {customers}.id', relationship: 'many_to_one' }]);
    expect(warnings.some((w) => w.includes('shipping_customer_id'))).toBe(true);
    expect(warnings.some((w) => w.includes('"stores"'))).toBe(true);
    expect(warnings.some((w) => w.includes('no primary key'))).toBe(true);
  });

  it('maps declared data types, else common column naming, to dimension types', () => {
    expect(dimensionType({ name: 'x', data_type: 'TIMESTAMP_NTZ' })).toBe('time');
    expect(dimensionType({ name: 'x', data_type: 'timestamp with time zone' })).toBe('time');
    expect(dimensionType({ name: 'x', data_type: 'NUMBER(38,0)' })).toBe('number');
    expect(dimensionType({ name: 'x', data_type: 'bool' })).toBe('boolean');
    expect(dimensionType({ name: 'x', data_type: 'varchar(20)' })).toBe('string');
    expect(dimensionType({ name: 'created_at' })).toBe('time');
    expect(dimensionType({ name: 'has_discount' })).toBe('boolean');
    expect(dimensionType({ name: 'customer_id' })).toBe('string');
  });

  it('reads ref() targets with one or two arguments and either quote', () => {
    expect(refTarget("ref('customers')")).toBe('customers');
    expect(refTarget('ref("pkg", "customers")')).toBe('customers');
    expect(refTarget("ref('customers', v=2)")).toBe('customers');
    expect(refTarget("source('raw', 'customers')")).toBeNull();
    expect(refTarget(42)).toBeNull();
  });

  it('names the row count row_count when a column is already called count', () => {
    const { cubes } = cubesOf({ nodes: { a: node('tallies', { columns: { count: { name: 'count', data_type: 'int' } } }) } });
    expect(cubes.tallies.measures).toEqual([{ name: 'row_count', type: 'count' }]);
  });

  it('writes a model named like a Windows device (con, aux, com1) to a file Windows can hold, keeping the cube name (issue 23)', () => {
    const { files } = cubesOf({ nodes: { a: node('con'), b: node('AUX'), c: node('com1'), d: node('orders') } });
    expect(files.map((f) => [f.cube, f.path])).toEqual([
      ['AUX', 'model/dbt/AUX_.yml'],
      ['com1', 'model/dbt/com1_.yml'],
      ['con', 'model/dbt/con_.yml'],
      ['orders', 'model/dbt/orders.yml'],
    ]);
    for (const f of files) expect(filePathProblem(f.path), f.path).toBeNull();
  });
});
