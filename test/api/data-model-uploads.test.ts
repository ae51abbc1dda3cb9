import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src-main/platform/clock';
import { buildPath, createDeployment, sha256, startWithSampleProject } from '../support/data-model';
import { type TestService } from '../support/service';
import { createUser, type TestUser } from '../support/users';
import { gitText } from '../support/git-cli';

let svc: TestService;
let clock: ManualClock;
let developer: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  clock = new ManualClock(new Date());
  svc = await startWithSampleProject({ clock });
  developer = createUser(svc, 'developer', { name: 'Uploader', email: 'up@example.com' });
  viewer = createUser(svc, 'viewer');
});
afterAll(async () => {
  await svc.stop();
});

const up = (id: number, step: 'start' | 'file' | 'finish', body: unknown, auth?: string) =>
  svc.call('POST', `${buildPath(id)}/data-model/upload/${step}`, { body, ...(auth ? { auth } : {}) });
const b64 = (s: string) => Buffer.from(s).toString('base64');
const manifest = (files: Record<string, string>) => Object.entries(files).map(([path, content]) => ({ path, size: Buffer.byteLength(content), sha256: sha256(content) }));
const headOf = async (id: number, branch = 'main') =>
  ((await svc.call('GET', `${buildPath(id)}/branches`)).body.items as { branchName: string; headCommit: string }[]).find((b) => b.branchName === branch)!.headCommit;

/** Sends a file in chunks of `size` bytes. */
async function sendFile(id: number, uploadId: string, path: string, content: string, auth?: string, size = 7) {
  const bytes = Buffer.from(content);
  let last;
  for (let offset = 0; offset < bytes.length; offset += size) {
    last = await up(id, 'file', { uploadId, path, offset, data: bytes.subarray(offset, offset + size).toString('base64') }, auth);
    expect(last.status).toBe(200);
  }
  return last!;
}

describe('chunked uploads', () => {
  let id: number;
  beforeAll(async () => {
    id = await createDeployment(svc);
  });

  it('commits every uploaded file and removal in one commit on the deploy branch', async () => {
    const files = { 'model/cubes/users.yml': 'cubes:\n  - name: users\n    sql_table: users\n', 'model/views/sales.yml': 'views: []\n' };
    const before = await headOf(id);
    const start = await up(id, 'start', { files: manifest(files), deletePaths: ['model/cubes/orders.yml'], message: 'Deploy from CLI' }, developer.auth);
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ branchName: 'main', state: 'open', complete: false, commit: null, deletePaths: ['model/cubes/orders.yml'] });
    expect(start.body.files[0].missingRanges).toEqual([{ start: 0, end: Buffer.byteLength(files['model/cubes/users.yml']) }]);
    for (const [path, content] of Object.entries(files)) await sendFile(id, start.body.uploadId, path, content, developer.auth);
    const finish = await up(id, 'finish', { uploadId: start.body.uploadId }, developer.auth);
    expect(finish.status).toBe(200);
    expect(finish.body).toMatchObject({ state: 'finished', changed: true, branchName: 'main' });
    expect(finish.body.changes).toEqual([
      { path: 'model/cubes/orders.yml', status: 'deleted' },
      { path: 'model/cubes/users.yml', status: 'added' },
      { path: 'model/views/sales.yml', status: 'modified' },
    ]);
    const gitdir = join(svc.dataDir, 'repos', String(id));
    expect(gitText(gitdir, 'log', '-1', '--format=%P|%an|%s', 'main')).toBe(`${before}|Uploader|Deploy from CLI`);
    expect(await headOf(id)).toBe(finish.body.commit);
    const hashes = await svc.call('GET', `${buildPath(id)}/data-model/file-hashes`);
    expect(hashes.headers.get('content-type')).toMatch(/^application\/json/);
    expect(hashes.body).toEqual({
      branchName: 'main',
      commit: finish.body.commit,
      hashes: { 'model/cubes/users.yml': sha256(files['model/cubes/users.yml']), 'model/views/sales.yml': sha256('views: []\n') },
    });
  });

  it('answers a repeated finish with the same result and commit', async () => {
    const start = await up(id, 'start', { files: manifest({ 'model/again.yml': 'a: 1\n' }) });
    await sendFile(id, start.body.uploadId, 'model/again.yml', 'a: 1\n');
    const first = await up(id, 'finish', { uploadId: start.body.uploadId });
    const second = await up(id, 'finish', { uploadId: start.body.uploadId });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect((await up(id, 'file', { uploadId: start.body.uploadId, path: 'model/again.yml', offset: 0, data: b64('a') })).body.code).toBe('UPLOAD_FINISHED');
  });

  it('makes no commit when the uploaded files equal the branch’s', async () => {
    const head = await headOf(id);
    const start = await up(id, 'start', { files: manifest({ 'model/again.yml': 'a: 1\n' }) });
    await sendFile(id, start.body.uploadId, 'model/again.yml', 'a: 1\n');
    const finish = await up(id, 'finish', { uploadId: start.body.uploadId });
    expect(finish.body).toMatchObject({ changed: false, commit: head, changes: [] });
  });

  it('is resumable: re-sending a chunk is harmless and the status tells which ranges are missing', async () => {
    const content = '0123456789abcdefghij';
    const start = await up(id, 'start', { files: manifest({ 'model/resume.yml': content }) });
    const uploadId = start.body.uploadId;
    const chunk = (offset: number, end: number) => up(id, 'file', { uploadId, path: 'model/resume.yml', offset, data: b64(content.slice(offset, end)) });
    await chunk(0, 5);
    const twice = await chunk(0, 5);
    expect(twice.body.file).toMatchObject({ receivedBytes: 5, complete: false, missingRanges: [{ start: 5, end: 20 }] });
    await chunk(10, 15);
    const resumed = await up(id, 'start', { files: manifest({ 'model/resume.yml': content }), uploadId });
    expect(resumed.status).toBe(200);
    expect(resumed.body.uploadId).toBe(uploadId);
    expect(resumed.body.files[0]).toMatchObject({ receivedBytes: 10, missingRanges: [{ start: 5, end: 10 }, { start: 15, end: 20 }] });
    await chunk(5, 10);
    const last = await chunk(15, 20);
    expect(last.body).toMatchObject({ uploadComplete: true, file: { complete: true, missingRanges: [] } });
    expect((await up(id, 'finish', { uploadId })).status).toBe(200);
    expect((await svc.call('GET', `${buildPath(id)}/data-model/files?path=model/resume.yml`)).body.content).toBe(content);
  });

  it('refuses to finish an incomplete upload with 409 UPLOAD_INCOMPLETE and commits nothing', async () => {
    const head = await headOf(id);
    const files = { 'model/one.yml': 'one: 1\n', 'model/two.yml': 'two: 2\n' };
    const start = await up(id, 'start', { files: manifest(files) });
    await sendFile(id, start.body.uploadId, 'model/one.yml', files['model/one.yml']);
    const res = await up(id, 'finish', { uploadId: start.body.uploadId });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('UPLOAD_INCOMPLETE');
    expect(res.body.missing).toEqual([{ path: 'model/two.yml', missingRanges: [{ start: 0, end: 7 }] }]);
    expect(await headOf(id)).toBe(head);
    expect((await svc.call('GET', `${buildPath(id)}/data-model/files?path=model/one.yml`)).status).toBe(404);
  });

  it('checks each file’s SHA-256 at finish: a mismatch commits nothing and asks for that file again', async () => {
    const head = await headOf(id);
    const files = { 'model/good.yml': 'good: 1\n', 'model/bad.yml': 'bad: 1\n' };
    const start = await up(id, 'start', { files: manifest(files) });
    const uploadId = start.body.uploadId;
    await sendFile(id, uploadId, 'model/good.yml', files['model/good.yml']);
    await sendFile(id, uploadId, 'model/bad.yml', 'bad: 2\n');
    const res = await up(id, 'finish', { uploadId });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'UPLOAD_HASH_MISMATCH', paths: ['model/bad.yml'] });
    expect(await headOf(id)).toBe(head);
    expect((await svc.call('GET', `${buildPath(id)}/data-model/files?path=model/good.yml`)).status).toBe(404);
    const status = await up(id, 'start', { files: manifest(files), uploadId });
    expect(status.body.files.map((f: { path: string; complete: boolean }) => [f.path, f.complete])).toEqual([
      ['model/good.yml', true],
      ['model/bad.yml', false],
    ]);
    await sendFile(id, uploadId, 'model/bad.yml', files['model/bad.yml']);
    const finish = await up(id, 'finish', { uploadId });
    expect(finish.status).toBe(200);
    expect(finish.body.changes.map((c: { path: string }) => c.path)).toEqual(['model/bad.yml', 'model/good.yml']);
  });

  it('is atomic: a file that cannot be placed fails the whole upload and commits nothing', async () => {
    const head = await headOf(id);
    const files = { 'model/fine.yml': 'fine: 1\n', 'model/again.yml/inner.yml': 'x: 1\n' };
    const start = await up(id, 'start', { files: manifest(files) });
    for (const [path, content] of Object.entries(files)) await sendFile(id, start.body.uploadId, path, content);
    const res = await up(id, 'finish', { uploadId: start.body.uploadId });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('PATH_CONFLICT');
    expect(await headOf(id)).toBe(head);
    expect((await svc.call('GET', `${buildPath(id)}/data-model/files?path=model/fine.yml`)).status).toBe(404);
  });

  it('refuses files that are not UTF-8 text with 422 FILE_NOT_TEXT', async () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
    const start = await up(id, 'start', { files: [{ path: 'model/binary.yml', size: 4, sha256: sha256(bytes) }] });
    await up(id, 'file', { uploadId: start.body.uploadId, path: 'model/binary.yml', offset: 0, data: bytes.toString('base64') });
    const res = await up(id, 'finish', { uploadId: start.body.uploadId });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('FILE_NOT_TEXT');
  });

  it('refuses chunks beyond the declared size, for undeclared paths, and with bad base64', async () => {
    const start = await up(id, 'start', { files: manifest({ 'model/small.yml': 'abc' }) });
    const uploadId = start.body.uploadId;
    expect((await up(id, 'file', { uploadId, path: 'model/small.yml', offset: 2, data: b64('xy') })).body.code).toBe('CHUNK_OUT_OF_RANGE');
    expect((await up(id, 'file', { uploadId, path: 'model/other.yml', offset: 0, data: b64('a') })).body.code).toBe('UPLOAD_PATH_NOT_IN_MANIFEST');
    const bad = await up(id, 'file', { uploadId, path: 'model/small.yml', offset: 0, data: '!!not base64!!' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_CHUNK_DATA');
    expect((await up(id, 'file', { uploadId: 'nope', path: 'model/small.yml', offset: 0, data: b64('a') })).status).toBe(404);
  });

  it('refuses invalid manifests: bad paths, duplicates, bad hashes', async () => {
    const bad = await up(id, 'start', { files: [{ path: '../x.yml', size: 1, sha256: sha256('x') }] });
    expect(bad.body.code).toBe('INVALID_FILE_PATH');
    const dup = await up(id, 'start', { files: manifest({ 'model/a.yml': 'a' }), deletePaths: ['model/a.yml'] });
    expect(dup.body.code).toBe('DUPLICATE_PATH');
    const hash = await up(id, 'start', { files: [{ path: 'model/a.yml', size: 1, sha256: 'abc' }] });
    expect(hash.status).toBe(400);
    expect(hash.body.code).toBe('VALIDATION_FAILED');
  });

  it('refuses to resume with a changed manifest (409 UPLOAD_MANIFEST_CHANGED)', async () => {
    const start = await up(id, 'start', { files: manifest({ 'model/m.yml': 'm' }) });
    const res = await up(id, 'start', { files: manifest({ 'model/m.yml': 'n' }), uploadId: start.body.uploadId });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('UPLOAD_MANIFEST_CHANGED');
  });

  it('keeps an upload to the user who started it', async () => {
    const start = await up(id, 'start', { files: manifest({ 'model/mine.yml': 'm' }) });
    const res = await up(id, 'file', { uploadId: start.body.uploadId, path: 'model/mine.yml', offset: 0, data: b64('m') }, developer.auth);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('UPLOAD_OF_ANOTHER_USER');
    expect((await up(id, 'start', { files: [] }, viewer.auth)).status).toBe(403);
  });

  it('expires an unfinished upload after 24 hours (410 UPLOAD_EXPIRED)', async () => {
    const start = await up(id, 'start', { files: manifest({ 'model/late.yml': 'late' }) });
    await sendFile(id, start.body.uploadId, 'model/late.yml', 'late');
    clock.advance(24 * 3600_000 + 1000);
    const res = await up(id, 'finish', { uploadId: start.body.uploadId });
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('UPLOAD_EXPIRED');
  });

  it('uploads to a named branch, and refuses a branch with uncommitted edits', async () => {
    await svc.call('POST', `${buildPath(id)}/dev-mode`, { auth: developer.auth });
    const start = await up(id, 'start', { files: manifest({ 'model/dev.yml': 'dev' }) }, developer.auth);
    expect(start.body.branchName).toBe(`dev-${developer.id}`);
    await sendFile(id, start.body.uploadId, 'model/dev.yml', 'dev', developer.auth);
    await svc.call('PUT', `${buildPath(id)}/data-model/files`, { auth: developer.auth, body: { files: [{ path: 'model/edit.yml', content: 'e' }] } });
    const finish = await up(id, 'finish', { uploadId: start.body.uploadId }, developer.auth);
    expect(finish.status).toBe(409);
    expect(finish.body.code).toBe('UNCOMMITTED_CHANGES');
    const again = await up(id, 'start', { files: [] }, developer.auth);
    expect(again.body.code).toBe('UNCOMMITTED_CHANGES');
    const unknown = await up(id, 'start', { branchName: 'nope', files: [] });
    expect(unknown.status).toBe(404);
  });
});

describe('uploads to a named branch', () => {
  it('commits to the branch named at start and leaves the deploy branch alone', async () => {
    const id = await createDeployment(svc);
    await svc.call('POST', `${buildPath(id)}/branches`, { body: { branchName: 'staging' } });
    const main = await headOf(id);
    const start = await up(id, 'start', { branchName: 'staging', files: manifest({ 'model/staged.yml': 'cubes: []\n' }) });
    expect(start.body.branchName).toBe('staging');
    await sendFile(id, start.body.uploadId, 'model/staged.yml', 'cubes: []\n');
    const finish = await up(id, 'finish', { uploadId: start.body.uploadId });
    expect(finish.body).toMatchObject({ branchName: 'staging', changed: true });
    expect(await headOf(id, 'staging')).toBe(finish.body.commit);
    expect(await headOf(id)).toBe(main);
  });
});
