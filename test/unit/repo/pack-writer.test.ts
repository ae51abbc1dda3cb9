// The index of a pack (version 2) as git reads it: offsets past 2 GiB go to its table of large
// offsets, which no pack written in a test reaches, so the index is checked on its own here.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { packIndexOf } from '../../../src-main/platform/repo/pack-writer';
import { gitFed } from '../../support/git-cli';

const oidOf = (n: number) => createHash('sha1').update(String(n)).digest('hex');

describe('a pack index', () => {
  it('lists every object with its offset and CRC-32 as git show-index reads them, offsets past 2 GiB included', () => {
    const oids = [oidOf(1), oidOf(2), oidOf(3), oidOf(4)];
    const offsets = [12, 2 ** 31 + 7, 40_000, 2 ** 32 + 123_456];
    const crcs = [0x01020304, 0xdeadbeef, 0, 0xffffffff];
    const index = packIndexOf(oids, offsets, crcs, Buffer.alloc(20, 7));
    const listed = gitFed(index, 'show-index')
      .split('\n')
      .map((line) => line.split(' '));
    const expected = oids
      .map((oid, i) => [String(offsets[i]), oid, `(${crcs[i]!.toString(16).padStart(8, '0')})`])
      .sort((a, b) => (a[1]! < b[1]! ? -1 : 1));
    expect(listed).toEqual(expected);
  });
});
