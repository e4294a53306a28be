/**
 * The report names, labels, file names and texts (SPEC §2 Reports screen, §9; issue 11), kept free
 * of zod on purpose: the accounting app's reports screen imports them, and a module with schemas
 * would bring zod along, whose `new Function` probe breaks the CSP (no 'unsafe-eval'; issue 13).
 * The schemas in reports.ts use these same constants (what each report counts: reports.ts).
 */

export const REPORT_NAMES = ['purchased-sales', 'rental-sales', 'purchased-invoice', 'rental-unpaid-invoice', 'rental-partial-invoice'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

export const REPORT_LABELS: Record<ReportName, string> = {
  'purchased-sales': 'Purchased Sales',
  'rental-sales': 'Rental Sales',
  'purchased-invoice': 'Purchased Invoice',
  'rental-unpaid-invoice': 'Rental Unpaid Invoice',
  'rental-partial-invoice': 'Rental Partial Invoice',
};

/** Excel file per report (SPEC §9 names the rental one FOR_RENT_PRODUCT_REPORTS). */
export const REPORT_FILE_NAMES: Record<ReportName, string> = {
  'purchased-sales': 'FOR_SALE_PRODUCT_REPORTS.xlsx',
  'rental-sales': 'FOR_RENT_PRODUCT_REPORTS.xlsx',
  'purchased-invoice': 'PURCHASED_INVOICE_REPORTS.xlsx',
  'rental-unpaid-invoice': 'RENTAL_UNPAID_INVOICE_REPORTS.xlsx',
  'rental-partial-invoice': 'RENTAL_PARTIAL_INVOICE_REPORTS.xlsx',
};

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
