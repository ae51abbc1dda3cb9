import { describe, expect, it } from 'vitest';
import { diffModels } from '../../../src-shared/model/review/diff';
import { NO_REVIEW_FACTS, queryMembers, type ReviewFacts, type WidgetFact } from '../../../src-shared/model/review/facts';
import { reviewImpact, type ImpactOptions } from '../../../src-shared/model/review/impact';
import { base, compile, CUSTOMERS, errors, ORDERS, VIEW } from './helpers';

const WITH_DERIVED = ORDERS + '      - name: average\n        sql: "{total} / NULLIF({count}, 0)"\n        type: number\n';

function modelOf(files: Record<string, string>) {
  const result = compile(files);
  expect(errors(result)).toEqual([]);
  return result.model;
}

const widget = (widgetId: string, query: unknown, extra: Partial<WidgetFact> = {}): WidgetFact => ({
  workbookId: 1,
  workbookName: 'Sales overview',
  dashboard: 'published',
  widgetId,
  title: `Widget ${widgetId}`,
  query,
  ...extra,
});

function review(edit: (files: Record<string, string>) => Record<string, string>, facts: Partial<ReviewFacts> = {}, options: ImpactOptions = { security: null }) {
  const before = modelOf(base({ 'model/cubes/orders.yml': WITH_DERIVED }));
  const after = modelOf(edit(base({ 'model/cubes/orders.yml': WITH_DERIVED })));
  const changes = diffModels(before, after);
  return reviewImpact(before, after, changes, { ...NO_REVIEW_FACTS, ...facts }, options);
}

describe('impact of a model change', () => {
  it('reaches the changed member, members whose SQL reads it and the view members exposing it', () => {
    const impact = review((f) => ({ ...f, 'model/cubes/orders.yml': WITH_DERIVED.replace('sql: amount', 'sql: amount * 2') }));
    expect(impact.members.map((m) => [m.name, m.reason, m.via])).toEqual([
      ['orders.average', 'depends', ['orders.total']],
      ['orders.total', 'changed', []],
      ['overview.total', 'depends', ['orders.total']],
    ]);
    expect(impact.views).toEqual([{ name: 'overview', affectedMembers: ['overview.total'], droppedMembers: [], removed: false }]);
  });

  it('lists the widgets reading an affected member, and only those', () => {
    const impact = review((f) => ({ ...f, 'model/cubes/orders.yml': WITH_DERIVED.replace('sql: amount', 'sql: amount * 2') }), {
      widgets: [widget('a', { measures: ['overview.total'], dimensions: ['overview.status'] }), widget('b', { measures: ['orders.count'] }), widget('c', { measures: ['orders.average'] })],
    });
    expect(impact.widgets.map((w) => [w.widgetId, w.status, w.uses])).toEqual([
      ['a', 'affected', ['overview.total']],
      ['c', 'affected', ['orders.average']],
    ]);
    expect(impact.breaking).toEqual([]);
  });

  it('breaks a widget and a report querying a removed member, with the planner’s reason', () => {
    const impact = review(
      (f) => ({ ...f, 'model/cubes/orders.yml': ORDERS.replace(/ {6}- name: total\n(.*\n){2}/, ''), 'model/views/overview.yml': VIEW.replace('          - total\n', '') }),
      { widgets: [widget('a', { measures: ['orders.total'] })], reports: [{ reportId: 7, name: 'Revenue report', query: { measures: ['overview.total'] } }] },
    );
    expect(impact.members.find((m) => m.name === 'orders.total')).toMatchObject({ reason: 'removed', gone: true });
    expect(impact.widgets).toEqual([expect.objectContaining({ widgetId: 'a', status: 'breaks', uses: ['orders.total'] })]);
    expect(impact.widgets[0]!.message).toMatch(/total/);
    expect(impact.reports).toEqual([expect.objectContaining({ reportId: 7, status: 'breaks' })]);
    expect(impact.breaking.map((b) => [b.kind, b.subject])).toEqual([
      ['widget', 'Sales overview › Widget a'],
      ['report', 'Revenue report'],
    ]);
  });

  it('marks a renamed member gone under its old name, with its new name', () => {
    const impact = review((f) => ({ ...f, 'model/cubes/orders.yml': WITH_DERIVED.replace('- name: count\n', '- name: order_count\n').replace('{count}', '{order_count}') }), {
      widgets: [widget('a', { measures: ['orders.count'] })],
    });
    expect(impact.members.find((m) => m.name === 'orders.count')).toMatchObject({ reason: 'renamed', gone: true, renamedTo: 'orders.order_count' });
    expect(impact.widgets).toEqual([expect.objectContaining({ status: 'breaks' })]);
  });

  it('breaks a widget whose member was made private', () => {
    const impact = review((f) => ({ ...f, 'model/cubes/orders.yml': WITH_DERIVED.replace('        type: string\n', '        type: string\n        public: false\n') }), {
      widgets: [widget('a', { measures: ['orders.count'], dimensions: ['orders.status'] })],
    });
    expect(impact.members.find((m) => m.name === 'orders.status')).toMatchObject({ reason: 'changed', gone: true });
    expect(impact.widgets[0]).toMatchObject({ status: 'breaks' });
  });

  it('reaches every member of a cube whose table changed, and of views over it', () => {
    const impact = review((f) => ({ ...f, 'model/cubes/customers.yml': CUSTOMERS.replace('shop.customers', 'shop.all_customers') }));
    expect(impact.members.map((m) => [m.name, m.reason])).toEqual([
      ['customers.city', 'entity'],
      ['customers.count', 'entity'],
      ['customers.id', 'entity'],
      ['overview.customers_city', 'entity'],
    ]);
    expect(impact.members.find((m) => m.name === 'overview.customers_city')!.via).toEqual(['customers']);
  });

  it('reaches view members across a changed join, and direct queries over both cubes', () => {
    const impact = review((f) => ({ ...f, 'model/cubes/orders.yml': WITH_DERIVED.replace('relationship: many_to_one', 'relationship: one_to_one') }), {
      widgets: [widget('a', { measures: ['orders.count'], dimensions: ['customers.city'] }), widget('b', { measures: ['orders.count'] })],
    });
    expect(impact.members.map((m) => [m.name, m.reason, m.via])).toEqual([['overview.customers_city', 'join', ['orders->customers']]]);
    expect(impact.widgets.map((w) => [w.widgetId, w.uses])).toEqual([['a', ['orders->customers']]]);
  });

  it('breaks a pushed semantic view that would lose members, and a published metric view that no longer compiles', () => {
    const impact = review(
      (f) => ({ ...f, 'model/views/overview.yml': VIEW.replace('          - total\n', '') }),
      {
        pushes: [{ viewName: 'overview', semanticView: 'ANALYTICS.PUBLIC.OVERVIEW', branchName: 'main', syncJobId: 'j1' }],
        publications: [{ viewName: 'overview', target: 'main.sales.overview', dataSourceName: 'lake', runId: 'r1' }],
      },
      { security: null, uncompiledHead: new Set(['overview']) },
    );
    expect(impact.views).toEqual([expect.objectContaining({ name: 'overview', droppedMembers: ['overview.total'] })]);
    expect(impact.pushedViews).toEqual([expect.objectContaining({ semanticView: 'ANALYTICS.PUBLIC.OVERVIEW', status: 'breaks', droppedMembers: ['overview.total'] })]);
    expect(impact.pushedViews[0]!.reasons.join()).toMatch(/view overview no longer compiles/);
    expect(impact.breaking.map((b) => b.kind)).toEqual(['push', 'publication']);
  });

  it('names notifications delivering a dashboard that breaks and scheduled tasks whose prompt names an affected member', () => {
    const impact = review((f) => ({ ...f, 'model/cubes/orders.yml': WITH_DERIVED.replace('- name: count\n', '- name: order_count\n').replace('{count}', '{order_count}') }), {
      widgets: [widget('a', { measures: ['orders.count'] })],
      notifications: [
        { notificationId: 3, name: 'Monday digest', workbookId: 1, enabled: true },
        { notificationId: 4, name: 'Other', workbookId: 2, enabled: true },
      ],
      scheduledTasks: [
        { taskId: 't1', name: 'Weekly', prompt: 'Summarise orders.count by week', enabled: true },
        { taskId: 't2', name: 'Unrelated', prompt: 'Summarise orders.count_all', enabled: true },
      ],
    });
    expect(impact.notifications).toEqual([{ notificationId: 3, name: 'Monday digest', workbookId: 1, status: 'breaks' }]);
    expect(impact.scheduledTasks).toEqual([{ taskId: 't1', name: 'Weekly', mentions: ['orders.count'] }]);
    expect(impact.breaking.map((b) => b.kind)).toEqual(['widget', 'notification']);
  });

  it('reads the members of a query from every part of it', () => {
    expect(
      queryMembers({
        measures: ['a.m'],
        dimensions: ['a.d', 'a.t.month'],
        timeDimensions: [{ dimension: 'a.t', granularity: 'day' }],
        filters: [{ or: [{ member: 'b.x', operator: 'set' }, { dimension: 'b.y', operator: 'set' }] }],
        segments: ['a.s'],
        order: { 'a.o': 'asc' },
      }).sort(),
    ).toEqual(['a.d', 'a.m', 'a.o', 'a.s', 'a.t', 'b.x', 'b.y']);
  });
});
