// Entry of the thread that reads a model shard's blobs ahead of its compile (see blob-readahead.ts):
// it claims blobs one by one from the counter both threads share, reads and checks each natively,
// and sends them in batches through its port. A blob it cannot read it leaves to the shard, which
// reads it again and says what is wrong.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { AHEAD_BLOBS, AHEAD_BYTES, BATCH_BLOBS, BATCH_BYTES, CONSUMED, NEXT, readBlobSync, type ReaderBatch, type ReaderInput } from './blob-reader-protocol';

/** How long the reader sleeps at a time while it is as far ahead as it may be. */
const ROOM_WAIT_MS = 50;

/**
 * On Linux the nice value belongs to a thread, whose id /proc/thread-self names: at 19 this thread
 * takes a core only when nothing else wants it, so it never delays the HTTP thread's answers.
 */
function lowerPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 19);
  } catch {
    // Nothing lowered: the reader still only reads what the shard has not claimed yet.
  }
}

function run({ gitdir, oids, control: shared, port }: ReaderInput): void {
  const control = new Int32Array(shared);
  let indexes: number[] = [];
  let blobs: Uint8Array[] = [];
  let batchBytes = 0;
  // Bytes sent by blob index, to know how much is sent and not yet taken.
  const sentBytes: [number, number][] = [];
  let aheadBytes = 0;

  const send = () => {
    if (indexes.length === 0) return;
    const batch: ReaderBatch = { indexes: Int32Array.from(indexes), ends: new Int32Array(indexes.length), bytes: new Uint8Array(batchBytes) };
    let end = 0;
    blobs.forEach((bytes, k) => {
      batch.bytes.set(bytes, end);
      batch.ends[k] = end += bytes.byteLength;
    });
    port.postMessage(batch, [batch.bytes.buffer as ArrayBuffer]);
    indexes.forEach((index, k) => sentBytes.push([index, blobs[k]!.byteLength]));
    aheadBytes += batchBytes;
    indexes = [];
    blobs = [];
    batchBytes = 0;
  };

  /** Waits while the reader is as far ahead as it may be; false once every blob is claimed. */
  const roomToClaim = (): boolean => {
    for (;;) {
      const next = Atomics.load(control, NEXT);
      if (next >= oids.length) return false;
      const consumed = Atomics.load(control, CONSUMED);
      while (sentBytes.length > 0 && sentBytes[0]![0] < consumed) aheadBytes -= sentBytes.shift()![1];
      if (next - consumed < AHEAD_BLOBS && aheadBytes < AHEAD_BYTES) return true;
      send();
      Atomics.wait(control, CONSUMED, consumed, ROOM_WAIT_MS);
    }
  };

  while (roomToClaim()) {
    const index = Atomics.add(control, NEXT, 1);
    if (index >= oids.length) break;
    let bytes: Uint8Array | null = null;
    try {
      bytes = readBlobSync(gitdir, oids[index]!);
    } catch {
      // Left to the shard, which reads it again and reports what is wrong.
    }
    if (bytes === null) continue;
    indexes.push(index);
    blobs.push(bytes);
    batchBytes += bytes.byteLength;
    if (indexes.length >= BATCH_BLOBS || batchBytes >= BATCH_BYTES) send();
  }
  send();
  port.close();
}

lowerPriority();
run(workerData as ReaderInput);
