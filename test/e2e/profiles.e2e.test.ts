import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signInWithLoginLink, startE2E, startServer, type E2E, type E2EServer } from './support';

// Two running services: the one the browser signs in to ("local") and another Drydock reached
// through a profile ("remote"). The header switches every screen between them.
let e2e: E2E;
let remote: E2EServer;
let workbookId: number;
let older: Server;

/**
 * Stands for an older release of the remote: the same service, but its OpenAPI document lists no
 * user administration (interface version 0.9.0). Everything else is forwarded to the real remote.
 */
async function olderRelease(target: string): Promise<string> {
  const upstream = new URL(target);
  older = createServer((req, res) => {
    if (req.url === '/api/v1/spec') {
      void fetch(`${target}/api/v1/spec`).then(async (answer) => {
        const doc = (await answer.json()) as { info: { version: string }; paths: Record<string, Record<string, { operationId?: string }>> };
        doc.info.version = '0.9.0';
        for (const [path, operations] of Object.entries(doc.paths)) if (Object.values(operations).some((op) => op.operationId === 'listUsers')) delete doc.paths[path];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(doc));
      });
      return;
    }
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(older.address() as AddressInfo).port}`;
}

const deploymentBody = (name: string) => ({ name, cloudProvider: 'aws', creationMethod: 'upload', deployMode: 'cli', storageProvider: { type: 'local' } });

async function ok<T>(call: Promise<{ status: number; body: unknown }>, status: number): Promise<T> {
  const res = await call;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body as T;
}

beforeAll(async () => {
  // One after the other: two cold starts at once on a busy machine take longer than both in turn.
  remote = await startServer();
  e2e = await startE2E({ signIn: 'none' });
  const local = e2e.server.api;
  const staging = (await ok<{ id: number }>(local('POST', '/build/api/v1/deployments/', deploymentBody('local-staging')), 201)).id;
  await ok(remote.api('POST', '/build/api/v1/deployments/', deploymentBody('remote-production')), 201);
  workbookId = (
    await ok<{ id: number }>(
      local('POST', `/api/v1/deployments/${staging}/workbooks`, {
        name: 'Weekly revenue',
        slug: 'weekly-revenue',
        dashboardDraft: { title: 'Weekly revenue', widgets: [{ id: 'rev', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { title: 'Revenue' } }] },
      }),
      201,
    )
  ).id;
  await ok(local('POST', `/api/v1/deployments/${staging}/workbooks/${workbookId}/publish`), 200);
  // Signed in before the profile exists: the header learns of profiles added later (as by `drydock login`).
  await signInWithLoginLink(e2e.page, e2e.server);
  await ok(local('POST', '/api/v1/profiles', { name: 'remote', baseUrl: remote.url, credential: remote.apiKey, description: 'the other service' }), 201);
  await ok(local('POST', '/api/v1/profiles', { name: 'older', baseUrl: await olderRelease(remote.url), credential: remote.apiKey }), 201);
});
afterAll(async () => {
  older?.closeAllConnections();
  older?.close();
  await Promise.all([e2e?.teardown(), remote?.stop()]);
});

describe('remote profiles in a real browser', () => {
  it('switches every screen to the remote service from the header, and back', async () => {
    const { page } = e2e;
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Deployments' }).click();
    await page.getByRole('link', { name: 'local-staging' }).first().waitFor();

    // The profile was added after the page loaded (as `drydock login` would): the switcher refreshes on focus.
    await page.getByLabel('Service profile').focus();
    await page.getByLabel('Service profile').selectOption('remote');
    const status = page.getByRole('status', { name: 'Connected profile' });
    await status.getByText(remote.url).waitFor();
    await status.getByText('API 1.0.0').waitFor();
    await page.getByRole('link', { name: 'remote-production' }).first().waitFor();
    expect(await page.getByRole('link', { name: 'local-staging' }).count()).toBe(0);
    await screenshot(page, 'profiles-remote-deployments');

    await page.getByLabel('Service profile').selectOption('local');
    await page.getByRole('link', { name: 'local-staging' }).first().waitFor();
    expect(await page.getByRole('link', { name: 'remote-production' }).count()).toBe(0);

    // The profile keeps what connecting read: the remote's interface version and operations.
    await page.getByRole('link', { name: 'Manage profiles' }).click();
    const row = page.getByRole('table', { name: 'Profiles' }).getByRole('row', { name: /remote/ });
    await row.getByText('connected').waitFor();
    await row.getByText(/API 1\.0\.0 · \d+ operations/).waitFor();
    await screenshot(page, 'profiles-screen');
  });

  it('disables the screens whose operations a remote does not serve, and says which', async () => {
    const { page } = e2e;
    await page.getByLabel('Service profile').selectOption('older');
    await page.getByRole('status', { name: 'Connected profile' }).getByText('API 0.9.0').waitFor();
    const admin = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' });
    await expect.poll(() => admin.getAttribute('aria-disabled')).toBe('true');
    expect(await admin.getAttribute('title')).toContain('listUsers');
    // Opened anyway (a bookmark, a reload: the tab keeps its profile), it says why instead of failing.
    await page.goto(`${e2e.server.url}/admin`);
    await page.getByRole('status', { name: 'Connected profile' }).getByText('API 0.9.0').waitFor();
    const notServed = page.getByRole('region', { name: 'Admin not available' });
    await notServed.getByText('Admin is not available on older').waitFor();
    await notServed.getByText('listUsers').waitFor();
    // Screens it does serve keep working against it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deployments' }).click();
    await page.getByRole('link', { name: 'remote-production' }).first().waitFor();
    await screenshot(page, 'profiles-not-served');
    await page.getByLabel('Service profile').selectOption('local');
    await page.getByRole('link', { name: 'local-staging' }).first().waitFor();
  });

  it('promotes a workbook to the remote profile after a preview, and keeps it in the history', async () => {
    const { page } = e2e;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'To other profiles' }).click();
    await page.getByRole('heading', { name: 'To other profiles', level: 1 }).waitFor();
    await page.getByLabel('Workbook', { exact: true }).selectOption({ label: 'Weekly revenue (weekly-revenue)' });
    await page.getByLabel('To profile').selectOption('remote');
    await page.getByLabel('Target deployment (remote)').selectOption({ label: 'remote-production' });
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Promotion preview' });
    await preview.getByText('CREATE', { exact: true }).waitFor();
    await preview.getByText('remote-production on remote').first().waitFor();

    await page.getByRole('button', { name: 'Promote to remote: create' }).click();
    const progress = page.getByRole('status', { name: 'Transfer status' });
    await progress.getByText('completed').waitFor();
    await progress.getByText('The remote recorded where it came from.').waitFor();
    await page.getByRole('table', { name: 'Transfers to other profiles' }).getByText('Weekly revenue', { exact: false }).waitFor();
    await screenshot(page, 'profiles-promoted-to-remote');

    const onRemote = (await ok<{ items: { slug: string; name: string }[] }>(remote.api('GET', '/api/v1/deployments/1/workbooks?first=50'), 200)).items;
    expect(onRemote.map((w) => w.slug)).toContain('weekly-revenue');
    expect(e2e.problems).toEqual([]);
  });
});
