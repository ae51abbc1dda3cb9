// Piscina loads its `name` export when a thread starts; a missing one sends it down a second,
// asynchronous load that races the first task's require() and can abort Node (see pools.ts).
import { describe, expect, it } from 'vitest';
import { WARM_UP_EXPORT } from '../../src-main/platform/workers/pools';
import * as compute from '../../src-main/workers/compute-worker';
import * as model from '../../src-main/workers/model-worker';

describe('worker entries', () => {
  it.each([
    ['compute', compute],
    ['model shard', model],
  ])('the %s entry exports the function its pool loads at thread start', (_, entry) => {
    const warmUp = (entry as Record<string, unknown>)[WARM_UP_EXPORT];
    expect(typeof warmUp).toBe('function');
    expect((warmUp as () => unknown)()).toBe(true);
  });
});
