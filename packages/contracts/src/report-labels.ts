/**
 * The report names, labels, file names and texts (SPEC §2 Reports screen, §9; issue 11), kept free
 * of zod on purpose: the accounting app's reports screen imports them, and a module with schemas
 * would bring zod along, whose `new Function` probe breaks the CSP (no 'unsafe-eval'; issue 13).
 * The schemas in reports.ts use these same constants (what each report counts: reports.ts).
 */

export const REPORT_NAMES = [
  'purchased-sales',
  'rental-sales',
  'purchased-invoice',
  'rental-unpaid-invoice',
  'rental-partial-invoice',
  // Issue 29: the rental money reports.
  'deposits-held',
  'late-fees',
  'refunds',
  'receivables-ageing',
] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

export const REPORT_LABELS: Record<ReportName, string> = {
  'purchased-sales': 'Purchased Sales',
  'rental-sales': 'Rental Sales',
  'purchased-invoice': 'Purchased Invoice',
  'rental-unpaid-invoice': 'Rental Unpaid Invoice',
  'rental-partial-invoice': 'Rental Partial Invoice',
  'deposits-held': 'Deposits Held',
  'late-fees': 'Late Fees',
  refunds: 'Refunds',
  'receivables-ageing': 'Receivables Ageing',
};

/** What a rental money report counts, said above its table (issue 29). */
export const REPORT_NOTES: Partial<Record<ReportName, string>> = {
  'deposits-held': 'Deposits taken with a first payment in this period: what was applied to charges at the return, refunded, and is still held.',
  'late-fees': 'Rentals whose late fees were settled at the return in this period: counted, waived by staff, and charged.',
  refunds: 'Refunds paid back to customers in this period.',
  'receivables-ageing': 'Full payments asked for and still unpaid on the last day of the period, by days past their due date.',
};

/** Excel file per report (SPEC §9 names the rental one FOR_RENT_PRODUCT_REPORTS). */
export const REPORT_FILE_NAMES: Record<ReportName, string> = {
  'purchased-sales': 'FOR_SALE_PRODUCT_REPORTS.xlsx',
  'rental-sales': 'FOR_RENT_PRODUCT_REPORTS.xlsx',
  'purchased-invoice': 'PURCHASED_INVOICE_REPORTS.xlsx',
  'rental-unpaid-invoice': 'RENTAL_UNPAID_INVOICE_REPORTS.xlsx',
  'rental-partial-invoice': 'RENTAL_PARTIAL_INVOICE_REPORTS.xlsx',
  'deposits-held': 'DEPOSITS_HELD_REPORTS.xlsx',
  'late-fees': 'LATE_FEES_REPORTS.xlsx',
  refunds: 'REFUNDS_REPORTS.xlsx',
  'receivables-ageing': 'RECEIVABLES_AGEING_REPORTS.xlsx',
};

/**
 * Receivables ageing (issue 29): a rental's unpaid full payment by how many Manila days past its
 * due date it is on the range's last day — not yet due (current), 1–30, 31–60, 61–90, over 90.
 * Each bucket's upper bound of days overdue (the last has none); one home for the report's SQL,
 * its columns and their headers.
 */
export const AGEING_BUCKETS = [
  { key: 'current', header: 'Current', maxDays: 0 },
  { key: 'days1to30', header: '1–30 Days', maxDays: 30 },
  { key: 'days31to60', header: '31–60 Days', maxDays: 60 },
  { key: 'days61to90', header: '61–90 Days', maxDays: 90 },
  { key: 'over90', header: 'Over 90 Days', maxDays: null },
] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number]['key'];

export const REPORT_MESSAGES = {
  badDate: 'Dates are written YYYY-MM-DD.',
  range: 'The start date must not be after the end date.',
  tooLong: 'A report covers at most 366 days.',
  unknownReport: 'Unknown report.',
  exportNotReady: 'This export is not finished yet.',
  exportFailed: 'This export failed. Please start it again.',
} as const;

export const MAX_REPORT_DAYS = 366;

// ---- Excel export as a job

export const EXPORT_STATUSES = ['RUNNING', 'DONE', 'FAILED'] as const;
