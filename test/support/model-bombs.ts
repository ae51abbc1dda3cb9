// Model files written to exhaust a reader (issue 23), shared by the compiler's, the service's and
// the CLI's tests and by the fuzzer's dictionary (fuzz-tricks-model.ts).

/**
 * The "billion laughs" shape in YAML: ten levels of anchored lists, each of ten aliases of the
 * level before; fully expanded, the last level is 10^10 values, from 390 bytes.
 */
export function yamlAliasBomb(levels = 10, width = 10): string {
  const names = 'abcdefghijklmnopqrstuvwxyz'.slice(0, levels).split('');
  const lines = names.map((name, i) => {
    const items = new Array<string>(width).fill(i === 0 ? '"x"' : `*${names[i - 1]}`);
    return `${name}: &${name} [${items.join(',')}]`;
  });
  return `${lines.join('\n')}\n`;
}

/**
 * The same in a JavaScript model: each constant is a template of the one before, twice; the cube's
 * `sql` would be 2^`levels` copies of the first string.
 */
export function jsStringBomb(levels = 40): string {
  const lines = ["const s0 = 'SELECT 1 AS x UNION ALL ';"];
  for (let i = 1; i <= levels; i++) lines.push(`const s${i} = \`\${s${i - 1}}\${s${i - 1}}\`;`);
  lines.push(`cube(\`bomb\`, { sql: s${levels}, measures: { count: { type: \`count\` } } });`);
  return `${lines.join('\n')}\n`;
}

/** A JavaScript model whose one value nests `depth` arrays deep. */
export const jsDeepNesting = (depth = 100_000): string => `cube(\`deep\`, { sql_table: 't', meta: ${'['.repeat(depth)}${']'.repeat(depth)} });\n`;

/** A YAML file whose one value nests `depth` flow lists deep. */
export const yamlDeepNesting = (depth = 100_000): string => `cubes: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
