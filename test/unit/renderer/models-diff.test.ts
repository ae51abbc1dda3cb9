import { describe, expect, it } from 'vitest';
import { fileDiff } from '../../../src-renderer/src/features/models/diff';

describe('file diffs for the commit and merge dialogs', () => {
  it('numbers old and new lines of a modified file', () => {
    const before = 'cubes:\n  - name: orders\n    title: Orders\n    sql_table: a\n';
    const after = 'cubes:\n  - name: orders\n    title: Orders and returns\n    sql_table: a\n';
    const diff = fileDiff('model/cubes/orders.yml', before, after);
    expect(diff.added).toBe(1);
    expect(diff.removed).toBe(1);
    expect(diff.rows[0]).toEqual({ kind: 'hunk', header: '@@ -1,4 +1,4 @@' });
    expect(diff.rows).toContainEqual({ kind: 'removed', text: '    title: Orders', oldLine: 3, newLine: null });
    expect(diff.rows).toContainEqual({ kind: 'added', text: '    title: Orders and returns', oldLine: null, newLine: 3 });
    expect(diff.rows).toContainEqual({ kind: 'context', text: '    sql_table: a', oldLine: 4, newLine: 4 });
  });

  it('shows an added file as all additions and a deleted one as all removals', () => {
    const added = fileDiff('a.yml', null, 'x: 1\ny: 2\n');
    expect([added.added, added.removed]).toEqual([2, 0]);
    const deleted = fileDiff('a.yml', 'x: 1\n', null);
    expect([deleted.added, deleted.removed]).toEqual([0, 1]);
  });

  it('keeps only the requested context around distant changes', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const after = [...lines];
    after[2] = 'changed 2';
    after[35] = 'changed 35';
    const diff = fileDiff('f.yml', lines.join('\n'), after.join('\n'), 2);
    expect(diff.rows.filter((r) => r.kind === 'hunk')).toHaveLength(2);
    expect(diff.rows.some((r) => r.kind === 'context' && r.text === 'line 20')).toBe(false);
  });

  it('gives no rows for identical content', () => {
    expect(fileDiff('f.yml', 'a\n', 'a\n').rows).toEqual([]);
  });
});
