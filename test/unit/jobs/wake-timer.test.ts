import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../src-main/platform/clock';
import { WakeTimer } from '../../../src-main/platform/jobs/wake-timer';

const START = new Date('2026-01-01T00:00:00.000Z');

describe('WakeTimer (behind the task and git-fetch schedulers)', () => {
  beforeEach(() => vi.useFakeTimers({ now: START }));
  afterEach(() => vi.useRealTimers());

  function timer(due: { at: string | null }, onDue = vi.fn(), onError = vi.fn()) {
    const clock = new ManualClock(START);
    return { clock, onDue, onError, wake: new WakeTimer({ clock, maxSleepMs: 30_000, nextDueAt: () => due.at, onDue, onError }) };
  }

  it('wakes at the earliest due time, not before', () => {
    const { wake, onDue } = timer({ at: new Date(START.getTime() + 5_000).toISOString() });
    wake.start();
    vi.advanceTimersByTime(4_999);
    expect(onDue).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onDue).toHaveBeenCalledTimes(1);
    wake.stop();
  });

  it('with nothing due it still wakes after the longest sleep (rows written by other processes)', () => {
    const { wake, onDue } = timer({ at: null });
    wake.start();
    vi.advanceTimersByTime(30_000);
    expect(onDue).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(30_000);
    expect(onDue).toHaveBeenCalledTimes(2);
    wake.stop();
  });

  it('a failing round is reported and the next one still runs', () => {
    const onDue = vi.fn(() => {
      throw new Error('database is locked');
    });
    const { wake, onError } = timer({ at: null }, onDue);
    wake.start();
    vi.advanceTimersByTime(60_000);
    expect(onDue).toHaveBeenCalledTimes(2);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'database is locked' }));
    wake.stop();
  });

  it('rearm follows a schedule brought forward; stop ends every wake-up', () => {
    const due = { at: null as string | null };
    const { wake, onDue } = timer(due);
    wake.start();
    due.at = new Date(START.getTime() + 1_000).toISOString();
    wake.rearm();
    vi.advanceTimersByTime(1_000);
    expect(onDue).toHaveBeenCalledTimes(1);
    wake.stop();
    vi.advanceTimersByTime(120_000);
    expect(onDue).toHaveBeenCalledTimes(1);
  });
});
