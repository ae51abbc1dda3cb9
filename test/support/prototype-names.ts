// Names that are also properties of every JavaScript object (issue 23). A model may use any of them
// for a cube, a view or a member: each must work like any other name, in YAML and in JS models.
// Shared by the compiler's and the data API's tests and by the fuzzer's dictionary.

export const PROTOTYPE_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'] as const;

/**
 * One YAML file of a cube per name over `table`: each with a primary key, a dimension named like
 * its cube, `created_at`, `count` and `valueOf_total`.
 */
export function prototypeNamedCubesYaml(table: string, names: readonly string[] = PROTOTYPE_NAMES): string {
  const cube = (name: string) => `  - name: ${name}
    sql_table: ${table}
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: ${name}
        sql: status
        type: string
      - name: created_at
        sql: created_at
        type: time
    measures:
      - name: count
        type: count
      - name: valueOf_total
        sql: amount
        type: sum
`;
  return `cubes:\n${names.map(cube).join('')}`;
}

/** The same cubes in a JavaScript model file, each name prefixed with `prefix`. */
export function prototypeNamedCubesJs(table: string, prefix = 'js_', names: readonly string[] = PROTOTYPE_NAMES): string {
  const cube = (name: string) => `cube(\`${prefix}${name}\`, {
  sql_table: \`${table}\`,
  dimensions: {
    id: { sql: \`id\`, type: \`number\`, primary_key: true },
    ${name}: { sql: \`status\`, type: \`string\` },
  },
  measures: {
    count: { type: \`count\` },
  },
});
`;
  return names.map(cube).join('\n');
}

/** A view per name over the cube of that name, exposing every member. */
export function prototypeNamedViewsYaml(names: readonly string[] = PROTOTYPE_NAMES): string {
  return `views:\n${names.map((name) => `  - name: v_${name}\n    cubes:\n      - join_path: ${name}\n        includes: "*"\n`).join('')}`;
}
