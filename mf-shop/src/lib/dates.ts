const dayFormatter = new Intl.DateTimeFormat('en-PH', { timeZone: 'UTC', dateStyle: 'medium' });

/** A business date "YYYY-MM-DD" (already a Manila date, e.g. a due date) as "Nov 24, 2026". */
export function formatBusinessDate(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : dayFormatter.format(d);
}
