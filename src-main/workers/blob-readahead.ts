// The text of many blobs, one after another, while a compile asks for them: a reader thread of its
// own reads ahead (open, inflate, SHA-1) and this thread takes what it has read. A 10,000-cube first
// validate spent 380–470 ms of the model shard reading its 12,500 blobs before it compiled the
// first one (issue 28).
//
// The two threads share one claim counter: each blob is read by whichever thread claims it first,
// so this thread never waits for a reader that is slow to start, busy elsewhere or gone; it reads
// what it needs itself and at most repeats a few blobs the reader claimed but had not sent.
import { availableParallelism } from 'node:os';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { BATCH_BLOBS, CONSUMED, CONTROL_SLOTS, NEXT, readBlobSync, type ReaderBatch, type ReaderInput } from './blob-reader-protocol';

/** Fewer blobs are read on this thread alone: a thread's start (30–50 ms) would not pay. */
export const READ_AHEAD_MIN = 256;

/** A blob that neither reader of this thread could read (damaged, say): the caller reads it another way. */
export class UnreadBlob extends Error {
  constructor(readonly oid: string) {
    super(`Blob ${oid} could not be read natively.`);
  }
}

/**
 * Whether a reader thread helps: where its priority can be lowered (Linux, where the nice value is
 * a thread's), so that on 2 cores it takes only time the HTTP thread leaves, or where there are
 * cores to spare.
 */
export const readerHelps = (count: number): boolean => count >= READ_AHEAD_MIN && (process.platform === 'linux' || availableParallelism() >= 4);

const decoder = new TextDecoder();

export class BlobTexts {
  private readonly control: Int32Array;
  private readonly port: MessagePort | null = null;
  private readonly reader: Worker | null = null;
  /** Blobs the reader sent that have not been asked for yet: index → bytes. */
  private readonly ready = new Map<number, Uint8Array>();
  private next = 0;
  /** How many blobs came from the reader thread (for tests and benchmarks). */
  fromReaderCount = 0;

  /**
   * `readerEntry`: the bundled entry of blob-reader-thread.ts (a `?modulePath` import where the
   * service starts its threads); null: this thread reads alone. The reader starts when it helps
   * (readerHelps), or always with `alwaysReader` (tests).
   */
  constructor(
    private readonly gitdir: string,
    private readonly oids: readonly string[],
    readerEntry: string | null,
    alwaysReader = false,
  ) {
    this.control = new Int32Array(new SharedArrayBuffer(CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT));
    if (readerEntry === null || !(alwaysReader || readerHelps(oids.length))) return;
    const { port1, port2 } = new MessageChannel();
    const input: ReaderInput = { gitdir, oids: [...oids], control: this.control.buffer as SharedArrayBuffer, port: port2 };
    this.port = port1;
    // Its heap holds a batch or two; blobs are read into buffers outside it.
    this.reader = new Worker(readerEntry, { workerData: input, transferList: [port2], execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 } });
    this.reader.unref();
    // A reader that fails only reads no more; this thread reads the rest.
    this.reader.on('error', () => undefined);
  }

  /** The text of the next blob, in the order of `oids`; throws UnreadBlob for one that cannot be read natively. */
  nextText(): string {
    const index = this.next++;
    if (index >= this.oids.length) throw new RangeError('Every blob has been read.');
    Atomics.store(this.control, CONSUMED, index);
    // A reader as far ahead as it may be sleeps; woken for every blob taken, it would wake once a blob.
    if (index % BATCH_BLOBS === 0) Atomics.notify(this.control, CONSUMED);
    const bytes = this.fromReader(index) ?? readBlobSync(this.gitdir, this.oids[index]!);
    if (bytes === null) throw new UnreadBlob(this.oids[index]!);
    return decoder.decode(bytes);
  }

  /** Ends the reader thread (when every blob is read, or the compile stopped). */
  close(): void {
    this.port?.close();
    void this.reader?.terminate();
    this.ready.clear();
  }

  /**
   * The reader's bytes of blob `index`, or null when this thread is to read it: claimed here, or
   * claimed by the reader and not sent yet. Reading a blob again takes tens of microseconds;
   * waiting for the reader's batch took up to 70 ms a first validate at 10,000 cubes, most of it
   * while the reader, at its low priority, waited for a core.
   */
  private fromReader(index: number): Uint8Array | null {
    if (!this.port) return null;
    this.receive(index);
    const bytes = this.ready.get(index);
    if (bytes !== undefined) {
      this.ready.delete(index);
      this.fromReaderCount++;
      return bytes;
    }
    Atomics.compareExchange(this.control, NEXT, index, index + 1);
    return null;
  }

  /** Takes in every batch the reader has sent, keeping the blobs not asked for yet. */
  private receive(index: number): void {
    for (let received = receiveMessageOnPort(this.port!); received; received = receiveMessageOnPort(this.port!)) {
      const { indexes, ends, bytes } = received.message as ReaderBatch;
      for (let k = 0; k < indexes.length; k++) if (indexes[k]! >= index) this.ready.set(indexes[k]!, bytes.subarray(k === 0 ? 0 : ends[k - 1], ends[k]));
    }
  }
}
