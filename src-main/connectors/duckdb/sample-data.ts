/**
 * Rows for the sample schema (`sample-tables.ts`), generated inside DuckDB from a fixed seed so
 * every install gets the same plausible web shop: customers in seven countries, a product catalog
 * in four departments, and orders with one to four line items each over 2024 and 2025, growing
 * over time, with order amounts equal to their line items' total. Nothing large is shipped: the
 * data is computed on first use (about a second for the default size).
 *
 * Randomness is integer arithmetic (a 32-bit multiply/xor-shift hash) so the numbers do not
 * depend on DuckDB's own hash or random functions, which may change between versions.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { SAMPLE_TABLES, type SampleColumnType } from '../sample-tables';
import { quoteIdent } from './engine';

export interface SampleDataOptions {
  /** Number of orders (default 50,000); customers and products scale with it. */
  orders?: number;
  seed?: number;
}

export const DEFAULT_SAMPLE_SEED = 20240101;
export const DEFAULT_SAMPLE_ORDERS = 50_000;

const DUCK_TYPES: Record<SampleColumnType, string> = {
  integer: 'BIGINT',
  decimal: 'DECIMAL(18,2)',
  string: 'VARCHAR',
  timestamp: 'TIMESTAMP',
  boolean: 'BOOLEAN',
};

const list = (values: string[]) => `[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`;

const FIRST = ['Ada', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kai', 'Lena', 'Mateo', 'Nora', 'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tara', 'Uma', 'Victor', 'Wen', 'Yara', 'Zoe'];
const LAST = ['Anders', 'Brooks', 'Chen', 'Diaz', 'Evans', 'Fischer', 'Garcia', 'Hughes', 'Ito', 'Jensen', 'Kowalski', 'Lopez', 'Martin', 'Nguyen', 'Okafor', 'Patel', 'Rossi', 'Schmidt', 'Tanaka', 'Walsh'];
const COMPANIES = ['Acme Corp', 'Globex', 'Initech', 'Umbrella Ltd', 'Stark Industries', 'Wayne Enterprises', 'Hooli', 'Vandelay Imports', 'Soylent', 'Cyberdyne'];
/** country → [state, city] pairs; weights below. */
const PLACES: [string, number, [string, string][]][] = [
  ['US', 40, [['CA', 'San Francisco'], ['CA', 'Los Angeles'], ['NY', 'New York'], ['TX', 'Austin'], ['WA', 'Seattle'], ['IL', 'Chicago']]],
  ['CA', 10, [['ON', 'Toronto'], ['BC', 'Vancouver'], ['QC', 'Montreal']]],
  ['GB', 12, [['England', 'London'], ['England', 'Manchester'], ['Scotland', 'Edinburgh']]],
  ['DE', 12, [['Berlin', 'Berlin'], ['Bavaria', 'Munich'], ['Hamburg', 'Hamburg']]],
  ['FR', 10, [['Ile-de-France', 'Paris'], ['Auvergne-Rhone-Alpes', 'Lyon']]],
  ['AU', 8, [['NSW', 'Sydney'], ['VIC', 'Melbourne']]],
  ['JP', 8, [['Tokyo', 'Tokyo'], ['Osaka', 'Osaka']]],
];
const CATEGORIES: [string, string, boolean][] = [
  ['Phones', 'Electronics', false],
  ['Laptops', 'Electronics', false],
  ['Audio', 'Electronics', false],
  ['Kitchen', 'Home', false],
  ['Furniture', 'Home', false],
  ['Garden', 'Home', false],
  ['Shoes', 'Apparel', false],
  ['Outerwear', 'Apparel', false],
  ['Accessories', 'Apparel', false],
  ['Cycling', 'Sports', false],
  ['Running', 'Sports', false],
  ['Camping', 'Sports', true],
];
const ADJECTIVES = ['Classic', 'Pro', 'Ultra', 'Eco', 'Smart', 'Compact', 'Deluxe', 'Urban', 'Trail', 'Studio'];
const NOUNS = ['One', 'Max', 'Lite', 'Air', 'Plus', 'Mini', 'X', 'Go', 'Prime', 'Flex'];

/** `CASE` picking from weighted options by a uniform value `u`. */
function weighted(u: string, options: [string, number][]): string {
  const total = options.reduce((s, [, w]) => s + w, 0);
  let acc = 0;
  const branches = options.map(([value, w]) => {
    acc += w;
    return `WHEN ${u} < ${(acc / total).toFixed(6)} THEN '${value}'`;
  });
  return `CASE ${branches.join(' ')} ELSE '${options[options.length - 1]![0]}' END`;
}

const pick = (values: string[], u: string) => `${list(values)}[1 + floor(${u} * ${values.length})::INTEGER]`;

/** Creates and fills the sample tables in `schema` (replacing them), in one transaction. */
export async function generateSampleData(connection: DuckDBConnection, schema: string, options: SampleDataOptions = {}): Promise<void> {
  const orders = options.orders ?? DEFAULT_SAMPLE_ORDERS;
  const seed = options.seed ?? DEFAULT_SAMPLE_SEED;
  const customers = Math.max(50, Math.round(orders / 10));
  const products = Math.max(20, Math.min(2000, Math.round(orders / 250)));
  const s = quoteIdent(schema);
  const r = (i: string, salt: number) => `dd_rnd(${i}, ${salt})`;
  const countries: [string, number][] = PLACES.map(([c, w]) => [c, w]);
  const stateOf = PLACES.map(([c, , places]) => `WHEN country = '${c}' THEN ${pick(places.map((p) => p[0]), r('id', 7))}`).join(' ');
  const cityOf = PLACES.map(([c, , places]) => `WHEN country = '${c}' THEN ${pick(places.map((p) => p[1]), r('id', 7))}`).join(' ');
  const ddl = SAMPLE_TABLES.map(
    (t) => `CREATE OR REPLACE TABLE ${s}.${quoteIdent(t.name)} (${t.columns.map((c) => `${quoteIdent(c.name)} ${DUCK_TYPES[c.type]}`).join(', ')})`,
  );
  const statements = [
    // A 32-bit integer hash (two multiply/xor-shift rounds); every product fits in BIGINT.
    `CREATE OR REPLACE TEMP MACRO dd_mix(x) AS ((xor(x, x >> 16) * 73244475) & 4294967295)`,
    `CREATE OR REPLACE TEMP MACRO dd_rnd(i, salt) AS (xor(dd_mix(dd_mix(((i) * 97 + (salt) * 1000003 + ${seed}) & 4294967295)), dd_mix(dd_mix(((i) * 97 + (salt) * 1000003 + ${seed}) & 4294967295)) >> 16) / 4294967296.0)`,
    `CREATE SCHEMA IF NOT EXISTS ${s}`,
    ...ddl,
    `INSERT INTO ${s}.categories SELECT i, name, parent, archived FROM (VALUES ${CATEGORIES.map(([n, p, a], i) => `(${i + 1}, '${n}', '${p}', ${a})`).join(', ')}) AS v(i, name, parent, archived)`,
    `INSERT INTO ${s}.products
       SELECT id,
              1 + floor(${r('id', 11)} * ${CATEGORIES.length})::BIGINT,
              ${pick(ADJECTIVES, r('id', 12))} || ' ' || ${pick(NOUNS, r('id', 13))} || ' ' || id,
              round(5 + pow(${r('id', 14)}, 2) * 495, 2)::DECIMAL(18,2),
              TIMESTAMP '2022-01-01' + to_seconds((${r('id', 15)} * 4 * 365 * 86400)::BIGINT)
       FROM range(1, ${products + 1}) AS t(id)`,
    `INSERT INTO ${s}.customers
       SELECT id, first_name, last_name,
              lower(first_name || '.' || last_name || id || '@example.com'),
              CASE WHEN ${r('id', 4)} < 0.3 THEN ${pick(COMPANIES, r('id', 5))} END,
              country,
              CASE ${stateOf} END,
              CASE ${cityOf} END,
              TIMESTAMP '2023-01-01' + to_seconds((${r('id', 6)} * 3 * 365 * 86400)::BIGINT)
       FROM (SELECT id, ${pick(FIRST, r('id', 1))} AS first_name, ${pick(LAST, r('id', 2))} AS last_name, ${weighted(r('id', 3), countries)} AS country
             FROM range(1, ${customers + 1}) AS t(id))`,
    `INSERT INTO ${s}.line_items
       SELECT (order_id - 1) * 5 + k, order_id, product_id, quantity,
              round(p.list_price * (0.8 + 0.2 * ${r('order_id * 8 + k', 24)}), 2)::DECIMAL(18,2)
       FROM (SELECT o AS order_id, k,
                    1 + floor(${r('o * 8 + k', 22)} * ${products})::BIGINT AS product_id,
                    1 + floor(pow(${r('o * 8 + k', 23)}, 2) * 5)::BIGINT AS quantity
             FROM range(1, ${orders + 1}) AS t(o), range(1, 2 + floor(${r('o', 21)} * 4)::BIGINT) AS u(k)) AS li
       JOIN ${s}.products AS p ON p.id = li.product_id`,
    // Orders grow over the two years (sqrt skews towards later dates); amounts are their items' total.
    `INSERT INTO ${s}.orders
       SELECT o.id,
              1 + floor(pow(${r('o.id', 31)}, 1.6) * ${customers})::BIGINT,
              o.status,
              COALESCE(li.total, 0)::DECIMAL(18,2),
              o.created_at,
              CASE WHEN o.status = 'placed' THEN NULL ELSE o.created_at + to_seconds((3600 + ${r('o.id', 33)} * 5 * 86400)::BIGINT) END
       FROM (SELECT id, ${weighted(r('id', 32), [['completed', 55], ['shipped', 20], ['placed', 15], ['returned', 10]])} AS status,
                    TIMESTAMP '2024-01-01' + to_seconds((sqrt(${r('id', 34)}) * 731 * 86400)::BIGINT) AS created_at
             FROM range(1, ${orders + 1}) AS t(id)) AS o
       LEFT JOIN (SELECT order_id, SUM(quantity * unit_price) AS total FROM ${s}.line_items GROUP BY order_id) AS li ON li.order_id = o.id`,
  ];
  await connection.run('BEGIN TRANSACTION');
  try {
    for (const sql of statements) await connection.run(sql);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
