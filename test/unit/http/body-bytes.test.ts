// A request body is kept as its bytes arrive (issue 23): what is held follows what was received,
// never the length the body announced, and the bytes handed to a compute thread are exactly the
// bytes sent, in whatever pieces they came.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BodyBytes } from '../../../src-main/http/body-bytes';
import { readSharedJsonBody } from '../../../src-main/platform/json/shared-body';

const SHARE_FROM = 256 * 1024;

/** Feeds `bytes` in pieces of `piece` bytes; returns the most ever held against what had arrived. */
function feed(body: BodyBytes, bytes: Buffer, piece: number): number {
  let worst = 0;
  for (let at = 0; at < bytes.length; at += piece) {
    body.add(bytes.subarray(at, at + piece));
    worst = Math.max(worst, body.heldBytes / Math.max(body.received, SHARE_FROM));
  }
  return worst;
}

/** The bytes a compute thread would read: the shared segments joined (as platform/json/shared-body.ts joins them). */
function sharedBytes(body: BodyBytes): Buffer {
  const { segments, length } = body.sharedBody();
  return Buffer.concat(segments.map((s) => Buffer.from(new Uint8Array(s)))).subarray(0, length);
}

describe('a body kept as it arrives', () => {
  it('announcing 5 MB and sending 10 bytes holds 10 bytes', () => {
    const body = new BodyBytes(SHARE_FROM, 5_000_000);
    body.add(Buffer.from('{"email": '));
    expect(body.heldBytes).toBe(10);
    expect(body.shared).toBe(false);
  });

  it('announcing 5.6 MB, held memory stays under twice what arrived, and ends at exactly the announced length', () => {
    const bytes = randomBytes(5_600_000);
    const body = new BodyBytes(SHARE_FROM, bytes.length);
    expect(feed(body, bytes, 65_536)).toBeLessThanOrEqual(2);
    expect(body.shared).toBe(true);
    expect(body.heldBytes).toBe(bytes.length);
    expect(sharedBytes(body).equals(bytes)).toBe(true);
  });

  it('without an announced length (chunked), held memory stays under twice what arrived and never passes the limit', () => {
    const bytes = randomBytes(3_000_001);
    const body = new BodyBytes(SHARE_FROM, 4 * 1024 * 1024);
    expect(feed(body, bytes, 1_000_003)).toBeLessThanOrEqual(2);
    expect(body.heldBytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(sharedBytes(body).equals(bytes)).toBe(true);
  });

  it('pieces of any size (one byte, or larger than a segment) come out as sent, and the compute task parses them', () => {
    const text = JSON.stringify({ data: 'x'.repeat(700_000), n: 1 });
    for (const piece of [1_000_000, 4_099, 262_144]) {
      const body = new BodyBytes(SHARE_FROM, Number.POSITIVE_INFINITY);
      feed(body, Buffer.from(text), piece);
      expect(body.sharedBody().segments.length).toBeGreaterThan(1);
      expect(readSharedJsonBody(body.sharedBody())).toEqual({ kind: 'value', value: JSON.parse(text) });
    }
  });

  it('below the sharing size, or with no compute thread, the pieces are joined as they came', () => {
    const small = new BodyBytes(SHARE_FROM, 100);
    small.add(Buffer.from('{"a":'));
    small.add(Buffer.from('1}'));
    expect(small.shared).toBe(false);
    expect(small.joined().toString()).toBe('{"a":1}');
    const noThreads = new BodyBytes(null, 1_000_000);
    feed(noThreads, Buffer.alloc(600_000, 0x20), 100_000);
    expect(noThreads.shared).toBe(false);
    expect(noThreads.joined().length).toBe(600_000);
  });

  it('bytes past the announced length are not kept (the length check refuses such a body)', () => {
    const body = new BodyBytes(SHARE_FROM, SHARE_FROM + 10);
    feed(body, Buffer.alloc(SHARE_FROM + 20, 0x61), 50_000);
    expect(body.received).toBe(SHARE_FROM + 20);
    expect(body.heldBytes).toBe(SHARE_FROM + 10);
  });
});
