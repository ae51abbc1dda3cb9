// Stale writes: a write based on an old version of a file is refused with 409 FILE_CHANGED instead
// of overwriting a change made meanwhile (in another window, by a pull, by a script).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, createDeployment, ORDERS_YML, sha256, startWithSampleProject } from '../support/data-model';
import { type TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';

let svc: TestService;
let developer: TestUser;
let id: number;
let branch: string;
const ORDERS = 'model/cubes/orders.yml';

beforeAll(async () => {
  svc = await startWithSampleProject();
  developer = createUser(svc, 'developer');
  id = await createDeployment(svc);
  const dev = await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: developer.auth });
  expect(dev.status).toBe(200);
  branch = dev.body.branch.branchName;
});
afterAll(async () => {
  await svc.stop();
});

const files = (query = '') => `${buildPath(id)}/data-model/files?branchName=${branch}${query}`;
const read = async (path: string) => svc.call('GET', files(`&path=${encodeURIComponent(path)}`), { auth: developer.auth });
const put = (body: unknown, headers: Record<string, string> = {}) => svc.call('PUT', files(), { auth: developer.auth, body, headers });

describe('file versions (ETag / If-Match / baseSha256)', () => {
  it('reading a file answers its sha256 as a quoted ETag', async () => {
    const res = await read(ORDERS);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${sha256(ORDERS_YML)}"`);
    expect(res.body.sha256).toBe(sha256(ORDERS_YML));
  });

  it('a write based on the current version succeeds, and the next read has the new ETag', async () => {
    const etag = (await read(ORDERS)).headers.get('etag')!;
    const first = ORDERS_YML.replace('cubes:', 'cubes: # first\n');
    const res = await put({ files: [{ path: ORDERS, content: first }] }, { 'if-match': etag });
    expect(res.status).toBe(200);
    expect((await read(ORDERS)).headers.get('etag')).toBe(`"${sha256(first)}"`);
  });

  it('a write based on an older version answers 409 FILE_CHANGED with both versions and writes nothing', async () => {
    const base = (await read(ORDERS)).body;
    // Window A saves…
    const a = base.content + '# from window A\n';
    expect((await put({ files: [{ path: ORDERS, content: a, baseSha256: base.sha256 }] })).status).toBe(200);
    // …then window B, still on the version it read, saves too.
    const b = base.content + '# from window B\n';
    const stale = await put({ files: [{ path: ORDERS, content: b, baseSha256: base.sha256 }] });
    expect(stale.status).toBe(409);
    expect(stale.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(stale.body.code).toBe('FILE_CHANGED');
    expect(stale.body.files).toEqual([{ path: ORDERS, baseSha256: base.sha256, currentSha256: sha256(a) }]);
    expect((await read(ORDERS)).body.content).toBe(a);

    // The same through If-Match.
    const viaHeader = await put({ files: [{ path: ORDERS, content: b }] }, { 'if-match': `"${base.sha256}"` });
    expect(viaHeader.status).toBe(409);
    expect(viaHeader.body.code).toBe('FILE_CHANGED');
    expect((await read(ORDERS)).body.content).toBe(a);
  });

  it('a stale file refuses the whole multi-file write: no file of it is written', async () => {
    const current = (await read(ORDERS)).body;
    const res = await put({
      files: [
        { path: 'model/cubes/new_one.yml', content: 'cubes: []\n', baseSha256: null },
        { path: ORDERS, content: 'cubes: []\n', baseSha256: sha256('an old version') },
      ],
    });
    expect(res.status).toBe(409);
    expect(res.body.files.map((f: { path: string }) => f.path)).toEqual([ORDERS]);
    expect((await read('model/cubes/new_one.yml')).status).toBe(404);
    expect((await read(ORDERS)).body.content).toBe(current.content);
  });

  it('baseSha256 null creates a new file only if nobody created it meanwhile', async () => {
    const path = 'model/cubes/created_twice.yml';
    expect((await put({ files: [{ path, content: 'cubes: []\n', baseSha256: null }] })).status).toBe(200);
    const second = await put({ files: [{ path, content: 'cubes: [] # mine\n', baseSha256: null }] });
    expect(second.status).toBe(409);
    expect(second.body.files).toEqual([{ path, baseSha256: null, currentSha256: sha256('cubes: []\n') }]);
  });

  it('a write without a version keeps overwriting, as the platform API does', async () => {
    const res = await put({ files: [{ path: ORDERS, content: ORDERS_YML }] });
    expect(res.status).toBe(200);
    expect((await read(ORDERS)).body.content).toBe(ORDERS_YML);
  });

  it('delete and rename with a stale If-Match answer 409 FILE_CHANGED and leave the file', async () => {
    const path = 'model/cubes/moving.yml';
    await put({ files: [{ path, content: 'cubes: []\n' }] });
    const old = `"${sha256('cubes: []\n')}"`;
    await put({ files: [{ path, content: 'cubes: [] # edited elsewhere\n' }] });

    const del = await svc.call('DELETE', files(`&path=${path}`), { auth: developer.auth, headers: { 'if-match': old } });
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('FILE_CHANGED');
    const rename = await svc.call('POST', `${buildPath(id)}/data-model/files/rename?branchName=${branch}`, {
      auth: developer.auth,
      headers: { 'if-match': old },
      body: { path, newPath: 'model/cubes/moved.yml' },
    });
    expect(rename.status).toBe(409);
    expect((await read(path)).body.content).toBe('cubes: [] # edited elsewhere\n');
    expect((await read('model/cubes/moved.yml')).status).toBe(404);

    const fresh = (await read(path)).headers.get('etag')!;
    expect((await svc.call('DELETE', files(`&path=${path}`), { auth: developer.auth, headers: { 'if-match': fresh } })).status).toBe(200);
    expect((await read(path)).status).toBe(404);
  });

  it('refuses a malformed If-Match, or one If-Match for several files, with 400 INVALID_IF_MATCH', async () => {
    const bad = await put({ files: [{ path: ORDERS, content: ORDERS_YML }] }, { 'if-match': 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_IF_MATCH');
    const etag = (await read(ORDERS)).headers.get('etag')!;
    const two = await put(
      {
        files: [
          { path: ORDERS, content: ORDERS_YML },
          { path: 'model/cubes/other.yml', content: 'cubes: []\n' },
        ],
      },
      { 'if-match': etag },
    );
    expect(two.status).toBe(400);
    expect(two.body.code).toBe('INVALID_IF_MATCH');
    expect((await read('model/cubes/other.yml')).status).toBe(404);
  });

  it('refuses a baseSha256 that is not a sha256 with 400', async () => {
    const res = await put({ files: [{ path: ORDERS, content: ORDERS_YML, baseSha256: 'abc' }] });
    expect(res.status).toBe(400);
  });
});
