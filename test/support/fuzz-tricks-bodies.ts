// Hostile request framing for a body (issue 23 item 5): lengths announced and never sent, bodies
// that trickle, chunked bodies announcing huge chunks, lengths that disagree with what is sent,
// `Expect: 100-continue` with no body after it. Each trick is sent over a raw socket (fetch can
// produce none of them) to an operation's path with a working credential, then nothing more is
// sent; the service must answer every one — problem+json with a stable code, never a 5xx — or
// close the connection, within its timeouts (connection-guard.ts), never leave it hanging.

import { connect } from 'node:net';

export interface BodyTrickRequest {
  method: string;
  /** Path and query, as sent on the request line. */
  path: string;
  /** `host:port` of the service. */
  host: string;
  /** The Authorization header's value. */
  auth: string;
}

export interface BodyTrick {
  name: string;
  /** The request head (request line and headers, ending with the blank line) and the first body bytes. */
  build(request: BodyTrickRequest): { head: string; body?: string };
  /** Bytes written every 100 ms after that (a trickle), if any. */
  trickle?: string;
  /** The trick waits out one of the service's timeouts (body idle, rate, headers) before any answer. */
  waits?: boolean;
}

const line = (r: BodyTrickRequest, headers: string[], contentType = 'application/json') =>
  `${r.method} ${r.path} HTTP/1.1\r\nHost: ${r.host}\r\nAuthorization: ${r.auth}\r\nContent-Type: ${contentType}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;

export const BODY_TRICKS: readonly BodyTrick[] = [
  { name: 'announced 5 MB, nothing sent', build: (r) => ({ head: line(r, ['Content-Length: 5000000']) }), waits: true },
  { name: 'announced 5 MB, a few bytes sent', build: (r) => ({ head: line(r, ['Content-Length: 5000000']), body: '{"name": "' }), waits: true },
  { name: 'announced 32 MB (the limit), nothing sent', build: (r) => ({ head: line(r, [`Content-Length: ${32 * 1024 * 1024}`]) }), waits: true },
  { name: 'announced over the limit', build: (r) => ({ head: line(r, [`Content-Length: ${33 * 1024 * 1024}`]), body: '{' }) },
  { name: 'announced 2^53', build: (r) => ({ head: line(r, ['Content-Length: 9007199254740993']), body: '{' }) },
  { name: 'announced 10 KB, a byte every 100 ms', build: (r) => ({ head: line(r, ['Content-Length: 10000']), body: '{"a":"' }), trickle: 'a', waits: true },
  { name: 'chunked, a byte every 100 ms', build: (r) => ({ head: line(r, ['Transfer-Encoding: chunked']), body: '1\r\n{\r\n' }), trickle: '1\r\n \r\n', waits: true },
  { name: 'chunked, a huge chunk announced and never sent', build: (r) => ({ head: line(r, ['Transfer-Encoding: chunked']), body: 'fffffff\r\n{"a"' }), waits: true },
  { name: 'chunked, a chunk size past 64 bits', build: (r) => ({ head: line(r, ['Transfer-Encoding: chunked']), body: 'fffffffffffffffffffffff\r\n{}\r\n0\r\n\r\n' }) },
  { name: 'chunked, a chunk size that is not hex', build: (r) => ({ head: line(r, ['Transfer-Encoding: chunked']), body: 'zz\r\n{}\r\n0\r\n\r\n' }) },
  { name: 'chunked, the last chunk never ends', build: (r) => ({ head: line(r, ['Transfer-Encoding: chunked']), body: '2\r\n{}\r\n0\r\n' }), waits: true },
  { name: 'chunked, a chunk longer than its size', build: (r) => ({ head: line(r, ['Transfer-Encoding: chunked']), body: '1\r\n{}\r\n0\r\n\r\n' }) },
  { name: 'Content-Length and Transfer-Encoding both', build: (r) => ({ head: line(r, ['Content-Length: 2', 'Transfer-Encoding: chunked']), body: '2\r\n{}\r\n0\r\n\r\n' }) },
  { name: 'two different Content-Lengths', build: (r) => ({ head: line(r, ['Content-Length: 2', 'Content-Length: 20']), body: '{}' }) },
  { name: 'a negative Content-Length', build: (r) => ({ head: line(r, ['Content-Length: -1']), body: '{}' }) },
  { name: 'a Content-Length that is not a number', build: (r) => ({ head: line(r, ['Content-Length: 1e3']), body: '{}' }) },
  { name: 'a Content-Length shorter than the body (the rest reads as a next request)', build: (r) => ({ head: line(r, ['Content-Length: 2']), body: '{}{"name": "extra"}' }) },
  { name: 'a Content-Length longer than the body, then nothing', build: (r) => ({ head: line(r, ['Content-Length: 20']), body: '{}' }), waits: true },
  { name: 'Transfer-Encoding that is not chunked', build: (r) => ({ head: line(r, ['Transfer-Encoding: gzip']), body: '{}' }) },
  { name: 'Expect: 100-continue, then no body', build: (r) => ({ head: line(r, ['Content-Length: 1000', 'Expect: 100-continue']) }), waits: true },
  { name: 'Expect: 100-continue, then the body', build: (r) => ({ head: line(r, ['Content-Length: 2', 'Expect: 100-continue']), body: '{}' }) },
  { name: 'an expectation the service does not know', build: (r) => ({ head: line(r, ['Content-Length: 2', 'Expect: 200-ok']), body: '{}' }) },
  { name: 'text/plain, announced 5 MB, a few bytes sent', build: (r) => ({ head: line(r, ['Content-Length: 5000000'], 'text/plain'), body: 'abc' }), waits: true },
  { name: 'a content type no reader takes, announced 5 MB', build: (r) => ({ head: line(r, ['Content-Length: 5000000'], 'multipart/form-data; boundary=x'), body: '--x\r\n' }) },
  { name: 'no content type, announced 5 MB', build: (r) => ({ head: line(r, ['Content-Length: 5000000']).replace('Content-Type: application/json\r\n', ''), body: '{' }) },
  { name: 'headers that never end', build: (r) => ({ head: line(r, ['Content-Length: 2']).slice(0, -4) }), waits: true },
];

export type BodyTrickOutcome =
  | { kind: 'answered'; status: number; contentType: string; text: string; ms: number }
  | { kind: 'closed'; ms: number }
  | { kind: 'hung'; ms: number };

/**
 * Sends `trick` over a new connection and reads the first final answer (an interim `100 Continue`
 * is skipped); `hung` when neither an answer nor a close came within `timeoutMs`.
 */
export function sendBodyTrick(port: number, trick: BodyTrick, request: BodyTrickRequest, timeoutMs: number): Promise<BodyTrickOutcome> {
  return new Promise((resolve) => {
    const began = Date.now();
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let trickle: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (outcome: BodyTrickOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(trickle);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ kind: 'hung', ms: Date.now() - began }), timeoutMs);
    socket.on('error', () => {});
    socket.on('close', () => settle(finalAnswer(received, began) ?? { kind: 'closed', ms: Date.now() - began }));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answer = finalAnswer(received, began);
      if (answer) settle(answer);
    });
    socket.once('connect', () => {
      const { head, body } = trick.build(request);
      socket.write(head + (body ?? ''));
      if (trick.trickle) trickle = setInterval(() => socket.writable && socket.write(trick.trickle!), 100);
    });
  });
}

/** The first complete non-interim answer in `bytes` (with a Content-Length body), or null. */
function finalAnswer(bytes: Buffer, began: number): BodyTrickOutcome | null {
  let text = bytes.toString('latin1');
  for (;;) {
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const head = text.slice(0, end);
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
    if (status >= 100 && status < 200) {
      text = text.slice(end + 4);
      continue;
    }
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    const body = Buffer.from(text.slice(end + 4), 'latin1');
    if (body.length < length) return null;
    const contentType = /\r\ncontent-type:\s*([^\r]*)/i.exec(head)?.[1] ?? '';
    return { kind: 'answered', status, contentType, text: body.subarray(0, length).toString('utf8'), ms: Date.now() - began };
  }
}
