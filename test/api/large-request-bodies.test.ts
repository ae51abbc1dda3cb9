// Large JSON bodies are never joined on the HTTP thread: from 256 KB on (announced by Content-Length)
// they are copied piece by piece into a buffer a compute thread reads (src-main/http/json-parser.ts).
// The answers must be those of a small body, or of the same body sent without a Content-Length
// (chunked, read the other way): the same status, code and stored bytes; a body over the limit is
// refused; a body cut off part-way stores nothing.
import { connect } from 'node:net';
import { request } from 'node:http';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHUNK_BYTES } from '../../src-shared/api/data-model';
import { buildPath, createDeployment, sha256, startWithSampleProject } from '../support/data-model';
import { ADMIN_KEY, type TestService } from '../support/service';

let svc: TestService;
let id: number;

beforeAll(async () => {
  svc = await startWithSampleProject();
  id = await createDeployment(svc);
}, 120_000);
afterAll(async () => {
  await svc.stop();
});

const uploadPath = (step: string) => `${buildPath(id)}/data-model/upload/${step}`;
const up = (step: 'start' | 'file' | 'finish', body: unknown) => svc.call('POST', uploadPath(step), { body });
const filesIn = (uploadId: string) => {
  const dir = join(svc.dataDir, 'uploads', String(id), uploadId);
  return existsSync(dir) ? readdirSync(dir) : [];
};

interface Answer {
  status: number;
  code?: string;
  body: Record<string, unknown>;
}

/**
 * POSTs `body` without a Content-Length: Node sends it chunked, in pieces of `piece` bytes. An
 * answer that arrives before the whole body was sent (a refusal) ends the exchange.
 */
function postChunked(path: string, body: Buffer, piece = 1024 * 1024): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: svc.port, path, method: 'POST', headers: { authorization: `Api-Key ${ADMIN_KEY}`, 'content-type': 'application/json' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const parsed = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
          resolve({ status: res.statusCode ?? 0, code: parsed.code as string | undefined, body: parsed });
        });
      },
    );
    // The service closes the connection after refusing a body part-way: the writes after it fail.
    req.on('error', (error) => (req.writableEnded ? undefined : reject(error)));
    let offset = 0;
    const write = () => {
      while (offset < body.byteLength) {
        const next = body.subarray(offset, offset + piece);
        offset += piece;
        if (!req.write(next)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

const answerOf = async (step: 'file' | 'start', body: unknown): Promise<Answer> => {
  const res = await up(step, body);
  return { status: res.status, code: res.body?.code as string | undefined, body: res.body as Record<string, unknown> };
};

describe('large request bodies (read on a compute thread)', () => {
  it('a large chunk answers the same with or without a Content-Length: refusals and the stored bytes alike', async () => {
    const content = Buffer.from('# chunked\n'.repeat(60_000));
    const start = await up('start', { files: [{ path: 'docs/chunked.md', size: content.byteLength, sha256: sha256(content) }] });
    expect(start.status).toBe(200);
    const uploadId = start.body.uploadId as string;
    const cases: [string, Record<string, unknown>][] = [
      ['not base64', { uploadId, path: 'docs/chunked.md', offset: 0, data: `!${'A'.repeat(400_003)}` }],
      ['an undeclared path', { uploadId, path: 'docs/other.md', offset: 0, data: content.toString('base64') }],
      ['an unknown upload', { uploadId: 'nope', path: 'docs/chunked.md', offset: 0, data: content.toString('base64') }],
      ['an unknown field', { uploadId, path: 'docs/chunked.md', offset: 0, data: content.toString('base64'), extra: 1 }],
    ];
    for (const [what, body] of cases) {
      const text = Buffer.from(JSON.stringify(body));
      expect(text.byteLength).toBeGreaterThan(256 * 1024);
      const announced = await answerOf('file', body);
      const chunked = await postChunked(uploadPath('file'), text);
      expect([what, chunked.status, chunked.code]).toEqual([what, announced.status, announced.code]);
      expect(announced.status).toBeGreaterThanOrEqual(400);
    }
    // Malformed JSON at that size: 400 MALFORMED_JSON either way.
    const malformed = Buffer.from(`{"uploadId": "${uploadId}", "data": "${'A'.repeat(400_000)}"`);
    const announcedBad = await svc.call('POST', uploadPath('file'), { body: malformed.toString('utf8') });
    expect([announcedBad.status, announcedBad.body.code]).toEqual([400, 'MALFORMED_JSON']);
    const chunkedBad = await postChunked(uploadPath('file'), malformed);
    expect([chunkedBad.status, chunkedBad.code]).toEqual([400, 'MALFORMED_JSON']);
    expect(filesIn(uploadId)).toEqual([]);

    // The chunk itself, sent chunked, is stored byte for byte and commits.
    const sent = await postChunked(uploadPath('file'), Buffer.from(JSON.stringify({ uploadId, path: 'docs/chunked.md', offset: 0, data: content.toString('base64') })));
    expect(sent.status).toBe(200);
    expect(sent.body.file).toMatchObject({ receivedBytes: content.byteLength, complete: true });
    const finish = await up('finish', { uploadId });
    expect(finish.status).toBe(200);
    const hashes = (await svc.call('GET', `${buildPath(id)}/data-model/file-hashes`)).body.hashes;
    expect(hashes['docs/chunked.md']).toBe(sha256(content));
  }, 120_000);

  it('a body over the 32 MB limit answers 413 PAYLOAD_TOO_LARGE, whether its Content-Length announces it or it grows past it chunked', async () => {
    const content = Buffer.from('x');
    const start = await up('start', { files: [{ path: 'docs/limit.md', size: 1, sha256: sha256(content) }] });
    const uploadId = start.body.uploadId as string;
    // Announced: refused before anything is read (the few bytes sent are never a body).
    const announced = await new Promise<Answer>((resolve, reject) => {
      const socket = connect(svc.port, '127.0.0.1', () => {
        socket.write(
          `POST ${uploadPath('file')} HTTP/1.1\r\nHost: 127.0.0.1:${svc.port}\r\nAuthorization: Api-Key ${ADMIN_KEY}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${33 * 1024 * 1024}\r\n\r\n{"uploadId": "${uploadId}"`,
        );
      });
      const parts: Buffer[] = [];
      socket.on('data', (c: Buffer) => parts.push(c));
      socket.on('error', reject);
      socket.on('close', () => {
        const text = Buffer.concat(parts).toString('utf8');
        const parsed = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
        resolve({ status: Number(text.split(' ')[1]), code: parsed.code as string, body: parsed });
      });
    });
    expect([announced.status, announced.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    // Chunked: refused once more than 32 MB arrived.
    const huge = Buffer.from(JSON.stringify({ uploadId, path: 'docs/limit.md', offset: 0, data: 'A'.repeat(33 * 1024 * 1024) }));
    const grown = await postChunked(uploadPath('file'), huge, 4 * 1024 * 1024);
    expect([grown.status, grown.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(filesIn(uploadId)).toEqual([]);
    const status = await up('start', { uploadId, files: [{ path: 'docs/limit.md', size: 1, sha256: sha256(content) }] });
    expect(status.body.files[0]).toMatchObject({ receivedBytes: 0, complete: false });
  }, 120_000);

  it('a large chunk cut off part-way stores nothing, and the same chunk sent whole afterwards is stored', async () => {
    const content = Buffer.from('# cut off\n'.repeat(Math.floor(MAX_CHUNK_BYTES / 10)));
    const start = await up('start', { files: [{ path: 'docs/cut.md', size: content.byteLength, sha256: sha256(content) }] });
    const uploadId = start.body.uploadId as string;
    const body = Buffer.from(JSON.stringify({ uploadId, path: 'docs/cut.md', offset: 0, data: content.toString('base64') }));
    await new Promise<void>((resolve, reject) => {
      const socket = connect(svc.port, '127.0.0.1', () => {
        socket.write(
          `POST ${uploadPath('file')} HTTP/1.1\r\nHost: 127.0.0.1:${svc.port}\r\nAuthorization: Api-Key ${ADMIN_KEY}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.byteLength}\r\n\r\n`,
        );
        // Half of the body, then the connection drops.
        socket.write(body.subarray(0, body.byteLength >> 1), () => setTimeout(() => socket.destroy(), 200));
      });
      socket.on('error', reject);
      socket.on('close', () => resolve());
    });
    // Whatever the service was doing with the half body has ended once it answers the next request on it.
    const status = await up('start', { uploadId, files: [{ path: 'docs/cut.md', size: content.byteLength, sha256: sha256(content) }] });
    expect(status.body.files[0]).toMatchObject({ receivedBytes: 0, complete: false });
    expect(filesIn(uploadId)).toEqual([]);
    const whole = await svc.call('POST', uploadPath('file'), { body: body.toString('utf8') });
    expect(whole.status, whole.text.slice(0, 300)).toBe(200);
    expect(whole.body.file).toMatchObject({ receivedBytes: content.byteLength, complete: true });
    expect(filesIn(uploadId)).toHaveLength(1);
  }, 120_000);
});
