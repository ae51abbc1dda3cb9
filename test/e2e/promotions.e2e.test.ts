import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, startE2E, type E2E } from './support';

interface Promotion {
  id: number;
  operation: 'CREATE' | 'UPDATE';
  sourceHash: string;
  targetHashAfter: string;
  idempotencyKey: string | null;
  target: { deploymentId: number; workbookId: number | null };
}
interface Provenance {
  contentHash: string;
  promotedFrom: { sourceDeploymentId: number; sourceWorkbookId: number | null } | null;
  promotedTo: { targetDeploymentId: number; targetWorkbookId: number | null }[];
}

const pos = (x: number, y: number, w: number, h: number) => ({ x, y, w, h });

/** A dashboard with every kind of widget the view draws, including a tabbed container. */
const dashboard = {
  title: 'Revenue overview',
  description: 'Weekly revenue for the leadership team',
  kind: 'CLASSIC',
  layout: { cols: { lg: 12 }, rowHeight: 40, margin: [10, 10] },
  theme: { primaryColor: '#2563c9' },
  widgets: [
    { id: 'intro', type: 'TEXT', position: pos(0, 0, 12, 2), config: { text: '## Revenue overview\nNumbers refresh hourly.' } },
    { id: 'region', type: 'FILTER', position: pos(0, 2, 3, 2), config: { title: 'Region', field: 'orders.region' } },
    { id: 'grain', type: 'TIME_GRAIN', position: pos(3, 2, 3, 2), config: { title: 'Grain', grain: 'week' } },
    { id: 'revenue', type: 'CHART', position: pos(0, 4, 6, 6), config: { title: 'Revenue by week', chartType: 'line', measure: 'orders.revenue' } },
    { id: 'orders', type: 'CHART', position: pos(6, 4, 6, 6), config: { title: 'Orders by region', chartType: 'bar', measure: 'orders.count' } },
    { id: 'details', type: 'CONTAINER', position: pos(0, 10, 12, 5), config: { title: 'Details', layout: 'tabs', tabs: ['By product', 'By channel'] } },
    { id: 'top-products', type: 'CHART', position: pos(0, 0, 6, 4), config: { title: 'Top products', chartType: 'table', parentId: 'details', tabId: 'By product' } },
    { id: 'channels', type: 'CHART', position: pos(0, 0, 6, 4), config: { title: 'Revenue by channel', chartType: 'pie', parentId: 'details', tabId: 'By channel' } },
  ],
};

/** The source after an edit: one widget added, one removed, one moved, one changed; theme and layout changed. */
const edited = {
  ...dashboard,
  layout: { ...dashboard.layout, rowHeight: 36 },
  theme: { primaryColor: '#0f766e', backgroundColor: '#f4f7f6' },
  widgets: [
    dashboard.widgets[0],
    dashboard.widgets[1],
    { id: 'margin', type: 'CHART', position: pos(3, 2, 9, 2), config: { title: 'Gross margin', chartType: 'number', measure: 'orders.margin' } },
    { ...dashboard.widgets[3], config: { ...dashboard.widgets[3].config, title: 'Net revenue by week', chartType: 'area' } },
    { ...dashboard.widgets[4], position: pos(6, 4, 6, 8) },
    { ...dashboard.widgets[5], position: pos(0, 12, 12, 5) },
    dashboard.widgets[6],
    dashboard.widgets[7],
  ],
};

/** The shell scrolls inside `.main`: grow the viewport to the content so the picture is whole. */
async function shot(page: Page, name: string): Promise<void> {
  const height = await page.evaluate(() => Math.max(document.querySelector('.main')?.scrollHeight ?? 0, window.innerHeight));
  await page.setViewportSize({ width: 1360, height: Math.min(height, 4000) });
  await screenshot(page, name);
  await page.setViewportSize({ width: 1360, height: 860 });
}

let e2e: E2E;
let staging: number;
let production: number;
let workbookId: number;

const wbUrl = (deploymentId: number, id?: number) => `/api/v1/deployments/${deploymentId}/workbooks${id === undefined ? '' : `/${id}`}`;

async function ok<T>(call: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const res = await call;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as T;
}

beforeAll(async () => {
  e2e = await startE2E();
  const { api } = e2e.server;
  const deployment = (name: string) =>
    ok<{ id: number }>(api('POST', '/build/api/v1/deployments/', { name, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } }), 201);
  staging = (await deployment('analytics-staging')).id;
  production = (await deployment('analytics-prod')).id;
  workbookId = (await ok<{ id: number }>(api('POST', wbUrl(staging), { name: 'Revenue overview', slug: 'revenue-overview', description: 'Leadership dashboard', dashboardDraft: dashboard }), 201)).id;
  await ok(api('POST', `${wbUrl(staging, workbookId)}/publish`), 200);
  // A second workbook, for the search to leave out.
  await ok(api('POST', wbUrl(staging), { name: 'Churn watch', slug: 'churn-watch' }), 201);
});
afterAll(async () => {
  await e2e?.teardown();
});

const promotionsOf = async () => (await ok<{ items: Promotion[] }>(e2e.server.api('GET', `${wbUrl(staging, workbookId)}/promotions?first=100`), 200)).items;

describe('Promotions screen in a real browser', () => {
  it('picks a workbook by search and a target, and previews a CREATE with every widget added', async () => {
    const { page } = e2e;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Promotions' }).click();
    await page.getByRole('heading', { name: 'Promotions', level: 1 }).waitFor();
    await page.getByLabel('Source deployment').selectOption({ label: 'analytics-staging' });
    const list = page.getByRole('list', { name: 'Workbooks' });
    await list.getByRole('link', { name: 'Churn watch' }).waitFor();
    await page.getByLabel('Search workbooks').fill('revenue');
    await expect.poll(() => list.getByRole('link').count()).toBe(1);
    await list.getByRole('link', { name: 'Revenue overview' }).click();
    await page.waitForURL(new RegExp(`/promotions/${staging}/${workbookId}$`));

    await page.getByLabel('Target deployment').selectOption({ label: 'analytics-prod' });
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Promotion preview' });
    await preview.getByText('CREATE', { exact: true }).waitFor();
    await preview.getByText('none — the workbook will be created').waitFor();
    const after = preview.getByRole('list', { name: 'After promotion' });
    await after.getByRole('listitem', { name: 'Revenue by week — Chart, added' }).waitFor();
    await after.getByRole('listitem', { name: 'Details — Container, added' }).waitFor();
    await expect(preview.getByRole('table', { name: 'Widget changes' }).getByRole('row').count()).resolves.toBe(1 + dashboard.widgets.length);
    // Nothing is stored by a preview.
    expect(await promotionsOf()).toEqual([]);
    await shot(page, 'promotion-preview-create');
  });

  it('applies once on a double click and shows the record, history and provenance on both sides', async () => {
    const { page } = e2e;
    await page.getByRole('button', { name: 'Apply: create workbook' }).dblclick();
    const result = page.getByRole('status', { name: 'Promotion applied' });
    await result.getByText(/Promoted as #\d+/).waitFor();

    const promotions = await promotionsOf();
    expect(promotions, 'a double click applies once').toHaveLength(1);
    expect(promotions[0]).toMatchObject({ operation: 'CREATE', target: { deploymentId: production } });
    expect(promotions[0].idempotencyKey).toMatch(/^ui-/);
    await result.getByText(`Promoted as #${promotions[0].id}`).waitFor();

    const source = page.getByRole('region', { name: 'Source provenance' });
    await source.getByRole('list', { name: 'Promoted to' }).getByText('analytics-prod').waitFor();
    await source.getByText('in sync').waitFor();
    const target = page.getByRole('region', { name: 'Target provenance' });
    await target.getByTestId('promoted-from').getByText('analytics-staging').waitFor();
    await page.getByRole('list', { name: 'Source promotions' }).getByRole('listitem', { name: `Promotion ${promotions[0].id}` }).waitFor();
    await page.getByRole('list', { name: 'Target promotions' }).getByRole('listitem', { name: `Promotion ${promotions[0].id}` }).waitFor();
    await shot(page, 'promotion-applied-create');
  });

  it('previews an UPDATE as a visual diff: added, removed, moved and changed widgets, theme and layout', async () => {
    const { page, server } = e2e;
    await ok(server.api('PUT', `${wbUrl(staging, workbookId)}/dashboard`, { dashboardDraft: edited }), 200);
    await ok(server.api('POST', `${wbUrl(staging, workbookId)}/publish`), 200);

    await page.getByRole('region', { name: 'Promotion', exact: true }).getByRole('button', { name: 'Preview again' }).click();
    const preview = page.getByRole('region', { name: 'Promotion preview' });
    await preview.getByText('UPDATE', { exact: true }).waitFor();
    const rows = preview.getByRole('table', { name: 'Widget changes' });
    await rows.getByRole('row').filter({ hasText: /added.*Gross margin/ }).waitFor();
    await rows.getByRole('row').filter({ hasText: /removed.*Grain/ }).waitFor();
    await rows.getByRole('row').filter({ hasText: /moved.*Orders by region.*\(6, 4\) 6×6.*\(6, 4\) 6×8/ }).waitFor();
    await rows.getByRole('row').filter({ hasText: /changed.*Net revenue by week.*config\.chartType.*"line".*"area"/ }).waitFor();
    await preview.getByRole('list', { name: 'Theme changes' }).getByText('primaryColor').waitFor();
    await preview.getByRole('list', { name: 'Layout changes' }).getByText('rowHeight').waitFor();
    await preview.getByRole('list', { name: 'Target now' }).getByRole('listitem', { name: 'Grain — Time grain, removed' }).waitFor();
    await preview.getByRole('list', { name: 'After promotion' }).getByRole('listitem', { name: 'Gross margin — Chart, added' }).waitFor();
    await shot(page, 'promotion-preview-update');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'promotion-preview-update-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('explains a stale preview when the source changed after it, then previews again and applies', async () => {
    const { page, server } = e2e;
    const preview = page.getByRole('region', { name: 'Promotion preview' });
    const previewedHash = await preview.locator('code[data-hash]').first().getAttribute('data-hash');
    expect(previewedHash).toMatch(/^[0-9a-f]{64}$/);

    // Someone edits the source after the preview.
    const changed = { ...edited, widgets: edited.widgets.map((w) => (w.id === 'orders' ? { ...w, config: { ...w.config, title: 'Orders by sales region' } } : w)) };
    await ok(server.api('PUT', `${wbUrl(staging, workbookId)}/dashboard`, { dashboardDraft: changed }), 200);
    const current = await ok<{ sourceHash: string }>(server.api('POST', `${wbUrl(staging, workbookId)}/promotion-previews`, { targetDeploymentId: production }), 200);
    expect(current.sourceHash).not.toBe(previewedHash);

    await page.getByRole('button', { name: 'Apply: update workbook' }).click();
    const stale = page.getByRole('alert', { name: 'Stale preview' });
    await stale.waitFor();
    const text = (await stale.textContent()) ?? '';
    expect(text).toContain(
      `The source workbook changed after this preview (hash ${previewedHash!.slice(0, 12)}… → ${current.sourceHash.slice(0, 12)}…). Preview again to see the current changes.`,
    );
    await preview.getByText('out of date').waitFor();
    await expect(page.getByRole('button', { name: 'Apply: update workbook' }).isDisabled()).resolves.toBe(true);
    expect(await promotionsOf(), 'nothing was promoted').toHaveLength(1);
    await shot(page, 'promotion-stale-preview');

    await stale.getByRole('button', { name: 'Preview again' }).click();
    await stale.waitFor({ state: 'detached' });
    await expect.poll(() => preview.locator('code[data-hash]').first().getAttribute('data-hash')).toBe(current.sourceHash);
    // The edit was to the draft only: the published diff is as before, the draft's shows it.
    await preview.getByRole('tab', { name: /Draft dashboard/ }).click();
    await preview.getByRole('tabpanel', { name: 'Draft dashboard' }).getByRole('table', { name: 'Widget changes' }).getByRole('row').filter({ hasText: /changed.*Orders by sales region/ }).waitFor();
    await shot(page, 'promotion-preview-draft');

    await page.getByRole('button', { name: 'Apply: update workbook' }).click();
    await page.getByRole('status', { name: 'Promotion applied' }).getByText('UPDATE', { exact: true }).waitFor();
    const promotions = await promotionsOf();
    expect(promotions).toHaveLength(2);
    expect(promotions[0]).toMatchObject({ operation: 'UPDATE', sourceHash: current.sourceHash, targetHashAfter: current.sourceHash });

    const targetId = promotions[0].target.workbookId!;
    const targetProvenance = await ok<Provenance>(server.api('GET', `${wbUrl(production, targetId)}/promotion`), 200);
    expect(targetProvenance.contentHash).toBe(current.sourceHash);
    expect(targetProvenance.promotedFrom).toMatchObject({ sourceDeploymentId: staging, sourceWorkbookId: workbookId });
    await page.getByRole('list', { name: 'Target promotions' }).getByRole('listitem', { name: `Promotion ${promotions[0].id}` }).waitFor();
    await shot(page, 'promotion-applied-update');
  });

  it('opens the promoted workbook: its dashboard grid, tabs, draft and published versions', async () => {
    const { page } = e2e;
    await page.getByRole('link', { name: 'Open target workbook' }).click();
    await page.waitForURL(new RegExp(`/workbooks/${production}/\\d+$`));
    await page.getByRole('heading', { name: /Revenue overview/, level: 1 }).waitFor();
    const grid = page.getByRole('list', { name: 'Published dashboard widgets' });
    await grid.getByRole('listitem', { name: 'Gross margin — Chart' }).waitFor();
    await grid.getByRole('listitem', { name: 'Orders by region — Chart' }).waitFor();
    // The container's children are drawn inside its tabs, not on the grid.
    await expect(grid.getByRole('listitem', { name: 'Top products — Chart' }).count()).resolves.toBe(0);
    const tabs = page.getByRole('tablist', { name: 'Tabs of Details' });
    await tabs.getByRole('tab', { name: 'By product', selected: true }).waitFor();
    await grid.getByText('Top products').waitFor();
    await tabs.getByRole('tab', { name: 'By channel' }).click();
    await grid.getByText('Revenue by channel').waitFor();
    // Grid geometry comes from the layout: 12 columns; the moved widget spans rows 5–12.
    await expect(grid.getAttribute('data-cols')).resolves.toBe('12');
    await expect(grid.getByRole('listitem', { name: 'Orders by region — Chart' }).evaluate((el) => getComputedStyle(el).gridRow)).resolves.toBe('5 / 13');
    await page.getByRole('region', { name: 'Provenance' }).getByTestId('promoted-from').getByText('analytics-staging').waitFor();
    await shot(page, 'workbook-view-published');

    // The draft was promoted too: it carries the latest title.
    await page.getByRole('group', { name: 'Dashboard version' }).getByRole('button', { name: 'Draft' }).click();
    await page.waitForURL(/\/draft$/);
    await page.getByRole('list', { name: 'Draft dashboard widgets' }).getByRole('listitem', { name: 'Orders by sales region — Chart' }).waitFor();
    await shot(page, 'workbook-view-draft');
  });

  it('explains a stale preview when the target was edited after it', async () => {
    const { page, server } = e2e;
    const [last] = await promotionsOf();
    const targetId = last.target.workbookId!;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Promotions' }).click();
    await page.getByLabel('Source deployment').selectOption({ label: 'analytics-staging' });
    await page.getByRole('list', { name: 'Workbooks' }).getByRole('link', { name: 'Revenue overview' }).click();
    await page.getByLabel('Target deployment').selectOption({ label: 'analytics-prod' });
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Promotion preview' });
    // Source and target are the same now: the preview says so.
    await preview.getByText('The target already has exactly this content.', { exact: false }).waitFor();
    const targetHash = await preview.locator('code[data-hash]').nth(1).getAttribute('data-hash');

    // Someone edits the target's draft in production after the preview.
    const target = await ok<{ dashboardDraft: typeof edited }>(server.api('GET', wbUrl(production, targetId)), 200);
    await ok(server.api('PUT', `${wbUrl(production, targetId)}/dashboard`, { dashboardDraft: { ...target.dashboardDraft, title: 'Revenue overview (prod hotfix)' } }), 200);
    const now = await ok<Provenance>(server.api('GET', `${wbUrl(production, targetId)}/promotion`), 200);

    await page.getByRole('button', { name: 'Apply: update workbook' }).click();
    const stale = page.getByRole('alert', { name: 'Stale preview' });
    await stale.getByText(`The target workbook changed after this preview (hash ${targetHash!.slice(0, 12)}… → ${now.contentHash.slice(0, 12)}…).`, { exact: false }).waitFor();
    expect(await promotionsOf(), 'nothing was promoted').toHaveLength(2);
    // The target's provenance now shows the edit.
    await page.getByRole('region', { name: 'Target provenance' }).getByText('edited here since').waitFor();
    await shot(page, 'promotion-stale-target');

    await stale.getByRole('button', { name: 'Preview again' }).click();
    await preview.getByRole('tab', { name: /Draft dashboard/ }).click();
    await preview.getByRole('list', { name: 'Dashboard fields changes' }).getByText('Revenue overview (prod hotfix)').waitFor();
    await page.getByRole('button', { name: 'Apply: update workbook' }).click();
    await page.getByRole('status', { name: 'Promotion applied' }).waitFor();
    expect(await promotionsOf()).toHaveLength(3);
  });

  it('lists workbooks with their promotion summary and reaches every screen without console errors', async () => {
    const { page, problems } = e2e;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workbooks' }).click();
    await page.getByRole('heading', { name: /Workbooks/, level: 1 }).waitFor();
    await page.getByLabel('Deployment', { exact: true }).selectOption({ label: 'analytics-prod' });
    const row = page.getByRole('table', { name: 'Workbooks' }).getByRole('row').filter({ hasText: /Revenue overview/ });
    await row.getByText('from analytics-staging').waitFor();
    await shot(page, 'workbooks-list');
    await row.getByRole('link', { name: 'Promote Revenue overview' }).click();
    await page.waitForURL(new RegExp(`/promotions/${production}/\\d+$`));
    await page.getByRole('region', { name: 'Source provenance' }).getByTestId('promoted-from').waitFor();
    expect(problems).toEqual([]);
  });
});
