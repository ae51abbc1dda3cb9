// Events one area sends and others act on (a deployment created or deleted, a branch's new commit).
// An area subscribes when its code loads, and with areas loaded on first use (`drydock serve`, the
// app) that can be after the event: a deployment created right after start got no production
// environment, and a commit made then started no build. Whoever sends such an event first makes
// sure every area has loaded, so every subscriber is in place.
import type { ServiceContext } from '../context';

/** Resolves once every area has loaded (at once where they all loaded at start, as in tests and tools). */
export async function everyAreaLoaded(ctx: ServiceContext): Promise<void> {
  await (ctx.services.loadAllAreas as (() => Promise<void>) | undefined)?.();
}

/**
 * Runs `deliver` at once when every area has loaded, else once they have: for an event sent from
 * code that cannot wait (its subscribers only schedule work of their own).
 */
function whenEveryAreaLoaded(ctx: ServiceContext, deliver: () => void): void {
  const allLoaded = ctx.services.allAreasLoaded as (() => boolean) | undefined;
  if (!allLoaded || allLoaded()) {
    deliver();
    return;
  }
  everyAreaLoaded(ctx).then(deliver, (error: unknown) => {
    // An area that failed to load has logged why; the others still hear of the event.
    ctx.log.warn('an event waited for an area that failed to load', { error: String(error) });
    deliver();
  });
}

/**
 * An event of one area that others subscribe to (per service): `on` subscribes and returns the
 * unsubscribe function; `emit` delivers to every subscriber once every area has loaded (at once
 * when they have). A subscriber that throws is logged with `describe`'s fields and the others
 * still hear of it. Subscribers only schedule work of their own.
 */
export function areaEvent<A extends unknown[]>(failure: string, describe: (...args: A) => Record<string, unknown>) {
  const subscribers = new WeakMap<ServiceContext, Set<(...args: A) => void>>();
  return {
    on(ctx: ServiceContext, listener: (...args: A) => void): () => void {
      let set = subscribers.get(ctx);
      if (!set) subscribers.set(ctx, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    emit(ctx: ServiceContext, ...args: A): void {
      whenEveryAreaLoaded(ctx, () => {
        for (const listener of subscribers.get(ctx) ?? []) {
          try {
            listener(...args);
          } catch (error) {
            ctx.log.error(failure, { ...describe(...args), error: String(error) });
          }
        }
      });
    },
  };
}
