/**
 * Which file a worker thread is reading, in memory the thread shares with the one that gave it the
 * task (issue 23). When the thread dies — out of heap, or terminated for running past its time —
 * its task's rejection says nothing of why; the marker names the file it was reading then, so that
 * file can be reported and left out, and the rest of the model validated without it.
 *
 * Layout: an Int32 with the length of what follows (0: no file being read), then UTF-8 text
 * `<blob id> <path>`.
 */

const HEADER = 4;
/** Paths are at most 512 characters (MAX_FILE_PATH_LENGTH), 3 UTF-8 bytes each at worst, plus a blob id. */
const TEXT_BYTES = 2048;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export type ReadMarker = SharedArrayBuffer;

export const newReadMarker = (): ReadMarker => new SharedArrayBuffer(HEADER + TEXT_BYTES);

/** Marks `path` (blob `id`) as being read; null: no file is being read. */
export function markReading(marker: ReadMarker, file: { id: string; path: string } | null): void {
  const length = new Int32Array(marker, 0, 1);
  if (!file) {
    Atomics.store(length, 0, 0);
    return;
  }
  const { written } = encoder.encodeInto(`${file.id} ${file.path}`, new Uint8Array(marker, HEADER, TEXT_BYTES));
  Atomics.store(length, 0, written);
}

/** The file marked as being read, if any. */
export function fileBeingRead(marker: ReadMarker): { id: string; path: string } | null {
  const length = Atomics.load(new Int32Array(marker, 0, 1), 0);
  if (length <= 0) return null;
  // A shared buffer cannot be decoded in place: copy the bytes out first.
  const text = decoder.decode(new Uint8Array(marker, HEADER, length).slice());
  const space = text.indexOf(' ');
  return space > 0 ? { id: text.slice(0, space), path: text.slice(space + 1) } : null;
}
