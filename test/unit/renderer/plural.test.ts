import { describe, expect, it } from 'vitest';
import { noun, plural, verb } from '../../../src-renderer/src/lib/plural';

describe('counts in the UI are pluralised', () => {
  it('one takes the singular, zero and many the plural', () => {
    expect(plural(1, 'error')).toBe('1 error');
    expect(plural(2, 'error')).toBe('2 errors');
    expect(plural(0, 'file')).toBe('0 files');
    expect(plural(1, 'view')).toBe('1 view');
  });
  it('irregular plurals are given once and used for every count but one', () => {
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(5, 'entry', 'entries')).toBe('5 entries');
    expect(noun(1, 'semantic view')).toBe('semantic view');
    expect(noun(7, 'semantic view')).toBe('semantic views');
    expect(verb(1, 'was', 'were')).toBe('was');
    expect(verb(3, 'was', 'were')).toBe('were');
  });
  it('large counts are grouped in thousands', () => {
    expect(plural(1204, 'row')).toBe('1,204 rows');
  });
});
