import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitFiles, modelRepositoryDir } from '../../src-main/features/data-model';
import { verdictLine } from '../../src-shared/model/review/describe';
import { createDeployment } from '../support/data-model';
import { startTestService, type TestResponse, type TestService } from '../support/service';
import { createUser } from '../support/users';
import { gitText } from '../support/git-cli';

const AUTHOR = { name: 'Reviewer', email: 'reviewer@example.com' };
const SAMPLE = join(__dirname, '../../resources/sample-project/model');
const ORDERS = readFileSync(join(SAMPLE, 'cubes/orders.yml'), 'utf8');
const OVERVIEW = readFileSync(join(SAMPLE, 'views/orders_overview.yml'), 'utf8');

let svc: TestService;
let id: number;
const D = () => `/api/v1/deployments/${id}`;
const B = () => `/build/api/v1/deployments/${id}`;

async function waitForReview(reviewId: string, timeoutMs = 60_000): Promise<TestResponse['body']> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await svc.call('GET', `${D()}/data-model/reviews/${reviewId}`);
    expect(res.status, res.text).toBe(200);
    if (['COMPLETED', 'FAILED', 'CANCELLED', 'PARTIAL'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`review ${reviewId} still ${res.body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function review(body: unknown): Promise<{ started: TestResponse['body']; result: TestResponse['body'] }> {
  const started = await svc.call('POST', `${D()}/data-model/reviews`, { body });
  expect(started.status, started.text).toBe(202);
  const done = await waitForReview(started.body.reviewId);
  expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED');
  const result = await svc.call('GET', `${D()}/data-model/reviews/${started.body.reviewId}/result`);
  expect(result.status, result.text).toBe(200);
  return { started: started.body, result: result.body };
}

async function newBranch(name: string, files: Record<string, string | null>, message = `Change on ${name}`): Promise<string> {
  const created = await svc.call('POST', `${B()}/branches`, { body: { branchName: name } });
  expect(created.status, created.text).toBe(201);
  const commit = await commitFiles(svc.ctx, id, name, Object.entries(files).map(([path, content]) => ({ path, content })), message, AUTHOR);
  return commit.commit;
}

const widget = (widgetId: string, title: string, query: unknown, y = 0) => ({ id: widgetId, type: 'CHART', position: { x: 0, y, w: 6, h: 4 }, config: { title, query } });

beforeAll(async () => {
  svc = await startTestService();
  svc.ctx.services.sampleData = { orders: 3000 };
  id = await createDeployment(svc, 'review');
  // A published dashboard whose widgets read the view and the cube.
  const wb = await svc.call('POST', `${D()}/workbooks`, {
    body: {
      name: 'Sales overview',
      dashboardDraft: {
        title: 'Sales',
        widgets: [
          widget('by-status', 'Orders by status', { measures: ['orders_overview.count', 'orders_overview.total_amount'], dimensions: ['orders_overview.status'] }),
          widget('aov', 'Average order value', { measures: ['orders.average_order_value'] }, 4),
          widget('countries', 'Customers by country', { measures: ['customers.count'], dimensions: ['customers.country'] }, 8),
        ],
      },
    },
  });
  expect(wb.status, wb.text).toBe(201);
  expect((await svc.call('POST', `${D()}/workbooks/${wb.body.id}/publish`)).status).toBe(200);
  // orders_overview stands in the warehouse as a semantic view.
  const push = await svc.call('POST', `${D()}/warehouse-semantic-view-syncs`, { body: { schema: 'PUBLIC', prefix: '', viewNames: ['orders_overview'] } });
  expect(push.status, push.text).toBe(202);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const job = await svc.call('GET', `${D()}/warehouse-semantic-view-syncs/${push.body.syncJobId}`);
    if (job.body.status === 'COMPLETED') break;
    if (['FAILED', 'CANCELLED'].includes(job.body.status) || Date.now() > deadline) throw new Error(`push ended ${job.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}, 120_000);

afterAll(async () => {
  await svc?.stop();
});

describe('change review of a branch', () => {
  it('reviews a branch against where it left the deploy branch: semantic diff, affected widgets and the numbers before and after', async () => {
    // Returned orders no longer count towards revenue.
    const head = await newBranch('no-returns', {
      'model/cubes/orders.yml': ORDERS.replace(
        '      - name: total_amount\n        sql: amount\n',
        "      - name: total_amount\n        sql: \"CASE WHEN {CUBE}.status = 'returned' THEN 0 ELSE {CUBE}.amount END\"\n",
      ),
    });
    const { started, result } = await review({ head: 'no-returns' });
    expect(started.reused).toBe(false);
    expect(result.head).toEqual({ ref: 'no-returns', commit: head });
    expect(result.base.ref).toBe('main');
    expect(result.changes).toEqual([
      expect.objectContaining({
        kind: 'changed',
        target: 'measure',
        name: 'orders.total_amount',
        effect: 'numbers',
        attributes: [expect.objectContaining({ attribute: 'sql', before: 'amount' })],
        base: expect.objectContaining({ file: 'model/cubes/orders.yml' }),
        head: expect.objectContaining({ file: 'model/cubes/orders.yml' }),
      }),
    ]);
    expect(result.impact.members.map((m: { name: string }) => m.name)).toEqual(expect.arrayContaining(['orders.total_amount', 'orders_overview.total_amount']));
    // Publishing keeps the draft: the widget is there on both, and its query is run once.
    expect(result.impact.widgets.map((w: { widgetId: string; dashboard: string; status: string; uses: string[] }) => [w.widgetId, w.dashboard, w.status, w.uses])).toEqual([
      ['by-status', 'published', 'affected', ['orders_overview.total_amount']],
      ['by-status', 'draft', 'affected', ['orders_overview.total_amount']],
    ]);
    expect(result.impact.breaking).toEqual([]);

    const byStatus = result.dataDiff.queries.find((q: { id: string; label: string }) => q.id.startsWith('widget:') && q.label === 'Sales overview › Orders by status');
    expect(byStatus).toMatchObject({ status: 'changed', dataSource: 'default', error: null });
    // Only the returned orders' revenue moved, to zero; their count did not.
    expect(byStatus.diff.changed.count).toBe(1);
    expect(byStatus.diff.changed.samples[0].key).toEqual({ 'orders_overview.status': 'returned' });
    expect(byStatus.diff.changed.samples[0].values).toEqual([{ member: 'orders_overview.total_amount', before: expect.any(String), after: '0.00' }]);
    const revenue = byStatus.diff.totals.find((t: { member: string }) => t.member === 'orders_overview.total_amount');
    const count = byStatus.diff.totals.find((t: { member: string }) => t.member === 'orders_overview.count');
    expect(revenue.after).toBeLessThan(revenue.before);
    expect(count.delta).toBe(0);
    // The view's totals and its breakdowns were compared too.
    expect(result.dataDiff.queries.map((q: { id: string }) => q.id)).toEqual(expect.arrayContaining(['view:orders_overview:*', 'view:orders_overview:status']));
    expect(result.dataDiff.queries.find((q: { id: string }) => q.id === 'view:orders_overview:status').status).toBe('changed');
    expect(result.summary).toMatchObject({ changes: 1, numberChanges: 1, breaking: 0, affectedWidgets: 2 });
    expect(result.impact.pushedViews).toEqual([expect.objectContaining({ viewName: 'orders_overview', status: 'affected', semanticView: expect.stringMatching(/ORDERS_OVERVIEW$/i) })]);
    expect(result.summary.queriesChanged).toBeGreaterThanOrEqual(2);
    // The merge dialog's line: the widget (once, though published and draft), its first moved number,
    // and the view breakdowns by customer fields the reviewer may not read (not in `support`).
    // The admin is in no group of customers' policies: the view queries over its members are skipped, not failed.
    expect(result.dataDiff.queries.filter((q: { status: string }) => q.status === 'skipped').map((q: { id: string }) => q.id)).toEqual(
      expect.arrayContaining(['view:orders_overview:customers_country']),
    );
    expect(verdictLine(result)).toEqual({ tone: 'changes', text: expect.stringMatching(/^1 dashboard widget changes: Sales overview › Orders by status, returned: total_amount [\d,.]+ → 0$/) });
  }, 120_000);

  it('answers a second request for the same commit pair with the stored review, and a refresh with a new one', async () => {
    const first = await svc.call('POST', `${D()}/data-model/reviews`, { body: { head: 'no-returns' } });
    expect(first.status).toBe(202);
    expect(first.body.reused).toBe(true);
    expect(first.body.status).toBe('COMPLETED');
    const listed = await svc.call('GET', `${D()}/data-model/reviews?head=no-returns`);
    expect(listed.body.items.map((r: { reviewId: string }) => r.reviewId)).toEqual([first.body.reviewId]);
    const fresh = await svc.call('POST', `${D()}/data-model/reviews`, { body: { head: 'no-returns', refresh: true } });
    expect(fresh.body.reused).toBe(false);
    expect(fresh.body.reviewId).not.toBe(first.body.reviewId);
    await waitForReview(fresh.body.reviewId);
    // Another reviewer's rights make another review: the first one is not theirs to read.
    const viewer = createUser(svc, 'viewer');
    const other = await svc.call('GET', `${D()}/data-model/reviews/${first.body.reviewId}`, { auth: viewer.auth });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('REVIEW_NOT_FOUND');
  }, 120_000);

  it('breaks a widget that queries a removed member and a pushed view that would drop it', async () => {
    await newBranch('drop-aov', {
      'model/cubes/orders.yml': ORDERS.replace(/ {6}- name: average_order_value\n(.*\n){3}/, ''),
      'model/views/orders_overview.yml': OVERVIEW.replace('          - average_order_value\n', ''),
    });
    const { result } = await review({ head: 'drop-aov', options: { dataDiff: false } });
    expect(result.changes.map((c: { kind: string; name: string }) => [c.kind, c.name])).toEqual(
      expect.arrayContaining([
        ['removed', 'orders.average_order_value'],
        ['removed', 'orders_overview.average_order_value'],
      ]),
    );
    expect(result.impact.widgets).toEqual([
      expect.objectContaining({ widgetId: 'aov', dashboard: 'published', status: 'breaks', message: expect.stringContaining('average_order_value') }),
      expect.objectContaining({ widgetId: 'aov', dashboard: 'draft', status: 'breaks' }),
    ]);
    expect(result.impact.breaking.map((b: { kind: string; subject: string }) => [b.kind, b.subject])).toEqual([
      ['widget', 'Sales overview › Average order value'],
      ['widget', 'Sales overview › Average order value (draft)'],
      ['push', expect.stringMatching(/ORDERS_OVERVIEW$/i)],
    ]);
    expect(result.impact.pushedViews[0]).toMatchObject({ status: 'breaks', droppedMembers: ['orders_overview.average_order_value'], branchName: 'main' });
    expect(result.dataDiff).toMatchObject({ enabled: false, queries: [] });
    expect(verdictLine(result)).toEqual({ tone: 'breaks', text: expect.stringMatching(/^3 things break: widget Sales overview › Average order value, .*average_order_value/) });
  }, 120_000);

  it('reviews what compiles on a branch with errors and lists what does not', async () => {
    await newBranch('broken', {
      'model/cubes/order_history.yml': 'cubes:\n  - name: order_history\n    sql_table: [unclosed\n',
      'model/cubes/orders.yml': ORDERS.replace('        type: max\n', '        type: min\n'),
    });
    const { result } = await review({ head: 'broken', options: { dataDiff: false } });
    expect(result.problems.base).toBeNull();
    expect(result.problems.head.errorCount).toBeGreaterThan(0);
    // The broken cube and the view over it are left out and named; the rest is reviewed.
    expect(result.problems.head.entities).toEqual(['order_history', 'order_trends']);
    expect(result.problems.head.errors[0]).toMatchObject({ file: 'model/cubes/order_history.yml', line: expect.any(Number) });
    expect(result.changes.map((c: { name: string }) => c.name)).toEqual(['orders.largest_order']);
    expect(verdictLine(result)).toEqual({ tone: 'same', text: '1 change, no number moves.' });
  }, 120_000);


  it('names the side whose query fails on the data, though both sides are computed in one statement', async () => {
    // The head's revenue casts the status text to a number: DuckDB refuses it while running.
    await newBranch('cast-status', {
      'model/cubes/orders.yml': ORDERS.replace('      - name: total_amount\n        sql: amount\n', '      - name: total_amount\n        sql: "CAST({CUBE}.status AS INTEGER)"\n'),
    });
    const { result } = await review({ head: 'cast-status' });
    const byStatus = result.dataDiff.queries.find((q: { id: string }) => q.id === 'view:orders_overview:status');
    expect(byStatus).toMatchObject({ status: 'failed', error: { side: 'head', message: expect.stringMatching(/convert|cast/i) } });
    expect(byStatus.durationMs.base).toEqual(expect.any(Number));
    expect(byStatus.durationMs.head).toBeNull();
  }, 120_000);
  it('reviews any two commits, `branch~N` included, and refuses unknown refs with 404 REF_NOT_FOUND', async () => {
    const git = (...args: string[]) => gitText(gitdir, ...args);
    const gitdir = await modelRepositoryDir(svc.ctx, id);
    const head = git('rev-parse', 'no-returns');
    const { result } = await review({ base: 'no-returns~1', head, options: { dataDiff: false } });
    expect(result.base.commit).toBe(git('rev-parse', 'no-returns~1'));
    expect(result.changes.map((c: { name: string }) => c.name)).toEqual(['orders.total_amount']);
    // Without a body: the deploy branch against its previous commit (its first commit: against itself).
    const defaulted = await svc.call('POST', `${D()}/data-model/reviews`);
    expect(defaulted.status, defaulted.text).toBe(202);
    expect(defaulted.body.head).toEqual({ ref: 'main', commit: git('rev-parse', 'main') });
    expect(defaulted.body.base.commit).toBe(git('rev-parse', 'main'));
    for (const body of [{ head: 'nope' }, { base: 'f'.repeat(40) }, { base: 'main~999' }]) {
      const res = await svc.call('POST', `${D()}/data-model/reviews`, { body });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(res.body.code).toBe('REF_NOT_FOUND');
    }
  }, 120_000);

  it('runs with the reviewer’s rights: a query over members an access policy hides from them is skipped with the reason, not failed', async () => {
    const CUSTOMERS = readFileSync(join(SAMPLE, 'cubes/customers.yml'), 'utf8');
    const changed = CUSTOMERS.replace(/( {6}- name: country\n {8}sql: )([^\n]+)/, '$1"UPPER({CUBE}.$2)"');
    expect(changed).not.toBe(CUSTOMERS);
    await newBranch('upper-country', { 'model/cubes/customers.yml': changed });
    const reviewAs = async (auth: string) => {
      const started = await svc.call('POST', `${D()}/data-model/reviews`, { body: { head: 'upper-country' }, auth });
      expect(started.status, started.text).toBe(202);
      expect((await waitForReview(started.body.reviewId)).status).toBe('COMPLETED');
      return (await svc.call('GET', `${D()}/data-model/reviews/${started.body.reviewId}/result`, { auth })).body;
    };
    const countries = (result: { dataDiff: { queries: { id: string }[] } }) => result.dataDiff.queries.find((q) => q.id === 'view:orders_overview:customers_country');

    // customers' policies show it to the support and marketing groups only; the view over it passes them on.
    const outsider = createUser(svc, 'developer');
    const hidden = await reviewAs(outsider.auth);
    expect(countries(hidden)).toMatchObject({ status: 'skipped', error: { side: 'both', message: expect.stringMatching(/access polic/i) } });
    expect(hidden.summary).toMatchObject({ queriesFailed: 0, queriesSkipped: hidden.dataDiff.queries.length });
    expect(hidden.dataDiff.budgetExhausted).toBe(false);
    expect(verdictLine(hidden).text).not.toMatch(/failed/);

    const support = createUser(svc, 'developer');
    const group = await svc.call('POST', '/api/v1/groups', { body: { name: 'support', userIds: [support.id] } });
    expect(group.status, group.text).toBe(201);
    const shown = await reviewAs(support.auth);
    expect(countries(shown)).toMatchObject({ status: expect.stringMatching(/^(same|changed)$/), error: null });
  }, 120_000);

  it('compares a branch with where it left the base branch named, not with that branch’s tip (`branch~0` for the tip)', async () => {
    const git = (...args: string[]) => gitText(gitdir, ...args);
    const gitdir = await modelRepositoryDir(svc.ctx, id);
    // `line` leaves main, `topic` leaves `line`; then `line` moves on with a change of its own.
    await newBranch('line', {});
    expect((await svc.call('POST', `${B()}/branches`, { body: { branchName: 'topic', parentBranch: 'line' } })).status).toBe(201);
    const forked = git('rev-parse', 'line');
    await commitFiles(svc.ctx, id, 'topic', [{ path: 'model/cubes/orders.yml', content: ORDERS.replace('    measures:\n', '    measures:\n      - name: topic_only\n        type: count\n') }], 'Topic', AUTHOR);
    await commitFiles(svc.ctx, id, 'line', [{ path: 'model/views/orders_overview.yml', content: OVERVIEW.replace('description: Orders with the customer who placed them', 'description: Changed on line') }], 'Line', AUTHOR);
    const fromFork = await review({ head: 'topic', base: 'line', options: { dataDiff: false } });
    expect(fromFork.result.base).toMatchObject({ ref: 'line', commit: forked });
    expect(fromFork.result.changes.map((c: { name: string }) => c.name)).toEqual(['orders.topic_only']);
    // Named as the parent it is, the base is what the default picks.
    const defaulted = await svc.call('POST', `${D()}/data-model/reviews`, { body: { head: 'topic', options: { dataDiff: false } } });
    expect(defaulted.body.base.commit).toBe(forked);
    // `line~0` is line's tip: its own later change shows as undone on topic.
    const tip = await review({ head: 'topic', base: 'line~0', options: { dataDiff: false } });
    expect(tip.result.base.commit).toBe(git('rev-parse', 'line'));
    expect(tip.result.changes.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['orders.topic_only', 'orders_overview']));
  }, 120_000);

  it('refuses bad options with 400 and unknown reviews with 404, and answers 409 for a result not there yet', async () => {
    const bad = await svc.call('POST', `${D()}/data-model/reviews`, { body: { head: 'main', options: { rowLimit: 0 } } });
    expect(bad.status).toBe(400);
    const unknownKey = await svc.call('POST', `${D()}/data-model/reviews`, { body: { head: 'main', colour: 'red' } });
    expect(unknownKey.status).toBe(400);
    expect((await svc.call('GET', `${D()}/data-model/reviews/nope`)).body.code).toBe('REVIEW_NOT_FOUND');
    expect((await svc.call('GET', `/api/v1/deployments/9999/data-model/reviews`)).status).toBe(404);
    // A review cancelled before it ran has no result.
    const queued = await svc.call('POST', `${D()}/data-model/reviews`, { body: { head: 'drop-aov', refresh: true, options: { concurrency: 1 } } });
    const cancelled = await svc.call('DELETE', `${D()}/data-model/reviews/${queued.body.reviewId}`);
    expect(cancelled.status).toBe(200);
    expect(['CANCELLED', 'CANCELLING']).toContain(cancelled.body.status);
    const done = await waitForReview(queued.body.reviewId);
    expect(done.status).toBe('CANCELLED');
    const result = await svc.call('GET', `${D()}/data-model/reviews/${queued.body.reviewId}/result`);
    expect(result.status).toBe(409);
    expect(result.body.code).toBe('REVIEW_NOT_COMPLETED');
    // Cancelling again answers the same.
    expect((await svc.call('DELETE', `${D()}/data-model/reviews/${queued.body.reviewId}`)).body.status).toBe('CANCELLED');
  }, 120_000);
});
