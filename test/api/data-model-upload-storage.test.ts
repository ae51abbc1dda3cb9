// Where an upload's chunks live while it is open (files in the private data directory, named by
// their rows), that nothing of them is left once it ends, that big files reach git byte for byte,
// and that chunks stored in the database by an earlier version still finish.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src-main/platform/db/connection';
import { MIGRATIONS } from '../../src-main/platform/db/migrations';
import { ManualClock } from '../../src-main/platform/clock';
import { MAX_CHUNK_BYTES } from '../../src-shared/api/data-model';
import { buildPath, createDeployment, sha256, startWithSampleProject } from '../support/data-model';
import { type TestService } from '../support/service';
import { gitBytes } from '../support/git-cli';

let svc: TestService;
let clock: ManualClock;

beforeAll(async () => {
  clock = new ManualClock(new Date());
  svc = await startWithSampleProject({ clock });
});
afterAll(async () => {
  await svc.stop();
});

const up = (id: number, step: 'start' | 'file' | 'finish', body: unknown) => svc.call('POST', `${buildPath(id)}/data-model/upload/${step}`, { body });
const entry = (path: string, content: Buffer) => ({ path, size: content.byteLength, sha256: sha256(content) });
const folderOf = (id: number, uploadId: string) => join(svc.dataDir, 'uploads', String(id), uploadId);
const filesIn = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/** Sends `content` in chunks of `size` bytes. */
async function send(id: number, uploadId: string, path: string, content: Buffer, size: number) {
  for (let offset = 0; offset < content.byteLength; offset += size) {
    const res = await up(id, 'file', { uploadId, path, offset, data: content.subarray(offset, offset + size).toString('base64') });
    expect(res.status).toBe(200);
  }
}

/** `n` bytes of readable text (a model file's worth of YAML comments), different per `seed`. */
function bigText(n: number, seed: string): Buffer {
  const line = `# ${seed}: a line of documentation repeated to make a big model file\n`;
  return Buffer.from(line.repeat(Math.ceil(n / line.length)).slice(0, n));
}

describe('upload chunk storage', () => {
  let id: number;
  beforeAll(async () => {
    id = await createDeployment(svc);
  });

  it('keeps received chunks as files of the upload, one per chunk (a re-sent chunk replaces its file), and removes them when the upload finishes', async () => {
    const content = bigText(300_000, 'files');
    const start = await up(id, 'start', { files: [entry('docs/big.md', content)] });
    expect(start.status).toBe(200);
    const uploadId = start.body.uploadId as string;
    await send(id, uploadId, 'docs/big.md', content, 100_000);
    expect(filesIn(folderOf(id, uploadId))).toHaveLength(3);
    // The database keeps offsets and lengths, not bytes.
    const stored = svc.ctx.db.prepare('SELECT count(*) AS n, sum(byte_length) AS bytes, count(data) AS inline FROM model_upload_chunks WHERE upload_id = ?').get(uploadId);
    expect(stored).toEqual({ n: 3, bytes: 300_000, inline: 0 });
    await send(id, uploadId, 'docs/big.md', content.subarray(0, 100_000), 100_000);
    await expect.poll(() => filesIn(folderOf(id, uploadId)).length).toBe(3);

    const finish = await up(id, 'finish', { uploadId });
    expect(finish.status).toBe(200);
    expect(finish.body.changes).toEqual([{ path: 'docs/big.md', status: 'added' }]);
    await expect.poll(() => existsSync(folderOf(id, uploadId))).toBe(false);
  });

  it('commits big files byte for byte: git itself reads the blob and finds the repository sound', async () => {
    const files = [entry('docs/a.md', bigText(1_200_000, 'a')), entry('docs/b.md', bigText(700_000, 'b'))];
    const contents = [bigText(1_200_000, 'a'), bigText(700_000, 'b')];
    const start = await up(id, 'start', { files });
    for (const [i, f] of files.entries()) await send(id, start.body.uploadId, f.path, contents[i]!, 512 * 1024);
    const finish = await up(id, 'finish', { uploadId: start.body.uploadId });
    expect(finish.status).toBe(200);
    const gitdir = join(svc.dataDir, 'repos', String(id));
    for (const [i, f] of files.entries()) {
      const read = gitBytes(gitdir, 'cat-file', 'blob', `${finish.body.commit}:${f.path}`);
      expect(read.equals(contents[i]!)).toBe(true);
    }
    gitBytes(gitdir, 'fsck', '--strict');
    const hashes = (await svc.call('GET', `${buildPath(id)}/data-model/file-hashes`)).body.hashes;
    expect(hashes['docs/a.md']).toBe(sha256(contents[0]!));
  });

  it('leaves no file for a refused chunk (beyond the declared size, bad base64)', async () => {
    const content = Buffer.from('short file\n');
    const start = await up(id, 'start', { files: [entry('docs/short.md', content)] });
    const uploadId = start.body.uploadId as string;
    const beyond = await up(id, 'file', { uploadId, path: 'docs/short.md', offset: 4, data: content.toString('base64') });
    expect(beyond.body.code).toBe('CHUNK_OUT_OF_RANGE');
    const bad = await up(id, 'file', { uploadId, path: 'docs/short.md', offset: 0, data: 'not base64!' });
    expect(bad.body.code).toBe('INVALID_CHUNK_DATA');
    expect(filesIn(folderOf(id, uploadId))).toEqual([]);
  });

  it('answers a large chunk (its body decoded on a compute thread) as it answers a small one: the same codes, limits and stored bytes', async () => {
    const big = bigText(MAX_CHUNK_BYTES, 'large');
    const start = await up(id, 'start', { files: [entry('docs/large.md', big), entry('docs/tiny.md', Buffer.from('tiny\n'))] });
    const uploadId = start.body.uploadId as string;
    // Padding makes a small document as large as an upload chunk; only the body's size differs.
    const padded = (body: Record<string, unknown>, field = 'data') => ({ ...body, [field]: `${String(body[field])}${'A'.repeat(400_000)}` });
    const pairs: [string, Record<string, unknown>, Record<string, unknown> | string][] = [
      ['bad base64', { uploadId, path: 'docs/tiny.md', offset: 0, data: '!!not base64!!' }, { uploadId, path: 'docs/tiny.md', offset: 0, data: `!${'A'.repeat(400_003)}` }],
      ['undeclared path', { uploadId, path: 'docs/other.md', offset: 0, data: 'QUFB' }, padded({ uploadId, path: 'docs/other.md', offset: 0, data: 'QUFB' })],
      ['unknown upload', { uploadId: 'nope', path: 'docs/tiny.md', offset: 0, data: 'QUFB' }, padded({ uploadId: 'nope', path: 'docs/tiny.md', offset: 0, data: 'QUFB' })],
      ['beyond the declared size', { uploadId, path: 'docs/tiny.md', offset: 4, data: 'QUFB' }, padded({ uploadId, path: 'docs/tiny.md', offset: 4, data: 'QUFB' })],
      ['an unknown field', { uploadId, path: 'docs/tiny.md', offset: 0, data: 'QUFB', extra: 1 }, padded({ uploadId, path: 'docs/tiny.md', offset: 0, data: 'QUFB', extra: 1 })],
      ['a negative offset', { uploadId, path: 'docs/tiny.md', offset: -1, data: 'QUFB' }, padded({ uploadId, path: 'docs/tiny.md', offset: -1, data: 'QUFB' })],
      // Padded with whitespace: a key of its own would be an unknown field, refused before the type.
      ['data not a string', { uploadId, path: 'docs/tiny.md', offset: 0, data: 5 }, `${JSON.stringify({ uploadId, path: 'docs/tiny.md', offset: 0, data: 5 })}${' '.repeat(400_000)}`],
    ];
    for (const [what, small, large] of pairs) {
      const a = await up(id, 'file', small);
      const b = await up(id, 'file', large);
      expect([what, b.status, b.body.code], JSON.stringify(b.body).slice(0, 300)).toEqual([what, a.status, a.body.code]);
      expect(a.status).toBeGreaterThanOrEqual(400);
    }
    // Over the schema's length: the same validation answer, naming /body/data.
    const tooLong = await up(id, 'file', { uploadId, path: 'docs/large.md', offset: 0, data: 'A'.repeat(Math.ceil(MAX_CHUNK_BYTES / 3) * 4 + 8) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(tooLong.body.errors)).toContain('/body/data');
    // One byte over the largest chunk still fits the schema's length: 413 as before.
    const over = await up(id, 'file', { uploadId, path: 'docs/large.md', offset: 0, data: Buffer.concat([big, Buffer.from('x')]).toString('base64') });
    expect([over.status, over.body.code]).toEqual([413, 'CHUNK_TOO_LARGE']);
    expect(filesIn(folderOf(id, uploadId))).toEqual([]);

    // The largest chunk is stored byte for byte and commits.
    const sent = await up(id, 'file', { uploadId, path: 'docs/large.md', offset: 0, data: big.toString('base64') });
    expect(sent.status).toBe(200);
    expect(sent.body.file).toMatchObject({ receivedBytes: MAX_CHUNK_BYTES, complete: true });
    expect((await up(id, 'file', { uploadId, path: 'docs/tiny.md', offset: 0, data: Buffer.from('tiny\n').toString('base64') })).status).toBe(200);
    const finish = await up(id, 'finish', { uploadId });
    expect(finish.status).toBe(200);
    const gitdir = join(svc.dataDir, 'repos', String(id));
    const read = gitBytes(gitdir, 'cat-file', 'blob', `${finish.body.commit}:docs/large.md`);
    expect(read.equals(big)).toBe(true);
  });

  it('removes the chunk files of an expired upload', async () => {
    const content = bigText(50_000, 'late');
    const start = await up(id, 'start', { files: [entry('docs/late.md', content)] });
    const uploadId = start.body.uploadId as string;
    await send(id, uploadId, 'docs/late.md', content, 20_000);
    expect(filesIn(folderOf(id, uploadId))).toHaveLength(3);
    clock.advance(24 * 3600_000 + 1000);
    expect((await up(id, 'finish', { uploadId })).body.code).toBe('UPLOAD_EXPIRED');
    await expect.poll(() => existsSync(folderOf(id, uploadId))).toBe(false);
  });

  it('removes the chunk files of unfinished uploads with their deployment', async () => {
    const other = await createDeployment(svc);
    const content = bigText(10_000, 'gone');
    const start = await up(other, 'start', { files: [entry('docs/gone.md', content)] });
    await send(other, start.body.uploadId, 'docs/gone.md', content, 10_000);
    expect(filesIn(folderOf(other, start.body.uploadId))).toHaveLength(1);
    expect((await svc.call('DELETE', `/api/v1/deployments/${other}`)).status).toBeLessThan(300);
    await expect.poll(() => existsSync(join(svc.dataDir, 'uploads', String(other)))).toBe(false);
  });

  it('finishes an upload whose chunks an earlier version kept in the database, next to chunks sent since', async () => {
    const content = bigText(30_000, 'legacy');
    const start = await up(id, 'start', { files: [entry('docs/legacy.md', content)] });
    const uploadId = start.body.uploadId as string;
    // The first half as the earlier version stored it: bytes in the row, no file.
    svc.ctx.db
      .prepare('INSERT INTO model_upload_chunks (upload_id, file_index, byte_offset, byte_length, part_file, data) VALUES (?, 0, 0, ?, NULL, ?)')
      .run(uploadId, 15_000, content.subarray(0, 15_000));
    const status = await up(id, 'start', { uploadId, files: [entry('docs/legacy.md', content)] });
    expect(status.body.files[0].missingRanges).toEqual([{ start: 15_000, end: 30_000 }]);
    const rest = await up(id, 'file', { uploadId, path: 'docs/legacy.md', offset: 15_000, data: content.subarray(15_000).toString('base64') });
    expect(rest.body.uploadComplete).toBe(true);
    const finish = await up(id, 'finish', { uploadId });
    expect(finish.status).toBe(200);
    const gitdir = join(svc.dataDir, 'repos', String(id));
    expect(gitBytes(gitdir, 'cat-file', 'blob', `${finish.body.commit}:docs/legacy.md`).equals(content)).toBe(true);
  });
});

describe('migration 16 (upload chunks to files)', () => {
  it('keeps the bytes and lengths of chunks stored before it', () => {
    const dir = join(svc.dataDir, 'migration-16');
    const file = join(dir, 'old.sqlite');
    mkdirSync(dir, { recursive: true });
    openDatabase(file, { migrations: MIGRATIONS.filter((m) => m.version < 16) }).close();
    const old = new Database(file);
    // Only the upload tables matter here: no deployment row behind the upload.
    old.pragma('foreign_keys = OFF');
    old.prepare("INSERT INTO model_uploads (id, deployment_id, branch, manifest, state, created_at, expires_at) VALUES ('u', 1, 'main', '[]', 'open', 'x', 'y')").run();
    old.prepare("INSERT INTO model_upload_chunks (upload_id, file_index, byte_offset, data) VALUES ('u', 0, 0, X'68656C6C6F')").run();
    old.close();
    const db = openDatabase(file, { migrations: MIGRATIONS });
    expect(db.prepare('SELECT byte_offset, byte_length, part_file, data FROM model_upload_chunks').all()).toEqual([
      { byte_offset: 0, byte_length: 5, part_file: null, data: Buffer.from('hello') },
    ]);
    db.close();
  });
});
