import { randomBytes } from 'node:crypto';
import type { LiveEvent } from '../../../src-shared/api/events';

/** An event as an area publishes it: the bus adds `id` and `at`. */
export type LiveEventInput = LiveEvent extends infer E ? (E extends LiveEvent ? Omit<E, 'id' | 'at'> : never) : never;

export interface EventBusOptions {
  now?: () => Date;
  /** Events held for replay after a reconnect (default 2,000). */
  capacity?: number;
}

/**
 * The in-process event bus of the service: areas publish what changed (jobs, files, branches,
 * builds, writes), the live-events route fans them out to its streams. Ids are `<boot>-<seq>`, so
 * a client reconnecting with an id of an earlier process (or one older than the ring holds) is
 * told to resync instead of silently missing events.
 */
export class EventBus {
  readonly boot = randomBytes(4).toString('hex');
  private seq = 0;
  private readonly ring: LiveEvent[] = [];
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private readonly now: () => Date;
  private readonly capacity: number;

  constructor(options: EventBusOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.capacity = options.capacity ?? 2000;
  }

  publish(input: LiveEventInput): LiveEvent {
    const event = { ...input, id: `${this.boot}-${++this.seq}`, at: this.now().toISOString() } as LiveEvent;
    this.ring.push(event);
    if (this.ring.length > this.capacity) this.ring.splice(0, this.ring.length - this.capacity);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken subscriber (a stream that closed mid-write) never stops the publisher.
      }
    }
    return event;
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  /** The id of the newest event (`<boot>-0` before the first). */
  get lastId(): string {
    return `${this.boot}-${this.seq}`;
  }

  /**
   * The held events after `id`; null when they cannot all be given (an id of another boot, or older
   * than the oldest held event): the caller must resync.
   */
  since(id: string): LiveEvent[] | null {
    const match = /^([0-9a-f]{8})-(\d{1,15})$/.exec(id);
    if (!match || match[1] !== this.boot) return null;
    const after = Number(match[2]);
    if (after > this.seq) return null;
    if (after === this.seq) return [];
    const oldest = this.ring.length > 0 ? Number(this.ring[0].id.split('-')[1]) : this.seq + 1;
    if (after < oldest - 1) return null;
    return this.ring.filter((e) => Number(e.id.split('-')[1]) > after);
  }
}
