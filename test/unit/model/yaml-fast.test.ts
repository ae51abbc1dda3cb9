import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { yamlRawTree } from '../../../src-shared/model/parse';
import { fastParseYaml, resolvePlain } from '../../../src-shared/model/yaml-fast';
import { cubeFile, viewFile } from '../../bench/model.bench';

// The fast reader is only an optimisation: whenever it accepts a text, it must give exactly the raw tree (values
// and positions) of the `yaml` library, and `yaml` must see no error in it.
function expectSameAsYaml(text: string): boolean {
  const fast = fastParseYaml(text);
  if (fast === undefined) return false;
  const reference = yamlRawTree(text);
  expect(reference.errors, `yaml errors for ${JSON.stringify(text)}`).toEqual([]);
  expect(fast, `raw tree of ${JSON.stringify(text)}`).toEqual(reference.root);
  return true;
}

type Tree =
  | { t: 'map'; entries: [string, Tree][] }
  | { t: 'seq'; items: Tree[] }
  | { t: 'scalar'; text: string }
  | { t: 'block'; header: string; lines: string[] };

const key = fc.constantFrom('name', 'sql', 'type', 'title', 'measures', 'dimensions', 'joins', 'a', 'b_2', '_x', 'true', 'null', 'on', 'y');
const plainText = fc.constantFrom(
  'orders',
  'count_distinct',
  '7 days',
  '1 hour',
  'true',
  'False',
  'NULL',
  '~',
  '',
  '42',
  '-3',
  '+5',
  '2.50',
  '.5',
  '1e3',
  '0x1F',
  '0o17',
  '.inf',
  '-.Inf',
  '.nan',
  '012',
  'a b c',
  'http://example.com/x',
  'x # trailing comment',
  'x#not-a-comment',
  '{CUBE}.id',
  '{CUBE}.a = {other.b}',
  'a: b',
  '- dash',
  '*alias',
  '&anchor x',
  '!tag x',
  '[1, 2]',
  '{a: 1}',
  '@at',
  '%pct',
  '? q',
  'ends with colon:',
  'SUM(x) / 100',
  'émoji ✓',
);
const quoted = fc.constantFrom(
  '["US", "CA"]',
  "[a, 'b', 3, true]",
  '[]',
  '[ x ]',
  '[a,,b]',
  '[a, b,]',
  '[a: 1]',
  '[a, [b]]',
  '[a, b] x',
  '[a #c]',
  '"{CUBE}.status = \'completed\'"',
  '"a\\nb\\t\\"q\\" \\u00e9 \\\\"',
  '"unterminated',
  '"x" trailing',
  '"x" # comment',
  "'it''s'",
  "'{CUBE}.id'",
  "'a: b'",
  '"\\x41"',
  '""',
  "''",
);
const scalar = fc.oneof(plainText, quoted).map((text): Tree => ({ t: 'scalar', text }));
const block = fc
  .record({
    header: fc.constantFrom('|', '>', '|-', '>-', '|+', '>2', '| # c'),
    lines: fc.array(fc.constantFrom('SELECT *', 'FROM t', '  WHERE x', '', '# not a comment', 'a: b'), { minLength: 0, maxLength: 4 }),
  })
  .map((b): Tree => ({ t: 'block', ...b }));

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    block,
    fc.array(fc.tuple(key, tie('node')), { minLength: 1, maxLength: 4 }).map((entries): Tree => ({ t: 'map', entries })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((items): Tree => ({ t: 'seq', items })),
  ),
})).node;

interface Style {
  step: number;
  compactSeq: boolean;
  comments: boolean;
  blankLines: boolean;
}

function render(node: Tree, indent: number, style: Style, out: string[]): void {
  const pad = ' '.repeat(indent);
  if (node.t === 'map') {
    for (const [k, v] of node.entries) {
      if (style.blankLines) out.push('');
      if (style.comments) out.push(`${pad}# about ${k}`);
      renderEntry(`${pad}${k}:`, v, indent, style, out);
    }
  } else if (node.t === 'seq') {
    for (const item of node.items) {
      if (item.t === 'map') {
        const inner: string[] = [];
        render(item, indent + 2, style, inner);
        const firstContent = inner.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#'));
        inner[firstContent] = `${pad}- ${inner[firstContent]!.slice(indent + 2)}`;
        out.push(...inner.filter((_, i) => i >= firstContent));
      } else renderEntry(`${pad}-`, item, indent, style, out);
    }
  } else {
    out.push(`${pad}${node.t === 'scalar' ? node.text : node.header}`);
  }
}

function renderEntry(head: string, value: Tree, indent: number, style: Style, out: string[]): void {
  if (value.t === 'scalar') out.push(value.text === '' ? head : `${head} ${value.text}`);
  else if (value.t === 'block') {
    out.push(`${head} ${value.header}`);
    for (const l of value.lines) out.push(l === '' ? '' : `${' '.repeat(indent + style.step)}${l}`);
  } else {
    out.push(head);
    const nested = value.t === 'seq' && style.compactSeq && head.endsWith(':') ? indent : indent + style.step;
    render(value, nested, style, out);
  }
}

const style = fc.record({
  step: fc.constantFrom(2, 4),
  compactSeq: fc.boolean(),
  comments: fc.boolean(),
  blankLines: fc.boolean(),
});

const edit = fc.record({
  at: fc.nat(),
  insert: fc.constantFrom('', ' ', '  ', '\t', ':', '- ', '#', '"', "'", '\n', 'x', '[', '&a ', '*a', '|', '>', '---\n', '\r\n', ': v'),
  remove: fc.nat({ max: 3 }),
});

describe('fast YAML reader', () => {
  it('gives the yaml library’s raw tree for every model-like document it accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(tree, style, fc.boolean(), (t, s, trailingNewline) => {
        const lines: string[] = [];
        render(t.t === 'map' || t.t === 'seq' ? t : { t: 'map', entries: [['cubes', t]] }, 0, s, lines);
        const text = lines.join('\n') + (trailingNewline ? '\n' : '');
        if (expectSameAsYaml(text)) accepted++;
      }),
      { numRuns: 1500 },
    );
    // The property means little if the reader rejected almost everything.
    expect(accepted).toBeGreaterThan(300);
  });

  it('gives the yaml library’s raw tree, or declines, for randomly damaged documents', () => {
    fc.assert(
      fc.property(tree, style, fc.array(edit, { minLength: 1, maxLength: 3 }), (t, s, edits) => {
        const lines: string[] = [];
        render({ t: 'map', entries: [['cubes', t]] }, 0, s, lines);
        let text = `${lines.join('\n')}\n`;
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.insert + text.slice(at + e.remove);
        }
        expectSameAsYaml(text);
      }),
      { numRuns: 1500 },
    );
  });

  it('accepts the sample project and generated benchmark files (so large projects take the fast path)', () => {
    const root = join(__dirname, '../../../resources/sample-project/model');
    const texts = ['cubes', 'views'].flatMap((dir) => readdirSync(join(root, dir)).map((f) => readFileSync(join(root, dir, f), 'utf8')));
    texts.push(cubeFile(0).content, cubeFile(5).content, viewFile(3).content);
    for (const text of texts) expect(expectSameAsYaml(text)).toBe(true);
  });

  it('declines flow collections, anchors, tags, tabs and CRLF so yaml handles them', () => {
    for (const text of ['a: {x: 1}\n', 'a: [1, [2]]\n', 'a: &x 1\nb: *x\n', 'a: !!str 1\n', 'a:\n\t- 1\n', 'a: 1\r\nb: 2\r\n', 'a: 1\na: 2\n']) {
      expect(fastParseYaml(text)).toBeUndefined();
    }
  });

  it('resolves plain scalars with the YAML 1.2 core schema', () => {
    expect(resolvePlain('true')).toBe(true);
    expect(resolvePlain('FALSE')).toBe(false);
    expect(resolvePlain('~')).toBeNull();
    expect(resolvePlain('012')).toBe(12);
    expect(resolvePlain('0x1F')).toBe(31);
    expect(resolvePlain('0o17')).toBe(15);
    expect(resolvePlain('1e3')).toBe(1000);
    expect(resolvePlain('-.inf')).toBe(-Infinity);
    expect(resolvePlain('7 days')).toBe('7 days');
    expect(resolvePlain('yes')).toBe('yes');
  });

  it('reads every short key and value as written, across more distinct ones than the reader keeps one copy of', () => {
    // Keys and values of 12 characters or fewer are shared through a fixed table of 65,536 strings
    // (issue 28); 200,000 distinct ones force collisions and replacements, which must never change a value.
    const groups = 2_000;
    const perGroup = 50;
    const name = (g: number, n: number) => (g * perGroup + n).toString(36);
    const lines: string[] = [];
    for (let g = 0; g < groups; g++) {
      lines.push(`g${g}:`);
      for (let n = 0; n < perGroup; n++) lines.push(`  k${name(g, n)}: v${name(g, n)}`, `  q${name(g, n)}: "w${name(g, n)}"`);
    }
    const tree = fastParseYaml(`${lines.join('\n')}\n`);
    expect(tree?.kind).toBe('map');
    const wrong: string[] = [];
    const groupEntries = tree!.kind === 'map' ? tree!.entries : [];
    expect(groupEntries).toHaveLength(groups);
    groupEntries.forEach((group, g) => {
      const entries = group.value.kind === 'map' ? group.value.entries : [];
      if (group.key !== `g${g}` || entries.length !== 2 * perGroup) wrong.push(group.key);
      entries.forEach((e, i) => {
        const n = name(g, i >> 1);
        const [key, value] = i % 2 === 0 ? [`k${n}`, `v${n}`] : [`q${n}`, `w${n}`];
        if (e.key !== key || e.value.kind !== 'scalar' || e.value.value !== value) wrong.push(`${e.key}: ${JSON.stringify(e.value)}`);
      });
    });
    expect(wrong).toEqual([]);
  });
});
