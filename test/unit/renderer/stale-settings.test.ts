// The "changed elsewhere" rule of settings forms and env vars (issue 14 item 1): what a refused
// save is compared with, when it is re-sent on its own and what "Save mine" saves.
import { describe, expect, it } from 'vitest';
import type { EnvVar } from '../../../src-shared/api/deployments';
import { compareForms } from '../../../src-renderer/src/lib/staleForm';
import { envVarConflict } from '../../../src-renderer/src/features/deployments/envVarsStale';

interface Form {
  name: string;
  region: string;
  ddl: boolean;
}
const labels = { name: 'Name', region: 'Region', ddl: 'DDL' };
const base: Form = { name: 'sales', region: 'us-east-1', ddl: false };

describe('a settings form saved over a change made elsewhere', () => {
  it('nothing the form shows changed elsewhere: the save can be re-sent as it is', () => {
    const result = compareForms(base, { ...base }, { ...base, name: 'mine' }, labels);
    expect(result.changedElsewhere).toBe(false);
    expect(result.merged).toEqual({ ...base, name: 'mine' });
  });

  it('both changed the same field: it is a clash, listed with the three values, and "Save mine" saves mine', () => {
    const result = compareForms(base, { ...base, name: 'theirs' }, { ...base, name: 'mine' }, labels);
    expect(result.changedElsewhere).toBe(true);
    expect(result.rows).toEqual([{ key: 'name', label: 'Name', base: 'sales', theirs: 'theirs', mine: 'mine', clash: true, theirsOnly: false }]);
    expect(result.merged.name).toBe('mine');
  });

  it('different fields changed: both are listed, and "Save mine" keeps their change next to mine', () => {
    const result = compareForms(base, { ...base, region: 'eu-west-1' }, { ...base, ddl: true }, labels);
    expect(result.changedElsewhere).toBe(true);
    expect(result.rows.map((r) => [r.key, r.clash, r.theirsOnly])).toEqual([
      ['region', false, true],
      ['ddl', false, false],
    ]);
    expect(result.rows[1]).toMatchObject({ base: 'off', theirs: 'off', mine: 'on' });
    expect(result.merged).toEqual({ name: 'sales', region: 'eu-west-1', ddl: true });
  });

  it('values that show the same are the same (row ids of a list editor do not count as a change)', () => {
    const rows = (id: number) => ({ list: [{ rowId: id, key: 'a', value: '1' }] });
    const show = (_key: string, value: unknown) => (value as { key: string; value: string }[]).map((r) => `${r.key}=${r.value}`).join(', ');
    const result = compareForms(rows(1), rows(2), rows(3), { list: 'List' }, show);
    expect(result.changedElsewhere).toBe(false);
    expect(result.rows).toEqual([]);
  });
});

const v = (name: string, value: string, updatedAt = '2026-01-01T00:00:00.000Z'): EnvVar => ({ name, value, isSecret: false, updatedAt });
const secret = (name: string, updatedAt: string): EnvVar => ({ name, isSecret: true, updatedAt });

describe('env vars: the set has one version, the app decides per variable', () => {
  it('another variable changed meanwhile: the save is re-sent (no conflict)', () => {
    expect(envVarConflict({ name: 'A', value: 'mine', isSecret: false }, v('A', '1'), [v('A', '1'), v('B', 'new', '2026-02-02T00:00:00.000Z')])).toBeNull();
    expect(envVarConflict({ name: 'NEW', value: 'x', isSecret: false }, null, [v('B', 'created elsewhere')])).toBeNull();
  });

  it('the same variable changed, was created or was deleted meanwhile: a conflict showing theirs and mine', () => {
    expect(envVarConflict({ name: 'A', value: 'mine', isSecret: false }, v('A', '1'), [v('A', 'theirs', '2026-02-02T00:00:00.000Z')])).toEqual([
      { key: 'value', label: 'A', base: '1', theirs: 'theirs', mine: 'mine', clash: true, theirsOnly: false },
    ]);
    expect(envVarConflict({ name: 'NEW', value: 'x', isSecret: false }, null, [v('NEW', 'theirs')])?.[0]).toMatchObject({ base: '(not set)', theirs: 'theirs' });
    expect(envVarConflict({ name: 'A', value: null, isSecret: false }, v('A', '1'), [])?.[0]).toMatchObject({ theirs: '(not set)', mine: '(deleted)' });
  });

  it('a secret, whose value never reaches the page, counts as changed when it was saved again', () => {
    const before = secret('S', '2026-01-01T00:00:00.000Z');
    expect(envVarConflict({ name: 'S', value: 'new', isSecret: true }, before, [before])).toBeNull();
    const rows = envVarConflict({ name: 'S', value: 'new', isSecret: true }, before, [secret('S', '2026-03-03T00:00:00.000Z')]);
    expect(rows?.[0].theirs).toContain('hidden');
    expect(rows?.[0].mine).toBe('(new secret value, hidden)');
  });
});
