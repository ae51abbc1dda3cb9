// Key by key, the model compiler accepts exactly the keys the platform's validator accepts in each
// part of a definition (read from the validator's own schemas), and the table of the keys checked in
// docs/fidelity.md is the one these sets give.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileModel } from '../../src-shared/model';
import { camelToSnake, INTERNAL_KEYS, KEYED_PARTS, keysTable } from './keys';
import { platformKeys } from './platform-keys';

const platformSnake = (path: string): Set<string> => new Set([...(platformKeys().get(path) ?? [])].filter((k) => !INTERNAL_KEYS.has(k)).map(camelToSnake));

describe('model keys match the platform validator, part by part', () => {
  it.each(KEYED_PARTS.map((p) => [p.part, p] as const))('%s: every key the platform accepts is accepted, every other key is refused', (_name, part) => {
    const platform = platformSnake(part.path);
    expect(platform.size, `the platform validator has no schema at ${part.path}`).toBeGreaterThan(0);
    expect([...platform].filter((k) => !part.drydock.has(k)), 'keys the platform accepts that Drydock would refuse').toEqual([]);
    expect([...part.drydock].filter((k) => !platform.has(k) && !(part.listName && k === 'name')), 'keys Drydock accepts that the platform refuses').toEqual([]);
  });

  it('a key the platform accepts on views but that means nothing there is a warning, not an error', () => {
    const result = compileModel([
      {
        path: 'model/model.yml',
        content: 'cubes:\n  - name: c\n    sql_table: t\n    measures:\n      - name: n\n        type: count\nviews:\n  - name: v\n    refresh_key:\n      every: 1 hour\n    cubes:\n      - join_path: c\n        includes: "*"\n',
      },
    ]);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.diagnostics.find((d) => d.code === 'MODEL_IGNORED_PROPERTY')).toMatchObject({ severity: 'warning', member: 'v', line: 9 });
  });

  it('the table in docs/fidelity.md lists the keys checked, as the validator gives them', () => {
    const doc = readFileSync(new URL('../../docs/fidelity.md', import.meta.url), 'utf8');
    expect(doc).toContain(keysTable(platformSnake));
  });
});
