import { existsSync } from 'node:fs';
import { crc32, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src-main/platform/clock';
import { getJobRunner } from '../../src-main/platform/jobs';
import { createDeployment } from '../support/deployments';
import { ADMIN_KEY, startTestService, type TestService } from '../support/service';
import { bearerFor, createUser, type TestUser } from '../support/users';

let svc: TestService;
let clock: ManualClock;
let d: number;
let owner: TestUser;
let other: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  clock = new ManualClock(new Date('2026-05-01T09:00:00.000Z'));
  svc = await startTestService({ clock });
  d = await createDeployment(svc);
  owner = createUser(svc, 'developer', { name: 'Owner' });
  other = createUser(svc, 'developer', { name: 'Other' });
  viewer = createUser(svc, 'viewer', { name: 'Viewer' });
});
afterAll(async () => svc.stop());

const W = () => `/api/v1/deployments/${d}/workbooks`;
const E = () => `/api/v1/deployments/${d}/dashboard-exports`;

const DASHBOARD = {
  title: 'Revenue Overview',
  theme: { backgroundColor: '#e0e4e8', primaryColor: '#ff8800' },
  layout: { cols: { lg: 12 }, rowHeight: 40, margin: [10, 10], containerPadding: [10, 10] },
  widgets: [
    { id: 'rev', type: 'CHART', position: { x: 0, y: 0, w: 6, h: 4 }, config: { title: 'Revenue by month', chartType: 'line', query: { measures: ['orders.revenue'] } } },
    { id: 'cnt', type: 'CHART', position: { x: 6, y: 0, w: 6, h: 4 }, config: { title: 'Orders (count)' } },
    { id: 'note', type: 'TEXT', position: { x: 0, y: 4, w: 12, h: 3 }, config: { text: '## Notes: revenue is gross' } },
  ],
};

async function publishedWorkbook(auth: string, options: { shared?: boolean; publish?: boolean } = {}) {
  const created = await svc.call('POST', W(), { body: { name: `Board ${Math.random().toString(36).slice(2, 7)}`, shared: options.shared ?? true }, auth });
  expect(created.status, created.text).toBe(201);
  if (options.publish !== false) {
    const published = await svc.call('POST', `${W()}/${created.body.id}/publish`, { body: { config: DASHBOARD }, auth });
    expect(published.status, published.text).toBe(200);
  }
  return created.body as { id: number; slug: string };
}

async function completed(jobId: string, auth: string) {
  await getJobRunner(svc.ctx).wait(jobId, { timeoutMs: 20_000 });
  return (await svc.call('GET', `${E()}/${jobId}`, { auth })).body;
}

async function download(jobId: string, auth: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${svc.url}${E()}/${jobId}/download`, { headers: { authorization: auth } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** PNG chunks with their CRCs checked, and the decoded RGB pixels. */
function decodePng(bytes: Buffer) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.subarray(at + 4, at + 8).toString('latin1');
    const data = bytes.subarray(at + 8, at + 8 + length);
    expect(bytes.readUInt32BE(at + 8 + length), `CRC of ${type}`).toBe(crc32(bytes.subarray(at + 4, at + 8 + length)));
    chunks.push({ type, data });
    at += 12 + length;
  }
  expect(chunks[0].type).toBe('IHDR');
  expect(chunks[chunks.length - 1].type).toBe('IEND');
  const ihdr = chunks[0].data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  expect([ihdr[8], ihdr[9], ihdr[12]]).toEqual([8, 2, 0]); // 8-bit RGB, no interlace
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  expect(raw.length).toBe((width * 3 + 1) * height);
  const pixel = (x: number, y: number) => {
    const row = y * (width * 3 + 1);
    expect(raw[row]).toBe(0); // filter type None
    const i = row + 1 + x * 3;
    return [raw[i], raw[i + 1], raw[i + 2]];
  };
  return { width, height, pixel };
}

describe('dashboard exports', () => {
  it('renders the published dashboard to a PNG (202, then COMPLETED; the download parses: signature, IHDR dimensions, the widget grid)', async () => {
    const wb = await publishedWorkbook(owner.auth);
    const started = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'png' }, auth: owner.auth });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ workbookId: wb.id, format: 'png', contentType: 'image/png', requestedBy: owner.id, renderAsUserId: owner.id, downloadUrl: null });
    expect(started.body.expiresAt).toBe('2026-05-01T09:05:00.000Z');
    const status = await completed(started.body.jobId, owner.auth);
    expect(status).toMatchObject({ status: 'COMPLETED', downloadUrl: `${E()}/${started.body.jobId}/download` });

    const file = await download(started.body.jobId, owner.auth);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${wb.slug}.png"`);
    expect(Number(file.headers.get('content-length'))).toBe(file.bytes.length);
    expect(status.size).toBe(file.bytes.length);
    const png = decodePng(file.bytes);
    // 1280 wide by default; height: header 56 + padding 10 + two rows of widgets (4 and 3 grid rows of 40 with 10 margins) + padding 10.
    expect(png.width).toBe(1280);
    expect(png.height).toBe(56 + 10 + (4 * 40 + 3 * 10) + 10 + (3 * 40 + 2 * 10) + 10);
    // Theme background outside widgets; a white panel inside the first chart with the primary colour as its accent bar.
    expect(png.pixel(2, 2)).toEqual([0xe0, 0xe4, 0xe8]);
    expect(png.pixel(300, 200)).toEqual([255, 255, 255]);
    expect(png.pixel(300, 66 + 1)).toEqual([0xff, 0x88, 0x00]);
    // The gap between the two charts (x = 10 + 6 columns + margin) shows the background.
    const colWidth = (1280 - 20 - 11 * 10) / 12;
    expect(png.pixel(Math.floor(10 + 6 * colWidth + 5 * 10 + 5), 150)).toEqual([0xe0, 0xe4, 0xe8]);
  });

  it('renders the published dashboard to a PDF (header, cross-reference offsets, trailer, %%EOF; titles as text)', async () => {
    const wb = await publishedWorkbook(owner.auth);
    const started = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'pdf' }, auth: owner.auth });
    await completed(started.body.jobId, owner.auth);
    const file = await download(started.body.jobId, owner.auth);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const text = file.bytes.toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
    const xref = /xref\n0 (\d+)\n([\s\S]*?)trailer/.exec(text.slice(startxref))!;
    const entries = xref[2].trim().split('\n').slice(1);
    expect(entries).toHaveLength(Number(xref[1]) - 1);
    entries.forEach((entry, index) => {
      const offset = Number(entry.slice(0, 10));
      expect(text.slice(offset, offset + `${index + 1} 0 obj`.length)).toBe(`${index + 1} 0 obj`);
    });
    expect(text).toMatch(/\/Type \/Catalog/);
    expect(text).toMatch(/\/Type \/Pages \/Kids \[[^\]]+\] \/Count 1/);
    expect(text).toContain('/BaseFont /Helvetica');
    expect(text).toContain('(Revenue Overview) Tj');
    expect(text).toContain('(Revenue by month) Tj');
    expect(text).toContain('(Orders \\(count\\)) Tj');
    // Every content stream's /Length is its byte length.
    for (const match of text.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
      const start = match.index! + match[0].length;
      expect(text.slice(start + Number(match[1]), start + Number(match[1]) + 'endstream'.length)).toBe('endstream');
    }
  });

  it('default runs as the caller and needs manage access to the workbook: a non-owner developer and a viewer get 403, admins may', async () => {
    const wb = await publishedWorkbook(owner.auth);
    for (const user of [other, viewer]) {
      const res = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'png' }, auth: user.auth });
      expect(res.status).toBe(403);
    }
    const admin = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'png' } });
    expect(admin.status).toBe(202);
    expect((await completed(admin.body.jobId, `Api-Key ${ADMIN_KEY}`)).status).toBe('COMPLETED');
  });

  it('renderAs is for tenant admins only (403 otherwise); the dashboard is rendered as that user, who must see the workbook', async () => {
    const wb = await publishedWorkbook(owner.auth, { shared: false });
    const byOwner = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'png', renderAs: { userId: owner.id } }, auth: owner.auth });
    expect(byOwner.status).toBe(403);
    expect(byOwner.body.code).toBe('RENDER_AS_NOT_ALLOWED');
    // A private workbook: the viewer cannot see it, so it cannot be rendered as them.
    const asViewer = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'png', renderAs: { userId: viewer.id } } });
    expect(asViewer.status).toBe(403);
    const asOwner = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'pdf', renderAs: { userId: owner.id } } });
    expect(asOwner.status).toBe(202);
    expect(asOwner.body.renderAsUserId).toBe(owner.id);
    expect((await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'png', renderAs: { userId: 999_999 } } })).status).toBe(404);
  });

  it('renderAs a user without access to the workbook is refused like their own request: a shared workbook, but deployment read withdrawn', async () => {
    const wb = await publishedWorkbook(owner.auth, { shared: true });
    const reader = createUser(svc, 'viewer', { name: 'Reader' });
    const asReader = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'png', renderAs: { userId: reader.id } } });
    expect(asReader.status).toBe(202);
    const withdrawn = await svc.call('PUT', `/api/v1/users/${reader.id}`, { body: { userPolicies: ['-DeploymentRead'] } });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    // The user's own request is refused ...
    expect((await svc.call('GET', `${W()}/${wb.id}`, { auth: reader.auth })).status).toBe(403);
    // ... and so is rendering as them, naming why.
    const refused = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'png', renderAs: { userId: reader.id } } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('RENDER_AS_NO_ACCESS');
  });

  it('a workbook without a published dashboard → 409; an unknown workbook → 404', async () => {
    const draftOnly = await publishedWorkbook(owner.auth, { publish: false });
    const res = await svc.call('POST', E(), { body: { workbookId: draftOnly.id, format: 'png' }, auth: owner.auth });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('DASHBOARD_NOT_PUBLISHED');
    expect((await svc.call('POST', E(), { body: { workbookId: 987_654, format: 'png' } })).status).toBe(404);
    expect((await svc.call('POST', E(), { body: { workbookId: draftOnly.id, format: 'gif' } })).status).toBe(400);
  });

  it('job and file live 5 minutes after submission: status and download answer 410 after, and the file is deleted', async () => {
    const wb = await publishedWorkbook(owner.auth);
    const started = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'png' }, auth: owner.auth });
    await completed(started.body.jobId, owner.auth);
    const path = (svc.ctx.db.prepare('SELECT file_path FROM dashboard_exports WHERE job_id = ?').get(started.body.jobId) as { file_path: string }).file_path;
    expect(existsSync(path)).toBe(true);
    clock.advance(5 * 60_000 - 1);
    expect((await download(started.body.jobId, owner.auth)).status).toBe(200);
    clock.advance(1);
    const status = await svc.call('GET', `${E()}/${started.body.jobId}`, { auth: owner.auth });
    expect(status.status).toBe(410);
    expect(status.body.code).toBe('EXPORT_EXPIRED');
    expect((await download(started.body.jobId, owner.auth)).status).toBe(410);
    expect(existsSync(path)).toBe(false);
    // The job itself is swept too.
    await getJobRunner(svc.ctx).sweep();
    expect(getJobRunner(svc.ctx).get(started.body.jobId)).toBeNull();
  });

  it("an export is visible to who requested it and to admins; others get 404, as for unknown exports", async () => {
    const wb = await publishedWorkbook(owner.auth);
    const started = await svc.call('POST', E(), { body: { workbookId: wb.id, format: 'png' }, auth: owner.auth });
    await completed(started.body.jobId, owner.auth);
    expect((await svc.call('GET', `${E()}/${started.body.jobId}`, { auth: other.auth })).status).toBe(404);
    expect((await download(started.body.jobId, other.auth)).status).toBe(404);
    expect((await svc.call('GET', `${E()}/${started.body.jobId}`)).status).toBe(200);
    const unknown = await svc.call('GET', `${E()}/00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('EXPORT_NOT_FOUND');
  });

  it('deleting the deployment deletes its export files', async () => {
    const dep = await createDeployment(svc);
    const wb = await svc.call('POST', `/api/v1/deployments/${dep}/workbooks`, { body: { name: 'Doomed' } });
    await svc.call('POST', `/api/v1/deployments/${dep}/workbooks/${wb.body.id}/publish`, { body: { config: DASHBOARD } });
    const started = await svc.call('POST', `/api/v1/deployments/${dep}/dashboard-exports`, { body: { workbookId: wb.body.id, format: 'png' } });
    await getJobRunner(svc.ctx).wait(started.body.jobId, { timeoutMs: 20_000 });
    const path = (svc.ctx.db.prepare('SELECT file_path FROM dashboard_exports WHERE job_id = ?').get(started.body.jobId) as { file_path: string }).file_path;
    expect(existsSync(path)).toBe(true);
    expect((await svc.call('DELETE', `/api/v1/deployments/${dep}`)).status).toBe(204);
    expect(existsSync(path)).toBe(false);
  });

  it('embed sessions are refused', async () => {
    const embed = await bearerFor(svc, null, 'embed', { embedTenant: 'acme', deploymentId: d });
    expect((await svc.call('POST', E(), { body: { workbookId: 1, format: 'png' }, auth: embed })).status).toBe(403);
  });
});

describe('dashboard export download before completion', () => {
  let idle: TestService;
  beforeAll(async () => {
    idle = await startTestService();
    await getJobRunner(idle.ctx).stop();
  });
  afterAll(async () => idle.stop());

  it('download → 409 while the export is not rendered yet', async () => {
    const dep = await createDeployment(idle);
    const wb = await idle.call('POST', `/api/v1/deployments/${dep}/workbooks`, { body: { name: 'Waiting' } });
    await idle.call('POST', `/api/v1/deployments/${dep}/workbooks/${wb.body.id}/publish`, { body: { config: DASHBOARD } });
    const started = await idle.call('POST', `/api/v1/deployments/${dep}/dashboard-exports`, { body: { workbookId: wb.body.id, format: 'pdf' } });
    expect(started.body.status).toBe('QUEUED');
    const res = await idle.call('GET', `/api/v1/deployments/${dep}/dashboard-exports/${started.body.jobId}/download`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EXPORT_NOT_READY');
  });
});
