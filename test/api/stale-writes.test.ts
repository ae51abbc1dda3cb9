// Stale writes of workbooks (and their dashboards), reports and settings: a read answers the
// resource's version in ETag; a write with If-Match naming it succeeds and answers the new one; a
// write naming an older version answers 409 FILE_CHANGED (the model files' code) with the current
// version and the resource as it is now, and writes nothing; a write without If-Match behaves as
// on the hosted platform (last write wins). Model files: data-model-stale-writes.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestResponse } from '../support/service';
import { createDeployment } from '../support/deployments';
import { dep, svc, useServiceWithDeployment } from '../support/deployment-service';
import { createUser, type TestUser } from '../support/users';

useServiceWithDeployment();
let developer: TestUser;
beforeAll(() => {
  developer = createUser(svc, 'developer');
});

const D = () => `/api/v1/deployments/${dep}`;
const ETAG = /^"[0-9a-f]{64}"$/;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

/** One kind of versioned resource: where it is read, how it is written, and what a write changes. */
interface Kind {
  name: string;
  /** Creates a fresh resource and answers the path its GET reads. */
  setUp(): Promise<string>;
  write(path: string, n: number, headers: Record<string, string>): Promise<TestResponse>;
  /** The value write `n` sets, as the read shows it. */
  shown(read: TestResponse): unknown;
  expected(n: number): unknown;
}

async function newWorkbook(): Promise<{ id: number; slug: string }> {
  const res = await svc.call('POST', `${D()}/workbooks`, { body: { name: unique('Stale') }, auth: developer.auth });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const workbookPath = (id: number) => `${D()}/workbooks/${id}`;
const slugOfPath = async (path: string) => (await svc.call('GET', path, { auth: developer.auth })).body.slug as string;

const kinds: Kind[] = [
  {
    name: 'a workbook’s dashboard draft (PUT …/dashboard)',
    setUp: async () => workbookPath((await newWorkbook()).id),
    write: (path, n, headers) => svc.call('PUT', `${path}/dashboard`, { body: { dashboardDraft: { title: `draft ${n}`, widgets: [] } }, headers, auth: developer.auth }),
    shown: (read) => read.body.dashboardDraft?.title ?? null,
    expected: (n) => `draft ${n}`,
  },
  {
    name: 'a workbook’s published dashboard (POST …/publish with a config)',
    setUp: async () => workbookPath((await newWorkbook()).id),
    write: (path, n, headers) => svc.call('POST', `${path}/publish`, { body: { config: { title: `published ${n}`, widgets: [] } }, headers, auth: developer.auth }),
    shown: (read) => read.body.dashboardPublished?.title ?? null,
    expected: (n) => `published ${n}`,
  },
  {
    name: 'a workbook’s name (PUT …/workbooks/by-slug)',
    setUp: async () => workbookPath((await newWorkbook()).id),
    write: async (path, n, headers) => svc.call('PUT', `${D()}/workbooks/by-slug/${await slugOfPath(path)}`, { body: { name: `Renamed ${n}` }, headers, auth: developer.auth }),
    shown: (read) => read.body.name,
    expected: (n) => `Renamed ${n}`,
  },
  {
    name: 'a report (PUT …/reports/by-public-id)',
    setUp: async () => {
      const res = await svc.call('PUT', `${D()}/reports/by-public-id/${unique('stale')}`, { body: { name: 'Report' }, auth: developer.auth });
      expect(res.status, res.text).toBe(200);
      return `${D()}/reports/${res.body.id}`;
    },
    write: async (path, n, headers) => {
      const publicId = (await svc.call('GET', path, { auth: developer.auth })).body.publicId;
      return svc.call('PUT', `${D()}/reports/by-public-id/${publicId}`, { body: { name: 'Report', title: `title ${n}` }, headers, auth: developer.auth });
    },
    shown: (read) => read.body.title,
    expected: (n) => `title ${n}`,
  },
  {
    name: 'a deployment’s settings (PUT …/deployments/{id})',
    setUp: async () => `/api/v1/deployments/${await createDeployment(svc)}`,
    write: (path, n, headers) => svc.call('PUT', path, { body: { templateVariables: { TIER: `tier-${n}` } }, headers }),
    shown: (read) => read.body.templateVariables.TIER ?? null,
    expected: (n) => `tier-${n}`,
  },
  {
    name: 'a deployment’s env vars (PUT …/env-vars)',
    setUp: async () => `/api/v1/deployments/${await createDeployment(svc)}/env-vars`,
    write: (path, n, headers) => svc.call('PUT', path, { body: [{ name: 'STALE_TEST', value: `value-${n}` }], headers }),
    shown: (read) => (read.body.items as { name: string; value: string }[]).find((v) => v.name === 'STALE_TEST')?.value ?? null,
    expected: (n) => `value-${n}`,
  },
  {
    name: 'a deployment’s dev-target rule (PUT …/dev-mode/target-rule)',
    setUp: async () => `/build/api/v1/deployments/${await createDeployment(svc)}/dev-mode/target-rule`,
    write: (path, n, headers) => svc.call('PUT', path, { body: { mode: 'name-prefix', template: `DEV${n}_{user}_` }, headers }),
    shown: (read) => read.body.template,
    expected: (n) => `DEV${n}_{user}_`,
  },
  {
    name: 'the app theme (PUT /api/v1/app-theme)',
    setUp: async () => '/api/v1/app-theme',
    write: (path, n, headers) => svc.call('PUT', path, { body: { palette: { accent: `#00000${n}` } }, headers }),
    shown: (read) => read.body.palette.accent.toLowerCase(),
    expected: (n) => `#00000${n}`,
  },
  {
    name: 'the tenant settings (PUT /api/v1/tenant/settings)',
    setUp: async () => '/api/v1/tenant/settings',
    write: (path, n, headers) => svc.call('PUT', path, { body: { defaultTimezone: ['Europe/Paris', 'Asia/Tokyo', 'America/Lima', 'Africa/Cairo', 'Europe/Oslo'][n] }, headers }),
    shown: (read) => read.body.defaultTimezone,
    expected: (n) => ['Europe/Paris', 'Asia/Tokyo', 'America/Lima', 'Africa/Cairo', 'Europe/Oslo'][n],
  },
];

/** Workbooks and reports as their developer reads them; settings as the admin (the default credential). */
const read = (path: string) => svc.call('GET', path, { auth: /\/(workbooks|reports)\//.test(path) ? developer.auth : undefined });

describe.each(kinds)('$name', (kind) => {
  it('a read answers the version in ETag; a write naming it succeeds and answers the new version', async () => {
    const path = await kind.setUp();
    const before = await read(path);
    expect(before.status, before.text).toBe(200);
    const etag = before.headers.get('etag');
    expect(etag).toMatch(ETAG);

    const written = await kind.write(path, 1, { 'if-match': etag! });
    expect(written.status, written.text).toBeLessThan(300);
    const after = await read(path);
    expect(kind.shown(after)).toEqual(kind.expected(1));
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(written.headers.get('etag')).toBe(after.headers.get('etag'));
  });

  it('a write naming an older version answers 409 FILE_CHANGED with the current version and writes nothing', async () => {
    const path = await kind.setUp();
    const stale = (await read(path)).headers.get('etag')!;
    expect((await kind.write(path, 2, { 'if-match': stale })).status).toBeLessThan(300); // another window saves first
    const now = await read(path);

    const refused = await kind.write(path, 3, { 'if-match': stale });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(refused.body.code).toBe('FILE_CHANGED');
    expect(refused.body.baseVersion).toBe(stale.slice(1, -1));
    expect(refused.body.currentVersion).toBe(now.headers.get('etag')!.slice(1, -1));
    expect(refused.body.current).toBeTruthy();

    const unchanged = await read(path);
    expect(kind.shown(unchanged)).toEqual(kind.expected(2));
    expect(unchanged.headers.get('etag')).toBe(now.headers.get('etag'));
  });

  it('a write without If-Match overwrites, as on the hosted platform', async () => {
    const path = await kind.setUp();
    const stale = (await read(path)).headers.get('etag')!;
    expect((await kind.write(path, 2, { 'if-match': stale })).status).toBeLessThan(300);
    const blind = await kind.write(path, 4, {});
    expect(blind.status, blind.text).toBeLessThan(300);
    expect(kind.shown(await read(path))).toEqual(kind.expected(4));
  });

  it('a malformed If-Match answers 400 INVALID_IF_MATCH and writes nothing', async () => {
    const path = await kind.setUp();
    const before = await read(path);
    const res = await kind.write(path, 1, { 'if-match': 'yesterday' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_IF_MATCH');
    expect((await read(path)).headers.get('etag')).toBe(before.headers.get('etag'));
  });
});

describe('deleting with If-Match', () => {
  it('a workbook changed since it was read is not deleted (409); with its current version it is (204)', async () => {
    const path = workbookPath((await newWorkbook()).id);
    const stale = (await read(path)).headers.get('etag')!;
    await svc.call('PUT', `${path}/dashboard`, { body: { dashboardDraft: { title: 'changed', widgets: [] } }, auth: developer.auth });
    const refused = await svc.call('DELETE', path, { headers: { 'if-match': stale }, auth: developer.auth });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('FILE_CHANGED');
    expect(refused.body.current.dashboardDraft.title).toBe('changed');
    const current = (await read(path)).headers.get('etag')!;
    expect((await svc.call('DELETE', path, { headers: { 'if-match': current }, auth: developer.auth })).status).toBe(204);
    expect((await read(path)).status).toBe(404);
  });

  it('a report changed since it was read is not deleted (409)', async () => {
    const publicId = unique('del');
    const created = await svc.call('PUT', `${D()}/reports/by-public-id/${publicId}`, { body: { name: 'To delete' }, auth: developer.auth });
    const path = `${D()}/reports/${created.body.id}`;
    const stale = (await read(path)).headers.get('etag')!;
    await svc.call('PUT', `${D()}/reports/by-public-id/${publicId}`, { body: { name: 'Renamed' }, auth: developer.auth });
    const refused = await svc.call('DELETE', path, { headers: { 'if-match': stale }, auth: developer.auth });
    expect(refused.status).toBe(409);
    expect((await read(path)).body.name).toBe('Renamed');
  });

  it('If-Match on a workbook that was deleted meanwhile answers 409 and does not create it again', async () => {
    const { id, slug } = await newWorkbook();
    const path = workbookPath(id);
    const stale = (await read(path)).headers.get('etag')!;
    expect((await svc.call('DELETE', path, { auth: developer.auth })).status).toBe(204);
    const res = await svc.call('PUT', `${D()}/workbooks/by-slug/${slug}`, { body: { name: 'Back' }, headers: { 'if-match': stale }, auth: developer.auth });
    expect(res.status).toBe(409);
    expect(res.body.currentVersion).toBeNull();
    const list = await svc.call('GET', `${D()}/workbooks?search=${slug}`, { auth: developer.auth });
    expect(list.body.items).toEqual([]);
  });
});

describe('a refusal shows nothing the caller may not see', () => {
  it('another developer’s stale write to a workbook they cannot manage answers 403, not the workbook', async () => {
    const other = createUser(svc, 'developer');
    const path = workbookPath((await newWorkbook()).id);
    const stale = (await read(path)).headers.get('etag')!;
    await svc.call('PUT', `${path}/dashboard`, { body: { dashboardDraft: { title: 'mine', widgets: [] } }, auth: developer.auth });
    const res = await svc.call('PUT', `${path}/dashboard`, { body: { dashboardDraft: { title: 'theirs', widgets: [] } }, headers: { 'if-match': stale }, auth: other.auth });
    expect(res.status).toBe(403);
    expect(res.body.current).toBeUndefined();
  });
});

describe('env vars: one version for the whole set (the app decides per variable, README "Env vars")', () => {
  it('a write based on a read from before another variable changed answers 409 with the whole current set; re-sent on its version it writes and keeps both', async () => {
    const path = `/api/v1/deployments/${await createDeployment(svc)}/env-vars`;
    const stale = (await read(path)).headers.get('etag')!;
    const other = await svc.call('PUT', path, { body: [{ name: 'SET_IN_OTHER_WINDOW', value: 'theirs' }], headers: { 'if-match': stale } });
    expect(other.status, other.text).toBe(200);

    const refused = await svc.call('PUT', path, { body: [{ name: 'SET_HERE', value: 'mine' }], headers: { 'if-match': stale } });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.code).toBe('FILE_CHANGED');
    // Everything the app needs to see that SET_HERE itself was left alone.
    const current = refused.body.current.items as { name: string; value?: string }[];
    expect(current).toContainEqual(expect.objectContaining({ name: 'SET_IN_OTHER_WINDOW', value: 'theirs' }));
    expect(current.some((v) => v.name === 'SET_HERE')).toBe(false);
    expect(`"${refused.body.currentVersion}"`).toBe(other.headers.get('etag'));

    const resent = await svc.call('PUT', path, { body: [{ name: 'SET_HERE', value: 'mine' }], headers: { 'if-match': `"${refused.body.currentVersion}"` } });
    expect(resent.status, resent.text).toBe(200);
    const items = (await read(`${path}?first=500`)).body.items as { name: string; value: string }[];
    expect(items).toContainEqual(expect.objectContaining({ name: 'SET_HERE', value: 'mine' }));
    expect(items).toContainEqual(expect.objectContaining({ name: 'SET_IN_OTHER_WINDOW', value: 'theirs' }));
  });
});
