import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * One writer per key (per repository). Re-entrant within one async call chain, so a locked
 * operation may call other locked operations of the same repository without deadlocking.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly held = new AsyncLocalStorage<Set<string>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const holding = this.held.getStore();
    if (holding?.has(key)) return fn();

    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    await previous;
    try {
      const keys = new Set(holding ?? []);
      keys.add(key);
      return await this.held.run(keys, fn);
    } finally {
      release();
      // Drop the entry when nobody queued behind us, so the map does not grow per key forever.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /**
   * Runs `fn` as if no key were held: for work this call chain starts but does not wait for (it
   * must queue for the lock like anyone else instead of slipping in under its starter's hold).
   */
  outside<T>(fn: () => T): T {
    return this.held.exit(fn);
  }

  /** True while some caller holds or waits for `key`. */
  isBusy(key: string): boolean {
    return this.tails.has(key);
  }
}
