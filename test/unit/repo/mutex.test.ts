import { describe, expect, it } from 'vitest';
import { KeyedMutex } from '../../../src-main/platform/repo/mutex';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('keyed mutex', () => {
  it('runs callers of one key one at a time, in arrival order', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    const job = (name: string) =>
      mutex.run('repo', async () => {
        events.push(`${name}:start`);
        await tick();
        events.push(`${name}:end`);
      });
    await Promise.all([job('a'), job('b'), job('c')]);
    expect(events).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
    expect(mutex.isBusy('repo')).toBe(false);
  });

  it('lets different keys run concurrently', async () => {
    const mutex = new KeyedMutex();
    const events: string[] = [];
    await Promise.all(
      ['x', 'y'].map((key) =>
        mutex.run(key, async () => {
          events.push(`${key}:start`);
          await tick();
          events.push(`${key}:end`);
        }),
      ),
    );
    expect(events.slice(0, 2).sort()).toEqual(['x:start', 'y:start']);
  });

  it('is re-entrant within one call chain and releases after a failure', async () => {
    const mutex = new KeyedMutex();
    const inner = await mutex.run('k', () => mutex.run('k', async () => 42));
    expect(inner).toBe(42);
    await expect(mutex.run('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await mutex.run('k', async () => 'free')).toBe('free');
  });
});
