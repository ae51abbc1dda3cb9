// A model shard takes its blobs' text one by one as the compiler asks (workers/blob-readahead.ts),
// a reader thread reading ahead of it. Whoever reads a blob, the shard gets every one as git wrote
// it, in order; a blob neither can read natively is reported, not skipped or taken for another.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BlobTexts, READ_AHEAD_MIN, UnreadBlob } from '../../../src-main/workers/blob-readahead';
import { BATCH_BYTES } from '../../../src-main/workers/blob-reader-protocol';
import readerEntry from '../../../src-main/workers/blob-reader-thread?modulePath';
import { gitIn as git } from '../../support/git-cli';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository with `count` files of different sizes (one larger than a reader's batch, some not ASCII); the files' texts and blob ids in path order. */
function repository(count: number): { gitdir: string; texts: string[]; oids: string[] } {
  const work = mkdtempSync(join(tmpdir(), 'drydock-readahead-'));
  dirs.push(work);
  git(work, 'init', '-q', '-b', 'main');
  mkdirSync(join(work, 'model'));
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const text = i === 7 ? 'x'.repeat(BATCH_BYTES + 1000) : `cubes:\n  - name: cube_${i}\n    description: "${i % 3 === 0 ? 'Ünïcode — ' : ''}${'d'.repeat(i % 500)}"\n`;
    texts.push(text);
    writeFileSync(join(work, 'model', `f${String(i).padStart(5, '0')}.yml`), text);
  }
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'model');
  const oids = git(work, 'ls-tree', '--format=%(objectname)', 'HEAD', 'model/').split('\n');
  return { gitdir: join(work, '.git'), texts, oids };
}

const readAll = (blobs: BlobTexts, count: number): string[] => Array.from({ length: count }, () => blobs.nextText());

/** Puts another content under blob `oid`'s name (its bytes no longer match its id). */
function forge(gitdir: string, oid: string): void {
  const file = join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
  const raw = inflateSync(readFileSync(file)).toString('latin1');
  chmodSync(file, 0o644);
  writeFileSync(file, deflateSync(Buffer.from(raw.replace('cube_', 'fake_'), 'latin1')));
}

describe('blob texts read ahead by a reader thread', () => {
  it('gives every blob as git wrote it, in order, with a blob asked for twice given twice', () => {
    const { gitdir, texts, oids } = repository(READ_AHEAD_MIN + 100);
    const order = [...oids, oids[3]!, oids[7]!];
    const blobs = new BlobTexts(gitdir, order, readerEntry, true);
    try {
      expect(readAll(blobs, order.length)).toEqual([...texts, texts[3], texts[7]]);
    } finally {
      blobs.close();
    }
  });

  it('takes blobs from the reader when it is ahead, and reads the others itself', () => {
    const { gitdir, texts, oids } = repository(READ_AHEAD_MIN + 100);
    const blobs = new BlobTexts(gitdir, oids, readerEntry, true);
    try {
      // A compile parses each file: the reader, once started, runs ahead of a slow consumer.
      const wait = new Int32Array(new SharedArrayBuffer(4));
      const got = oids.map(() => {
        Atomics.wait(wait, 0, 0, 1);
        return blobs.nextText();
      });
      expect(got).toEqual(texts);
      expect(blobs.fromReaderCount).toBeGreaterThan(0);
    } finally {
      blobs.close();
    }
  });

  it('reads every blob itself without a reader thread, and starts none for a few blobs', () => {
    const { gitdir, texts, oids } = repository(20);
    for (const blobs of [new BlobTexts(gitdir, oids, null), new BlobTexts(gitdir, oids, readerEntry)]) {
      expect(readAll(blobs, oids.length)).toEqual(texts);
      expect(blobs.fromReaderCount).toBe(0);
      blobs.close();
    }
  });

  it.each([
    ['with a reader thread', true],
    ['alone', false],
  ])('refuses a blob whose bytes do not match its id (%s), after giving the ones before it', (_, withReader) => {
    const { gitdir, texts, oids } = repository(READ_AHEAD_MIN + 10);
    forge(gitdir, oids[40]!);
    const blobs = new BlobTexts(gitdir, oids, withReader ? readerEntry : null, withReader);
    try {
      expect(readAll(blobs, 40)).toEqual(texts.slice(0, 40));
      expect(() => blobs.nextText()).toThrow(UnreadBlob);
    } finally {
      blobs.close();
    }
  });

  it('says so when asked past the last blob', () => {
    const { gitdir, oids } = repository(2);
    const blobs = new BlobTexts(gitdir, oids, null);
    readAll(blobs, 2);
    expect(() => blobs.nextText()).toThrow(RangeError);
  });
});
