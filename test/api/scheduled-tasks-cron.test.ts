import { describe, expect, it } from 'vitest';
import { CronError, nextFiring, parseCron } from '../../src-main/features/scheduled-tasks/cron';
import { canonicalTimeZone, resolveLocal, zoneOffsetMs } from '../../src-main/features/scheduled-tasks/zones';

const next = (cron: string, zone: string, after: string) => nextFiring(parseCron(cron), zone, new Date(after))?.toISOString() ?? null;

/** The first `count` firings after `after`. */
function firings(cron: string, zone: string, after: string, count: number): string[] {
  const schedule = parseCron(cron);
  const out: string[] = [];
  let at = new Date(after);
  for (let i = 0; i < count; i++) {
    const n = nextFiring(schedule, zone, at);
    if (!n) break;
    out.push(n.toISOString());
    at = n;
  }
  return out;
}

const problemOf = (cron: string) => {
  try {
    parseCron(cron);
    return null;
  } catch (error) {
    return (error as CronError).problem;
  }
};

describe('scheduled task cron expressions', () => {
  it('bad cron: anything but five valid fields is a syntax problem', () => {
    expect(problemOf('bad')).toBe('syntax');
    expect(problemOf('')).toBe('syntax');
    expect(problemOf('0 9 * *')).toBe('syntax');
    expect(problemOf('0 0 9 * * *')).toBe('syntax'); // six fields (seconds) are not accepted
    expect(problemOf('0 25 * * *')).toBe('syntax');
    expect(problemOf('0 9 * 13 *')).toBe('syntax');
    expect(problemOf('0 9 L * *')).toBe('syntax');
    expect(problemOf('0 9 * * MON-FRI')).toBeNull();
    expect(problemOf(' 15  9 * * 1-5 ')).toBeNull();
  });

  it('cron frequency: at most once an hour, the minute field is a single number', () => {
    for (const cron of ['* * * * *', '*/5 * * * *', '0,30 * * * *', '0-10 9 * * *', '*/60 * * * *', '60 * * * *']) {
      expect(problemOf(cron), cron).not.toBeNull();
    }
    expect(problemOf('*/5 * * * *')).toBe('frequency');
    expect(problemOf('0,30 9 * * *')).toBe('frequency');
    expect(problemOf('0 * * * *')).toBeNull();
    expect(problemOf('59 */2 * * *')).toBeNull();
  });

  it('nextRunAt is computed in the task time zone', () => {
    // 09:00 in Berlin is 08:00Z in winter (CET, +1) and 07:00Z in summer (CEST, +2).
    expect(next('0 9 * * *', 'Europe/Berlin', '2026-01-10T12:00:00Z')).toBe('2026-01-11T08:00:00.000Z');
    expect(next('0 9 * * *', 'Europe/Berlin', '2026-07-10T06:59:00Z')).toBe('2026-07-10T07:00:00.000Z');
    // Half-hour offset: Kolkata is +05:30.
    expect(next('0 9 * * *', 'Asia/Kolkata', '2026-01-10T00:00:00Z')).toBe('2026-01-10T03:30:00.000Z');
    // Across Europe's switch to summer time (29 March 2026, 01:00Z).
    expect(firings('0 9 * * *', 'Europe/Berlin', '2026-03-28T00:00:00Z', 2)).toEqual(['2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z']);
    // Strictly after: a firing exactly at `after` is not the next one.
    expect(next('0 9 * * *', 'UTC', '2026-01-10T09:00:00Z')).toBe('2026-01-11T09:00:00.000Z');
  });

  it('DST spring forward: a skipped local time runs as far past the gap (02:30 → 03:30)', () => {
    // New York jumps from 02:00 EST to 03:00 EDT on 8 March 2026 (07:00Z).
    expect(firings('30 2 * * *', 'America/New_York', '2026-03-07T12:00:00Z', 2)).toEqual([
      '2026-03-08T07:30:00.000Z', // 03:30 EDT: the day still gets its run
      '2026-03-09T06:30:00.000Z', // 02:30 EDT
    ]);
    // Hourly through the gap: 01:00 EST, then 03:00 EDT, without a duplicate.
    expect(firings('0 * * * *', 'America/New_York', '2026-03-08T05:30:00Z', 3)).toEqual([
      '2026-03-08T06:00:00.000Z',
      '2026-03-08T07:00:00.000Z',
      '2026-03-08T08:00:00.000Z',
    ]);
  });

  it('DST fall back: a repeated local time runs once, an hourly task keeps running every hour', () => {
    // New York repeats 01:00–02:00 on 1 November 2026 (EDT until 06:00Z, then EST).
    expect(firings('30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', 2)).toEqual([
      '2026-11-01T05:30:00.000Z', // 01:30 EDT, the first occurrence
      '2026-11-02T06:30:00.000Z', // next day 01:30 EST; the repeated 01:30 EST of 1 November is not a second run
    ]);
    expect(firings('0 * * * *', 'America/New_York', '2026-11-01T04:30:00Z', 3)).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT
      '2026-11-01T06:00:00.000Z', // 01:00 EST
      '2026-11-01T07:00:00.000Z', // 02:00 EST
    ]);
  });

  it('a day matches day-of-month or day-of-week when both are restricted (standard cron)', () => {
    // 1 Feb 2026 is a Sunday; Mondays are 2, 9… February.
    expect(firings('0 9 1 * 1', 'UTC', '2026-01-31T12:00:00Z', 3)).toEqual([
      '2026-02-01T09:00:00.000Z',
      '2026-02-02T09:00:00.000Z',
      '2026-02-09T09:00:00.000Z',
    ]);
    expect(firings('0 9 * * 1', 'UTC', '2026-01-31T12:00:00Z', 1)).toEqual(['2026-02-02T09:00:00.000Z']);
  });

  it('bad cron: a date no calendar has is refused; 29 February waits for a leap year', () => {
    expect(problemOf('0 0 30 2 *')).toBe('syntax');
    expect(problemOf('0 0 31 4,6 *')).toBe('syntax');
    expect(next('0 0 29 2 *', 'UTC', '2026-01-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
  });
});

describe('time zones', () => {
  it('bad time zone: only IANA names are accepted, given their canonical spelling', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('+01:00')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });

  it('reads zone offsets with Intl, and finds gaps and overlaps of local times', () => {
    expect(zoneOffsetMs('America/New_York', Date.parse('2026-01-15T12:00:00Z'))).toBe(-5 * 3600_000);
    expect(zoneOffsetMs('America/New_York', Date.parse('2026-07-15T12:00:00Z'))).toBe(-4 * 3600_000);
    expect(resolveLocal('America/New_York', 2026, 3, 8, 2, 30)).toEqual({ kind: 'gap', shifted: Date.parse('2026-03-08T07:30:00Z') });
    expect(resolveLocal('America/New_York', 2026, 11, 1, 1, 30)).toEqual({
      kind: 'overlap',
      first: Date.parse('2026-11-01T05:30:00Z'),
      second: Date.parse('2026-11-01T06:30:00Z'),
    });
    expect(resolveLocal('Europe/Berlin', 2026, 1, 1, 0, 0)).toEqual({ kind: 'exact', instant: Date.parse('2025-12-31T23:00:00Z') });
  });
});
