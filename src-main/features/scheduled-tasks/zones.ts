/**
 * Wall-clock arithmetic in IANA time zones with nothing but `Intl`: the offset of a zone at an
 * instant, and the instants a local date-time names (none in a spring-forward gap, two in a
 * fall-back overlap).
 */

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The canonical name of an IANA zone (`utc` → `UTC`), or null when Intl does not know it. */
export function canonicalTimeZone(zone: string): string | null {
  // Intl of newer Node versions also takes offsets like `+01:00`; those are not IANA zones.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export interface LocalDateTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of `zone` at `instantMs`. */
export function localDateTime(zone: string, instantMs: number): LocalDateTime {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(zone).formatToParts(new Date(instantMs))) parts[part.type] = part.value;
  const year = Number(parts.year);
  return {
    year: parts.era === 'BC' || parts.era === 'B' ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

const wallMs = (t: LocalDateTime): number => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);

/** Offset of `zone` from UTC at `instantMs`, in ms (New York in winter: -5 h). */
export function zoneOffsetMs(zone: string, instantMs: number): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  return wallMs(localDateTime(zone, whole)) - whole;
}

export type LocalResolution =
  | { kind: 'exact'; instant: number }
  /** A fall-back overlap: the wall time happens twice, `first` under the earlier offset. */
  | { kind: 'overlap'; first: number; second: number }
  /** A spring-forward gap: the wall time never happens; `shifted` is it moved forward by the gap. */
  | { kind: 'gap'; shifted: number };

/**
 * The instants at which `zone` reads the given wall time. Assumes at most one offset change
 * within a day of it, which holds for every real zone.
 */
export function resolveLocal(zone: string, year: number, month: number, day: number, hour: number, minute: number): LocalResolution {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const before = zoneOffsetMs(zone, wall - DAY_MS);
  const after = zoneOffsetMs(zone, wall + DAY_MS);
  const matches = [...new Set([wall - before, wall - after])].filter((t) => t + zoneOffsetMs(zone, t) === wall).sort((a, b) => a - b);
  if (matches.length === 2) return { kind: 'overlap', first: matches[0], second: matches[1] };
  if (matches.length === 1) return { kind: 'exact', instant: matches[0] };
  // Read with the offset in force before the gap, the wall time lands as far past the gap's end
  // as it was past its start (02:30 in a 02:00→03:00 jump is 03:30).
  return { kind: 'gap', shifted: wall - before };
}
