/**
 * The bytes of a request body, kept as they arrive and never reserved ahead of them (issue 23: a
 * buffer of the announced Content-Length, allocated before a byte of the body came, let 8,000
 * connections announcing 5 MB each hold gigabytes while sending nothing).
 *
 * A small body is a list of the pieces received. From `shareFrom` bytes on, the bytes go into
 * shared buffers a compute thread reads (issue 10: the HTTP thread never joins or parses a
 * multi-megabyte body): each piece is copied, when it arrives, into the last segment, and a full
 * segment is followed by one as large as everything kept so far (at least `shareFrom`), so memory
 * stays under twice what really arrived, in a handful of segments. No segment goes past
 * `capacity` (the announced length, else the body limit): a body that announced its length is kept
 * in exactly that many bytes once it has all arrived. Nothing is pooled: the segments are freed
 * with the request.
 */
import type { SharedJsonBody } from '../platform/json/shared-body';

export class BodyBytes {
  /** Bytes received (some may not be kept: past the capacity, where the body is refused anyway). */
  received = 0;
  private pieces: Buffer[] = [];
  private readonly segments: SharedArrayBuffer[] = [];
  private kept = 0;
  /** Free bytes at the end of the last segment. */
  private room = 0;

  /**
   * @param shareFrom from this many bytes on, the body goes into shared segments (null: never)
   * @param capacity the most bytes ever kept
   */
  constructor(
    private readonly shareFrom: number | null,
    private readonly capacity: number,
  ) {}

  add(piece: Buffer): void {
    this.received += piece.byteLength;
    if (this.segments.length > 0) return this.copy(piece);
    this.pieces.push(piece);
    if (this.shareFrom !== null && this.received >= this.shareFrom) {
      const held = this.pieces;
      this.pieces = [];
      for (const p of held) this.copy(p);
    }
  }

  /** True once the body went into shared segments (it is read on a compute thread). */
  get shared(): boolean {
    return this.segments.length > 0;
  }

  /** The shared segments, for a compute thread (see platform/json/shared-body.ts). */
  sharedBody(): SharedJsonBody {
    return { segments: [...this.segments], length: this.kept };
  }

  /** The pieces joined (a small body, read here). */
  joined(): Buffer {
    return Buffer.concat(this.pieces, this.received);
  }

  /** Bytes held for this body right now (segments are counted whole). */
  get heldBytes(): number {
    return this.segments.length > 0 ? this.kept + this.room : this.received;
  }

  private copy(piece: Buffer): void {
    let offset = 0;
    while (offset < piece.byteLength) {
      if (this.room === 0) {
        const size = Math.min(Math.max(this.kept, this.shareFrom ?? 0, 1), this.capacity - this.kept);
        if (size <= 0) return;
        this.segments.push(new SharedArrayBuffer(size));
        this.room = size;
      }
      const segment = this.segments[this.segments.length - 1]!;
      const count = Math.min(this.room, piece.byteLength - offset);
      new Uint8Array(segment, segment.byteLength - this.room, count).set(piece.subarray(offset, offset + count));
      offset += count;
      this.room -= count;
      this.kept += count;
    }
  }
}
