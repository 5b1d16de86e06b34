/** One formatter per time zone: building one costs far more than using it. */
const formats = new Map<string, Intl.DateTimeFormat>();

function wallClock(timezone: string): Intl.DateTimeFormat {
  let format = formats.get(timezone);
  if (!format) {
    const options = {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    } as const;
    try {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: timezone });
    } catch {
      // An unknown zone reads as UTC, as the cycles' days do.
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' });
    }
    formats.set(timezone, format);
  }
  return format;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timezone: string): number {
  const parts = Object.fromEntries(
    wallClock(timezone)
      .formatToParts(new Date(instant))
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

/**
 * The instant a day (yyyy-mm-dd) begins in a time zone: when a cycle's decision release day starts for
 * the institution. The second pass corrects the first guess on a day the zone changes its offset.
 */
export function startOfDayIn(day: string, timezone: string): Date {
  return wallTimeIn(`${day}T00:00`, timezone);
}

/**
 * The instant a time zone's wall clock reads `local` (yyyy-mm-ddThh:mm): a release set for 09:00 in
 * Kigali. A time the clock skips (a spring-forward gap) reads as the instant after it.
 */
export function wallTimeIn(local: string, timezone: string): Date {
  const wall = Date.parse(`${local}:00Z`);
  const guess = wall - offsetAt(wall, timezone);
  return new Date(wall - offsetAt(guess, timezone));
}

/** The day after `day` (yyyy-mm-dd). */
export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** The instant a day (yyyy-mm-dd) ends in a time zone: a cycle's closing day, an offer's reply deadline. */
export function endOfDayIn(day: string, timezone: string): Date {
  return startOfDayIn(nextDay(day), timezone);
}
