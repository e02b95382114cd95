/**
 * The telecom domain's notion of "today" and the calendar arithmetic tau2
 * does with it (Python `date` semantics on ISO `YYYY-MM-DD` strings).
 *
 * @module
 */

/** tau2's fixed clock for the telecom domain (`get_today()`, also stated in the policy). */
export const TAU2_TELECOM_TODAY = '2025-02-25';

/**
 * The day the published NeMo reference outcomes (`reference_scenarios.json`)
 * were produced. The Python reference stamps telecom bills and charges with
 * the wall-clock date, so its expected hashes reproduce only with this date.
 */
export const NEMO_REFERENCE_TODAY = '2026-11-30';

/** A calendar date. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parse `YYYY-MM-DD`; throws a RangeError for anything else. */
export function parseIsoDate(text: string): CalendarDate {
  const match = ISO_DATE.exec(text);
  if (!match) throw new RangeError(`not an ISO date (YYYY-MM-DD): ${JSON.stringify(text)}`);
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  const check = new Date(Date.UTC(date.year, date.month - 1, date.day));
  if (check.getUTCMonth() !== date.month - 1 || check.getUTCDate() !== date.day) {
    throw new RangeError(`not a valid calendar date: ${JSON.stringify(text)}`);
  }
  return date;
}

/** `date.isoformat()`. */
export function isoDate(date: CalendarDate): string {
  const pad = (n: number, w: number): string => String(n).padStart(w, '0');
  return `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}`;
}

/** `date + timedelta(days=n)`. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day) + days * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** `date.replace(day=1)`. */
export function firstOfMonth(date: CalendarDate): CalendarDate {
  return { year: date.year, month: date.month, day: 1 };
}

/** The first day of the month after `date`'s month. */
export function firstOfNextMonth(date: CalendarDate): CalendarDate {
  return date.month < 12
    ? { year: date.year, month: date.month + 1, day: 1 }
    : { year: date.year + 1, month: 1, day: 1 };
}

/** The telecom clock a module instance runs on. */
export interface TelecomClock {
  /** Today's date, `YYYY-MM-DD`. */
  readonly today: string;
}

/** A clock fixed at `today` (validated). */
export function fixedClock(today: string = TAU2_TELECOM_TODAY): TelecomClock {
  parseIsoDate(today);
  return { today };
}

/** `date.today()`: the local calendar date of `now`. */
export function localIsoDate(now: Date = new Date()): string {
  return isoDate({ year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() });
}

/**
 * The real calendar: `today` is the local date at the moment it is read, as NeMo's bot stamps
 * telecom bills with Python's `date.today()`.
 */
export function systemClock(): TelecomClock {
  return {
    get today(): string {
      return localIsoDate();
    },
  };
}
