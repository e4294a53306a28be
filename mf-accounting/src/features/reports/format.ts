import { addDays, formatBusinessDate, isIsoDate, manilaDate, REPORT_NAMES, toCents } from '@dme/contracts/browser';
import { money as formatAmount } from '@dme/ui';
import type { ReportName, ReportRange } from '@dme/contracts';

export const PAGE_SIZE = 50;

/** "1234.5" → "$1,234.50"; a malformed amount is shown as it came rather than breaking the page. */
export function money(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  try {
    return formatAmount(value);
  } catch {
    return value;
  }
}

/** A wire amount as integer cents for the charts (0 when malformed). */
export function cents(value: string): number {
  try {
    return toCents(value);
  } catch {
    return 0;
  }
}

/** Integer cents as "$1,234.50" (chart axes and tooltips). */
export const moneyCents = (c: number) => formatAmount(Math.round(c));

const shortDayFormatter = new Intl.DateTimeFormat('en-PH', { timeZone: 'UTC', month: 'short', day: 'numeric' });

/** A business date "YYYY-MM-DD" (already a Manila date) as "Nov 24, 2026". */
export function formatDay(date: string | null | undefined): string {
  return date ? formatBusinessDate(date) : '—';
}

/** "2026-11-03" → "Nov 3" (chart axis). */
export function formatShortDay(date: string): string {
  return isIsoDate(date) ? shortDayFormatter.format(new Date(`${date}T00:00:00Z`)) : date;
}

/** This month so far on the Manila calendar: the first of the month to today. */
export function monthSoFar(now: Date = new Date()): ReportRange {
  const today = manilaDate(now);
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/** Quick choices next to the range picker, all on the Manila calendar. */
export function rangePresets(now: Date = new Date()): Array<{ label: string; range: ReportRange }> {
  const today = manilaDate(now);
  const firstOfMonth = `${today.slice(0, 8)}01`;
  const lastMonthEnd = addDays(firstOfMonth, -1);
  return [
    { label: 'This month', range: { from: firstOfMonth, to: today } },
    { label: 'Last month', range: { from: `${lastMonthEnd.slice(0, 8)}01`, to: lastMonthEnd } },
    { label: 'Last 7 days', range: { from: addDays(today, -6), to: today } },
    { label: 'Last 30 days', range: { from: addDays(today, -29), to: today } },
    { label: 'This year', range: { from: `${today.slice(0, 4)}-01-01`, to: today } },
  ];
}

export interface ReportsView extends ReportRange {
  report: ReportName;
  page: number;
}

/**
 * What the screen shows, read from the address (?report=&from=&to=&page=) so a reload or a shared
 * link keeps it. A missing or malformed date falls back to this month so far; a range the server
 * refuses (start after end, too long) is sent as it is and its message shown.
 */
export function readView(search: string, now: Date = new Date()): ReportsView {
  const q = new URLSearchParams(search);
  const name = q.get('report');
  const report = (REPORT_NAMES as readonly string[]).includes(name ?? '') ? (name as ReportName) : REPORT_NAMES[0];
  const from = q.get('from') ?? '';
  const to = q.get('to') ?? '';
  const range = isIsoDate(from) && isIsoDate(to) ? { from, to } : monthSoFar(now);
  const page = Number.parseInt(q.get('page') ?? '1', 10);
  return { report, ...range, page: Number.isSafeInteger(page) && page > 0 ? page : 1 };
}

export function viewSearch(v: ReportsView): string {
  const q = new URLSearchParams({ report: v.report, from: v.from, to: v.to });
  if (v.page > 1) q.set('page', String(v.page));
  return `?${q}`;
}
