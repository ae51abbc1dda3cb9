import { describe, expect, it } from 'vitest';
import { diffModels } from '../../../src-shared/model/review/diff';
import type { ModelChange } from '../../../src-shared/model/review/types';
import { base, compile, CUSTOMERS, errors, ORDERS, VIEW } from './helpers';

function modelOf(files: Record<string, string>) {
  const result = compile(files);
  expect(errors(result)).toEqual([]);
  return result.model;
}

/** The diff of the helpers' small project against the same project with `edit` applied to its files. */
function diffAfter(edit: (files: Record<string, string>) => Record<string, string>): ModelChange[] {
  return diffModels(modelOf(base()), modelOf(edit(base())));
}

const named = (changes: ModelChange[], name: string) => changes.filter((c) => c.name === name);

describe('semantic diff of two models', () => {
  it('finds nothing between a model and itself', () => {
    expect(diffAfter((f) => f)).toEqual([]);
  });

  it('reports a changed measure SQL as a numbers change with both sides located', () => {
    const changes = diffAfter((f) => ({ ...f, 'model/cubes/orders.yml': ORDERS.replace('sql: amount', 'sql: amount * 1.2') }));
    expect(changes).toHaveLength(1);
    const [c] = changes;
    expect(c).toMatchObject({
      kind: 'changed',
      target: 'measure',
      entity: 'orders',
      entityKind: 'cube',
      name: 'orders.total',
      effect: 'numbers',
      attributes: [{ attribute: 'sql', effect: 'numbers', before: 'amount', after: 'amount * 1.2' }],
    });
    expect(c!.base).toMatchObject({ file: 'model/cubes/orders.yml', line: 22 });
    expect(c!.head).toMatchObject({ file: 'model/cubes/orders.yml', line: 22 });
  });

  it('reports type, format, filters and rolling window changes attribute by attribute', () => {
    const edited = ORDERS.replace('        type: sum\n', '        type: avg\n        format: currency\n        filters:\n          - sql: "{CUBE}.status = \'done\'"\n        rolling_window:\n          trailing: 7 days\n');
    const [c] = diffAfter((f) => ({ ...f, 'model/cubes/orders.yml': edited }));
    expect(c!.attributes.map((a) => [a.attribute, a.effect])).toEqual([
      ['filters', 'numbers'],
      ['rolling_window', 'numbers'],
      ['type', 'numbers'],
      ['format', 'metadata'],
    ]);
    expect(c!.attributes.find((a) => a.attribute === 'filters')!.after).toEqual([{ sql: "{CUBE}.status = 'done'" }]);
  });

  it('reports a member made private as a visibility change', () => {
    const edited = ORDERS.replace('      - name: status\n        sql: status\n        type: string\n', '      - name: status\n        sql: status\n        type: string\n        public: false\n');
    const changes = named(diffAfter((f) => ({ ...f, 'model/cubes/orders.yml': edited })), 'orders.status');
    expect(changes).toEqual([expect.objectContaining({ kind: 'changed', effect: 'visibility', attributes: [{ attribute: 'public', effect: 'visibility', before: true, after: false }] })]);
  });

  it('pairs a removed and an added member with the same SQL and type into a rename', () => {
    const changes = diffAfter((f) => ({ ...f, 'model/cubes/orders.yml': ORDERS.replace('- name: total\n', '- name: revenue\n'), 'model/views/overview.yml': VIEW.replace('- total', '- revenue') }));
    const renamed = changes.filter((c) => c.target === 'measure');
    expect(renamed).toEqual([expect.objectContaining({ kind: 'renamed', name: 'orders.revenue', previousName: 'orders.total', attributes: [] })]);
    // The view exposes the same cube member under its new name: a rename of the view member too.
    expect(changes.filter((c) => c.target === 'view_member')).toEqual([expect.objectContaining({ kind: 'renamed', name: 'overview.revenue', previousName: 'overview.total' })]);
  });

  it('does not pair a rename when the SQL differs (a removal and an addition)', () => {
    const changes = diffAfter((f) => ({
      ...f,
      'model/cubes/orders.yml': ORDERS.replace('- name: total\n        sql: amount', '- name: revenue\n        sql: net_amount'),
      'model/views/overview.yml': VIEW.replace('- total', '- revenue'),
    }));
    expect(changes.filter((c) => c.target === 'measure').map((c) => [c.kind, c.name])).toEqual([
      ['removed', 'orders.total'],
      ['added', 'orders.revenue'],
    ]);
    const removed = changes.find((c) => c.kind === 'removed' && c.target === 'measure')!;
    expect(removed.head).toBeNull();
    expect(removed.base).toMatchObject({ file: 'model/cubes/orders.yml' });
  });

  it('reports granularities and primary keys of dimensions', () => {
    const edited = ORDERS.replace('        type: time\n', '        type: time\n        granularities:\n          - name: fiscal_year\n            interval: 1 year\n            offset: 1 month\n');
    const customers = CUSTOMERS.replace('        primary_key: true\n', '').replace('      - name: city\n        sql: city\n', '      - name: city\n        sql: city\n        primary_key: true\n');
    const changes = diffAfter((f) => ({ ...f, 'model/cubes/orders.yml': edited, 'model/cubes/customers.yml': customers }));
    expect(named(changes, 'orders.created_at')[0]!.attributes.map((a) => a.attribute)).toEqual(['granularities']);
    expect(named(changes, 'customers.id')[0]!.attributes.map((a) => a.attribute)).toEqual(['primary_key']);
    expect(named(changes, 'customers')[0]!.attributes).toEqual([{ attribute: 'primary_keys', effect: 'numbers', before: ['id'], after: ['city'] }]);
  });

  it('reports joins added, removed and changed in relationship and SQL', () => {
    const changed = diffAfter((f) => ({ ...f, 'model/cubes/orders.yml': ORDERS.replace('relationship: many_to_one', 'relationship: one_to_one') }));
    expect(named(changed, 'orders->customers')).toEqual([
      expect.objectContaining({ kind: 'changed', target: 'join', effect: 'numbers', attributes: [{ attribute: 'relationship', effect: 'numbers', before: 'many_to_one', after: 'one_to_one' }] }),
    ]);
    const withoutJoin = ORDERS.replace(/ {4}joins:\n(.*\n){3}/, '');
    const removed = diffAfter((f) => ({ ...f, 'model/cubes/orders.yml': withoutJoin, 'model/views/overview.yml': VIEW.replace(/ {6}- join_path: orders.customers\n(.*\n)*/, '') }));
    expect(named(removed, 'orders->customers')).toEqual([expect.objectContaining({ kind: 'removed', target: 'join', effect: 'numbers' })]);
  });

  it('reports cube SQL, table and access policy changes on the cube', () => {
    const edited = CUSTOMERS.replace('sql_table: shop.customers', 'sql_table: shop.active_customers') + '    access_policy:\n      - group: sales\n        member_level:\n          includes: "*"\n';
    const [c] = named(diffAfter((f) => ({ ...f, 'model/cubes/customers.yml': edited })), 'customers');
    expect(c!.attributes.map((a) => [a.attribute, a.effect])).toEqual([
      ['access_policy', 'numbers'],
      ['sql_table', 'numbers'],
    ]);
  });

  it('reports a view’s includes and prefix changes, and the members it stops or starts exposing', () => {
    const edited = VIEW.replace('        prefix: true\n', '').replace('          - total\n', '');
    const changes = diffAfter((f) => ({ ...f, 'model/views/overview.yml': edited }));
    expect(named(changes, 'overview[orders]')[0]!.attributes).toEqual([{ attribute: 'includes', effect: 'visibility', before: ['status', 'total'], after: ['status'] }]);
    expect(named(changes, 'overview[orders.customers]')[0]!.attributes).toEqual([{ attribute: 'prefix', effect: 'visibility', before: true, after: false }]);
    expect(named(changes, 'overview.total')).toEqual([expect.objectContaining({ kind: 'removed', target: 'view_member' })]);
    // customers_city became city: same source member, a rename.
    expect(named(changes, 'overview.city')).toEqual([expect.objectContaining({ kind: 'renamed', target: 'view_member', previousName: 'overview.customers_city' })]);
  });

  it('reports whole cubes and views added and removed', () => {
    const changes = diffModels(modelOf(base()), modelOf({ 'model/cubes/orders.yml': ORDERS, 'model/cubes/customers.yml': CUSTOMERS, 'model/cubes/extra.yml': CUSTOMERS.replace('name: customers', 'name: extra') }));
    expect(changes.filter((c) => c.target === 'cube' || c.target === 'view').map((c) => [c.kind, c.name])).toEqual([
      ['added', 'extra'],
      ['removed', 'overview'],
    ]);
  });

  it('reports a view made private, and a title change as metadata only', () => {
    const edited = VIEW.replace('  - name: overview\n', '  - name: overview\n    public: false\n    title: Overview of orders\n');
    const [c] = named(diffAfter((f) => ({ ...f, 'model/views/overview.yml': edited })), 'overview');
    expect(c!.effect).toBe('visibility');
    expect(c!.attributes.map((a) => [a.attribute, a.effect])).toEqual([
      ['public', 'visibility'],
      ['title', 'metadata'],
    ]);
  });
});
