/** Business dates are computed in Asia/Manila (DESIGN §5). */
export const BUSINESS_TIME_ZONE = 'Asia/Manila';

const dateFormatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

let lastMinute = NaN;
let lastDate = '';

/** The Manila calendar date of an instant, as "YYYY-MM-DD". */
export function manilaDate(instant: Date = new Date()): string {
  // Remembered per minute: a time zone's days begin on a whole minute, and formatting is slow.
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minute === lastMinute) return lastDate;
  const parts = dateFormatter.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  lastDate = `${get('year')}-${get('month')}-${get('day')}`;
  lastMinute = minute;
  return lastDate;
}

/** Manila's offset from UTC: +08:00 all year (no daylight saving since 1978). */
const MANILA_OFFSET = '+08:00';

/** The instant of a Manila wall-clock time ("HH:MM") on a business date ("YYYY-MM-DD"). */
export function manilaInstant(date: string, time: string): Date {
  return new Date(`${date}T${time}:00${MANILA_OFFSET}`);
}

const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when the text is a real calendar date "YYYY-MM-DD". */
export function isIsoDate(text: string): boolean {
  const m = ISO_DATE_RE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

function parts(date: string): [number, number, number] {
  const m = ISO_DATE_RE.exec(date);
  if (!m || !isIsoDate(date)) throw new RangeError(`Not a date: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/**
 * Age in whole years on a given day (default: today in Manila). A person born on 29 February
 * turns a year older on 1 March in common years.
 */
export function ageOn(birthDate: string, today: string = manilaDate()): number {
  const [by, bm, bd] = parts(birthDate);
  const [ty, tm, td] = parts(today);
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age -= 1;
  return age;
}

/** Adds whole days to a calendar date: addDays("2026-01-31", 1) = "2026-02-01". */
export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  const dt = new Date(Date.UTC(y, m - 1, d + days));
  return dt.toISOString().slice(0, 10);
}

/** Whole days from one calendar date to another: daysBetween("2026-01-30", "2026-02-02") = 3. */
export function daysBetween(from: string, to: string): number {
  const [fy, fm, fd] = parts(from);
  const [ty, tm, td] = parts(to);
  return Math.round((Date.UTC(ty, tm - 1, td) - Date.UTC(fy, fm - 1, fd)) / 86_400_000);
}

/** Compares calendar dates; negative when a is before b. */
export function compareDates(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The age shown read-only in forms: whole years from the birth date, in Manila. */
export function computeAge(birthDate: string | undefined | null): number | undefined {
  if (!birthDate || !isIsoDate(birthDate)) return undefined;
  const age = ageOn(birthDate);
  return age >= 0 ? age : undefined;
}

const dateTimeFormatter = new Intl.DateTimeFormat('en-PH', { timeZone: BUSINESS_TIME_ZONE, dateStyle: 'medium', timeStyle: 'short' });

/** An instant as the business reads it: date and time in Manila ("Nov 23, 2026, 1:05 PM"). */
export function formatManilaDateTime(iso: string | Date): string {
  return dateTimeFormatter.format(typeof iso === 'string' ? new Date(iso) : iso);
}

const businessDayFormatter = new Intl.DateTimeFormat('en-PH', { timeZone: 'UTC', dateStyle: 'medium' });

/** A business date "YYYY-MM-DD" (already a Manila date, e.g. a due date) as "Nov 24, 2026"; anything else as given. */
export function formatBusinessDate(date: string): string {
  return isIsoDate(date) ? businessDayFormatter.format(new Date(`${date}T00:00:00Z`)) : date;
}
