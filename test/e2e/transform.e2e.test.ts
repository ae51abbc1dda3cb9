// Syncs › Transform in a real browser (issue 14 item 8): a transform sync whose dbt manifest is not in
// the repository fails; once the manifest is committed, Retry runs the same sync again as a new job
// and shows it. (The refusals — branch gone, manifest sent in the request — are unit-tested in
// test/unit/renderer/syncs-retry.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeployment, screenshot, startE2E, type E2E } from './support';

interface SyncBody {
  syncJobId: string;
  status: string;
  source: string;
  branchName: string;
  manifestPath: string | null;
  output: string;
  trigger: string;
  error?: { code: string };
}

/** The smallest dbt manifest the sync reads: one model with columns. */
const MANIFEST = {
  metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/manifest/v12.json', dbt_version: '1.8.7', project_name: 'shop', adapter_type: 'postgres' },
  nodes: {
    'model.shop.refunds': {
      unique_id: 'model.shop.refunds',
      resource_type: 'model',
      name: 'refunds',
      package_name: 'shop',
      database: 'analytics',
      schema: 'marts',
      alias: 'refunds',
      description: 'Refunds',
      config: { enabled: true, materialized: 'table' },
      columns: { refund_id: { name: 'refund_id', data_type: 'integer' }, amount: { name: 'amount', data_type: 'numeric(18,2)' } },
    },
  },
  sources: {},
  semantic_models: {},
  metrics: {},
};

let e2e: E2E;
let deploymentId: number;
let devBranch: string;
const syncs = async (): Promise<SyncBody[]> =>
  ((await e2e.server.api('GET', `/api/v1/deployments/${deploymentId}/transform-sync?first=50`)).body as { items: SyncBody[] }).items;

beforeAll(async () => {
  e2e = await startE2E();
  deploymentId = await createDeployment(e2e.server, 'transform-e2e');
  // Files are edited on a dev-mode branch: the dbt manifest is committed there.
  const dev = await e2e.server.api('POST', `/build/api/v1/deployments/${deploymentId}/dev-mode`, {});
  expect([200, 201]).toContain(dev.status);
  devBranch = (dev.body as { branch: { branchName: string } }).branch.branchName;
}, 180_000);
afterAll(async () => {
  await e2e?.teardown();
});

describe('Syncs › Transform: retry of a failed transform sync', () => {
  it('starts a sync from git; without a manifest in the repository it fails with its code', async () => {
    const { page, server } = e2e;
    await page.goto(`${server.url}/syncs/${deploymentId}/transform`);
    await page.getByText('No transform syncs yet').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Sync from dbt manifest…' }).click();
    const form = page.getByRole('form', { name: 'Start a transform sync' });
    await expect(form.getByLabel('Manifest path').inputValue()).resolves.toBe('target/manifest.json');
    await form.getByLabel('Branch', { exact: true }).selectOption(devBranch);
    await form.getByRole('button', { name: 'Start sync' }).click();
    const table = page.getByRole('table', { name: 'Transform syncs' });
    await table.getByText('FAILED').waitFor({ timeout: 60_000 });
    await table.getByText('MANIFEST_NOT_FOUND').waitFor();
    const [failed] = await syncs();
    expect(failed).toMatchObject({ status: 'FAILED', source: 'git',  manifestPath: 'target/manifest.json', output: 'branch', error: { code: 'MANIFEST_NOT_FOUND' } });
  });

  it('Retry, once the manifest is committed, runs the same sync again as a new job and marks it', async () => {
    const { page, server } = e2e;
    const [failed] = await syncs();
    const files = `/build/api/v1/deployments/${deploymentId}/data-model/files?branchName=${encodeURIComponent(failed.branchName)}`;
    expect((await server.api('PUT', files, { files: [{ path: 'target/manifest.json', content: JSON.stringify(MANIFEST) }] })).status).toBe(200);
    expect((await server.api('POST', `/build/api/v1/deployments/${deploymentId}/commit`, { branchName: failed.branchName, message: 'dbt parse' })).status).toBe(200);

    // The commit also re-runs the branch's git sync by itself (trigger `commit`): its row comes in
    // above the failed one while the page is open. Retry is clicked once that sync has ended, so no
    // row moves under the pointer between finding the button and clicking it.
    const table = page.getByRole('table', { name: 'Transform syncs' });
    await table.getByText('COMPLETED', { exact: true }).waitFor({ timeout: 60_000 });
    await table.getByRole('button', { name: /^Retry transform sync/ }).click();
    await page.waitForURL((url) => /\/transform\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(failed.syncJobId));
    const newId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const marked = table.locator('tr.selected');
    await marked.getByText('COMPLETED', { exact: true }).waitFor({ timeout: 60_000 });
    // The commit of the manifest also re-ran the branch's git sync by itself (trigger `commit`).
    const all = (await syncs()).filter((s) => s.trigger === 'manual');
    expect(all.map((s) => [s.syncJobId, s.status])).toEqual([
      [newId, 'COMPLETED'],
      [failed.syncJobId, 'FAILED'],
    ]);
    // The same request: branch, manifest path and output.
    const request = (s: SyncBody) => ({ source: s.source, branchName: s.branchName, manifestPath: s.manifestPath, output: s.output, trigger: s.trigger });
    expect(request(all[0])).toEqual(request(failed));
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, 'transform-retried-1024');
    await page.setViewportSize({ width: 1600, height: 1000 });
    await screenshot(page, 'transform-retried-1600');
    await page.setViewportSize({ width: 1360, height: 860 });
    expect(e2e.problems).toEqual([]);
  });
});
