// Hand-written models at the edges of the rules, compiled by both compilers in the differential
// suite next to the generated ones: spellings each format allows, references written different
// ways, and mistakes users make. Each is a YAML or JavaScript file as a user would write it.
import type { ModelFile } from '../../src-shared/model/types';

export interface EdgeCase {
  name: string;
  files: ModelFile[];
}

const yml = (content: string): ModelFile[] => [{ path: 'model/model.yml', content }];
const js = (content: string): ModelFile[] => [{ path: 'model/model.js', content }];

const CUSTOMERS_YML = `cubes:
  - name: customers
    sql_table: public.customers
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: city
        sql: city
        type: string
      - name: status
        sql: status
        type: string
    measures:
      - name: count
        type: count
`;

const ORDERS_YML = `  - name: orders
    sql_table: public.orders
    joins:
      - name: customers
        sql: "{CUBE}.customer_id = {customers.id}"
        relationship: many_to_one
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: created_at
        sql: created_at
        type: time
    measures:
      - name: count
        type: count
`;

const withHierarchy = (levels: string): string => `cube("customers", {
  sqlTable: "public.customers",
  dimensions: {
    id: { sql: \`id\`, type: "number", primaryKey: true },
    city: { sql: \`city\`, type: "string" },
    status: { sql: \`status\`, type: "string" }
  },
  hierarchies: { place: { title: "Place", levels: ${levels} } }
});
`;

export const EDGE_CASES: EdgeCase[] = [
  { name: 'a minimal cube', files: yml(CUSTOMERS_YML) },
  { name: 'two joined cubes', files: yml(CUSTOMERS_YML + ORDERS_YML) },
  { name: 'JS hierarchy levels as CUBE references', files: js(withHierarchy('[CUBE.city, CUBE.status]')) },
  { name: 'JS hierarchy levels as bare member names', files: js(withHierarchy('[city, status]')) },
  { name: 'YAML hierarchy levels as CUBE references', files: yml(CUSTOMERS_YML + '    hierarchies:\n      - name: place\n        levels: [CUBE.city]\n') },
  { name: 'YAML hierarchy levels as bare names', files: yml(CUSTOMERS_YML + '    hierarchies:\n      - name: place\n        levels: [city]\n') },
  { name: 'YAML hierarchy levels as cube-qualified names', files: yml(CUSTOMERS_YML + '    hierarchies:\n      - name: place\n        levels: [customers.city]\n') },
  { name: 'a view whose join path walks a join backwards', files: yml(CUSTOMERS_YML + ORDERS_YML + 'views:\n  - name: by_customer\n    cubes:\n      - join_path: customers.orders\n        includes: [created_at]\n') },
  { name: 'a view over a join path', files: yml(CUSTOMERS_YML + ORDERS_YML + 'views:\n  - name: sales\n    cubes:\n      - join_path: orders\n        includes: "*"\n        prefix: true\n      - join_path: orders.customers\n        includes:\n          - name: city\n            alias: town\n') },
  { name: 'a measure type in camelCase in YAML', files: yml(CUSTOMERS_YML + '      - name: unique_cities\n        sql: city\n        type: countDistinct\n') },
  { name: 'a measure type in snake_case in JS', files: js('cube("c", {\n  sqlTable: "t",\n  dimensions: { id: { sql: `id`, type: "number", primaryKey: true } },\n  measures: { n: { sql: `id`, type: "count_distinct" } }\n});\n') },
  { name: 'a relationship written has_many', files: yml(CUSTOMERS_YML.replace('    dimensions:', '    joins:\n      - name: orders\n        sql: "{CUBE}.id = {orders.customer_id}"\n        relationship: has_many\n    dimensions:') + ORDERS_YML.replace('    joins:\n      - name: customers\n        sql: "{CUBE}.customer_id = {customers.id}"\n        relationship: many_to_one\n', '')) },
  { name: 'a cube without a primary key but with joins', files: yml(CUSTOMERS_YML + ORDERS_YML.replace('        primary_key: true\n', '')) },
  { name: 'a dimension named like a measure', files: yml(CUSTOMERS_YML + '      - name: city\n        sql: city\n        type: count_distinct\n') },
  { name: 'a rolling window without a time dimension', files: yml(CUSTOMERS_YML + '      - name: running\n        sql: id\n        type: sum\n        rolling_window:\n          trailing: 7 day\n') },
  { name: 'a refresh key in cron form', files: yml(CUSTOMERS_YML + '    refresh_key:\n      every: "0 * * * *"\n      timezone: Europe/Paris\n') },
  { name: 'a refresh key with an unknown time zone', files: yml(CUSTOMERS_YML + '    refresh_key:\n      every: "0 * * * *"\n      timezone: Mars/Olympus\n') },
  { name: 'a d3 numeric format on a measure', files: yml(CUSTOMERS_YML.replace('        type: count\n', '        type: count\n        format: ",.2f"\n')) },
  { name: 'a named numeric format on a measure', files: yml(CUSTOMERS_YML.replace('        type: count\n', '        type: count\n        format: percent_2\n')) },
  { name: 'a link format on a dimension', files: yml(CUSTOMERS_YML.replace('        sql: city\n        type: string\n', '        sql: city\n        type: string\n        format:\n          type: link\n          label: Open\n')) },
  { name: 'a description that is a number', files: yml(CUSTOMERS_YML.replace('        type: count\n', '        type: count\n        description: 7\n')) },
  { name: 'a reference cut short after the dot', files: yml(CUSTOMERS_YML + ORDERS_YML + '      - name: broken\n        sql: "{customers.}"\n        type: string\n') },
  { name: 'a reference that starts with a dot', files: yml(CUSTOMERS_YML + '      - name: dotted\n        sql: "{.city}"\n        type: string\n') },
  { name: 'a reference that starts with a dot and names no member', files: yml(CUSTOMERS_YML + '      - name: dotted\n        sql: "{.town}"\n        type: string\n') },
  { name: 'a reference that is only a dot', files: yml(CUSTOMERS_YML + '      - name: dotted\n        sql: "{.}"\n        type: string\n') },
  { name: 'a cube as a table followed by a dot and no column (compiles; a query fails)', files: yml(CUSTOMERS_YML + '      - name: dangling\n        sql: "{CUBE}."\n        type: string\n') },
  { name: 'a JS template literal with literal braces around an incomplete name', files: js('cube("c", {\n  sqlTable: "t",\n  dimensions: { id: { sql: `id`, type: "number", primaryKey: true }, b: { sql: `{c.}`, type: "string" } }\n});\n') },
  { name: 'an empty file', files: yml('') },
  { name: 'a view including everything from a cube with a hierarchy', files: yml(CUSTOMERS_YML + '    hierarchies:\n      - name: place\n        levels: [city]\nviews:\n  - name: people\n    cubes:\n      - join_path: customers\n        includes: "*"\n') },
  { name: 'a view listing the same join path twice', files: yml(CUSTOMERS_YML + 'views:\n  - name: people\n    cubes:\n      - join_path: customers\n        includes: [id, city, count]\n      - join_path: customers\n        includes: [id]\n') },
  { name: 'a view including one member through two join paths under one name', files: yml(CUSTOMERS_YML + ORDERS_YML + 'views:\n  - name: sales\n    cubes:\n      - join_path: customers\n        includes: [city]\n      - join_path: orders.customers\n        includes: [city]\n') },
];
