import { validateDetailed } from 'node-cron';
import { resolveLocal, localDateTime } from './zones';

/**
 * Cron expressions of scheduled tasks: the five standard fields (minute hour day-of-month month
 * day-of-week), read with node-cron's parser, at most once an hour (the minute field is a single
 * number). Next-run times are computed here in the task's IANA zone, so they follow the service's
 * clock and its DST rules:
 * - a time skipped by a spring-forward gap runs at the same distance past the gap (02:30 → 03:30);
 * - a time repeated by a fall-back overlap runs once, at its first occurrence, except that a task
 *   firing every hour also runs in the repeated hour (it keeps running hourly in elapsed time).
 */

export type CronProblem = 'syntax' | 'frequency';

export class CronError extends Error {
  constructor(
    readonly problem: CronProblem,
    message: string,
  ) {
    super(message);
    this.name = 'CronError';
  }
}

export interface CronSchedule {
  expression: string;
  minute: number;
  hours: number[];
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
  /** Both day fields restricted: a day matches when either does (standard cron). */
  eitherDay: boolean;
  everyHour: boolean;
}

const FIELD_NAMES = ['minute', 'hour', 'day-of-month', 'month', 'day-of-week'];
const MAX_SEARCH_DAYS = 366 * 8 + 2;
const DAY_MS = 86_400_000;

const numbers = (values: (number | string)[], field: string, expression: string): number[] => {
  if (values.some((v) => typeof v !== 'number')) {
    throw new CronError('syntax', `"${expression}": the ${field} field uses an extension (L, W or #) scheduled tasks do not support.`);
  }
  return values as number[];
};

/** Parses and checks an expression; throws `CronError` (syntax, or more often than hourly). */
export function parseCron(expression: string): CronSchedule {
  const trimmed = expression.trim();
  const fields = trimmed.split(/\s+/);
  if (trimmed === '' || fields.length !== 5) {
    throw new CronError(
      'syntax',
      `"${expression}" is not a cron expression of five fields (${FIELD_NAMES.join(' ')}); got ${trimmed === '' ? 0 : fields.length}.`,
    );
  }
  const checked = validateDetailed(trimmed);
  if (!checked.valid || !checked.fields) {
    const reasons = checked.errors.map((e) => e.message).join('; ');
    throw new CronError('syntax', `"${expression}" is not a valid cron expression: ${reasons || 'unreadable'}.`);
  }
  if (!/^\d{1,2}$/.test(fields[0]) || Number(fields[0]) > 59) {
    throw new CronError(
      'frequency',
      `"${expression}" runs more than once an hour: scheduled tasks run at most hourly, so the minute field must be a single number (0-59), e.g. "${/^\d{1,2}$/.test(fields[0]) ? '0' : '15'} ${fields.slice(1).join(' ')}".`,
    );
  }
  const parsed = checked.fields;
  const hours = [...new Set(numbers(parsed.hour, 'hour', expression))].sort((a, b) => a - b);
  const restricted = (raw: string) => raw !== '*' && raw !== '?';
  const schedule: CronSchedule = {
    expression: trimmed,
    minute: Number(fields[0]),
    hours,
    daysOfMonth: new Set(numbers(parsed.dayOfMonth, 'day-of-month', expression)),
    months: new Set(numbers(parsed.month, 'month', expression)),
    daysOfWeek: new Set(numbers(parsed.dayOfWeek, 'day-of-week', expression).map((d) => d % 7)),
    eitherDay: restricted(fields[2]) && restricted(fields[4]),
    everyHour: hours.length === 24,
  };
  return schedule;
}

function dayMatches(schedule: CronSchedule, year: number, month: number, day: number): boolean {
  if (!schedule.months.has(month)) return false;
  const dom = schedule.daysOfMonth.has(day);
  const dow = schedule.daysOfWeek.has(new Date(Date.UTC(year, month - 1, day)).getUTCDay());
  return schedule.eitherDay ? dom || dow : dom && dow;
}

/** The instants the schedule fires at on one local calendar day of `zone`. */
function firingsOn(schedule: CronSchedule, zone: string, year: number, month: number, day: number): number[] {
  const instants: number[] = [];
  for (const hour of schedule.hours) {
    const resolved = resolveLocal(zone, year, month, day, hour, schedule.minute);
    if (resolved.kind === 'exact') instants.push(resolved.instant);
    else if (resolved.kind === 'gap') instants.push(resolved.shifted);
    else {
      instants.push(resolved.first);
      if (schedule.everyHour) instants.push(resolved.second);
    }
  }
  return [...new Set(instants)].sort((a, b) => a - b);
}

/** The first firing strictly after `after`, or null when the schedule never fires (e.g. 30 February). */
export function nextFiring(schedule: CronSchedule, zone: string, after: Date): Date | null {
  const afterMs = after.getTime();
  // Start a day early: the zone's calendar day of `after` may begin before it in UTC terms.
  const start = localDateTime(zone, afterMs - DAY_MS);
  const firstDay = Date.UTC(start.year, start.month - 1, start.day);
  const firingsAfter = (dayIndex: number): number[] => {
    const date = new Date(firstDay + dayIndex * DAY_MS);
    const [year, month, day] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    if (!dayMatches(schedule, year, month, day)) return [];
    return firingsOn(schedule, zone, year, month, day).filter((instant) => instant > afterMs);
  };
  for (let i = 0; i < MAX_SEARCH_DAYS; i++) {
    const found = firingsAfter(i);
    if (found.length === 0) continue;
    // A gap-shifted time could in theory pass the next day's first firing; one more day settles it.
    return new Date(Math.min(...found, ...firingsAfter(i + 1)));
  }
  return null;
}
