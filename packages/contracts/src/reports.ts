import { z } from 'zod';
import { queryInt } from './text';
import { daysBetween, isIsoDate } from './time';
import { EXPORT_STATUSES, MAX_REPORT_DAYS, REPORT_MESSAGES, REPORT_NAMES, type ReportName } from './report-labels';

/**
 * Reports (SPEC §2 Reports screen, §3 sales report rows, §9 totals; issue 11): five reports over a
 * range of Asia/Manila calendar days, built by the reporting service from events only.
 *
 * What counts (docs/decisions.md "Reporting"):
 * - purchased-sales: purchase lines of orders paid in full (FULL payment) on a day of the range,
 *   one row per product / variant / sub-variant and unit price.
 * - rental-sales: rental lines of orders whose first (partial) payment was taken on a day of the
 *   range, cancelled orders never; totalBalance is what is still owed on them (0 once paid).
 * - purchased-invoice: one row per payment of a purchase taken on a day of the range.
 * - rental-partial-invoice: one row per first (partial) payment of a rental taken in the range,
 *   with the order total and the balance after it.
 * - rental-unpaid-invoice: rentals asked for their full payment (FOR_FULL_PAYMENT, with extra
 *   charges) on a day of the range and not paid yet.
 * Overall sales = purchased + rental sales; overall invoice = purchased invoices + unpaid rental
 * balances + the balances of partial invoices whose rental is not yet asked for its full payment.
 */

const day = z.string({ error: REPORT_MESSAGES.badDate }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: REPORT_MESSAGES.badDate }).refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
  error: REPORT_MESSAGES.badDate,
});

/** A range of Manila calendar days, both included. */
export const ReportRange = z
  .object({ from: day, to: day })
  .refine((r) => r.from <= r.to, { error: REPORT_MESSAGES.range, path: ['to'] })
  .refine((r) => !isIsoDate(r.from) || !isIsoDate(r.to) || daysBetween(r.from, r.to) < MAX_REPORT_DAYS, { error: REPORT_MESSAGES.tooLong, path: ['to'] });
export type ReportRange = z.infer<typeof ReportRange>;

export const ReportParams = z.object({ report: z.enum(REPORT_NAMES, { error: REPORT_MESSAGES.unknownReport }) });

export const ReportQuery = z
  .object({
    from: day,
    to: day,
    limit: queryInt(1, 500).default(50),
    offset: queryInt(0, 999_999_999).default(0),
  })
  .refine((r) => r.from <= r.to, { error: REPORT_MESSAGES.range, path: ['to'] })
  .refine((r) => !isIsoDate(r.from) || !isIsoDate(r.to) || daysBetween(r.from, r.to) < MAX_REPORT_DAYS, { error: REPORT_MESSAGES.tooLong, path: ['to'] });

const money = z.string();

/** SPEC §3 sales report rows. */
export const PurchasedSalesRow = z.object({
  brand: z.string(),
  name: z.string(),
  totalQuantity: z.number().int(),
  /** Unit price. */
  productAmount: money,
  totalSales: money,
});
export const RentalSalesRow = z.object({
  brand: z.string(),
  name: z.string(),
  totalQuantity: z.number().int(),
  /** Unit price per day. */
  productAmount: money,
  /** Sum over the lines of quantity × rental days. */
  totalRentalDays: z.number().int(),
  totalAmount: money,
  totalPartialPayments: money,
  totalBalance: money,
});
/** A payment of a purchase. */
export const PurchasedInvoiceRow = z.object({
  invoiceNumber: z.string(),
  receiptNumber: z.string(),
  orderNumber: z.string(),
  customerName: z.string(),
  /** Manila date of the payment (YYYY-MM-DD). */
  paidOn: z.string(),
  amount: money,
});
/** A rental's first (partial) payment. */
export const RentalPartialInvoiceRow = z.object({
  invoiceNumber: z.string(),
  receiptNumber: z.string(),
  orderNumber: z.string(),
  customerName: z.string(),
  paidOn: z.string(),
  orderTotal: money,
  partialPayment: money,
  /** Order total − partial payment (what the rental still owes, before extra charges). */
  balance: money,
  /** The rental's payment status now: INITIAL_PAYMENT, FOR_FULL_PAYMENT or PAID. */
  paymentStatus: z.string(),
});
/** A rental asked for its full payment and not paid yet. */
export const RentalUnpaidInvoiceRow = z.object({
  orderNumber: z.string(),
  customerName: z.string(),
  /** Manila date the full payment was asked for, and the date it is due. */
  askedOn: z.string(),
  dueDate: z.string().nullable(),
  orderTotal: money,
  partialPayment: money,
  extraCharge: money,
  /** Order total − partial + extra. */
  balance: money,
});

/**
 * Issue 29, the rental money reports (docs/decisions.md "Rental money reports"):
 * - deposits-held: one row per rental deposit taken (with the first payment) on a day of the
 *   range, with what became of it: applied to the charges at the return, to refund, and still held
 *   (the whole deposit until the rental is asked for its full payment; 0 once settled or cancelled).
 * - late-fees: one row per rental whose late fees were settled (asked for its full payment) on a
 *   day of the range: the late fees counted, the part staff waived, and the part charged.
 * - refunds: one row per refund paid back (recorded by accounting) on a day of the range.
 * - receivables-ageing: as of the range's last day, every rental asked for its full payment by
 *   then and not paid by then (never a cancelled one), its balance in one bucket of days past its
 *   due date (AGEING_BUCKETS). A receivable asked before the range counts on the range's first day
 *   in the day chart.
 */
export const DepositsHeldRow = z.object({
  orderNumber: z.string(),
  customerName: z.string(),
  /** Manila date of the first payment that took it. */
  takenOn: z.string(),
  deposit: money,
  /** Taken for the damage, lost and late fees at the return. */
  applied: money,
  /** The rest, refunded (or to refund) to the customer. */
  refund: money,
  held: money,
});
export const LateFeesRow = z.object({
  orderNumber: z.string(),
  customerName: z.string(),
  /** Manila date the rental was asked for its full payment (the late fees settled). */
  settledOn: z.string(),
  /** Late fees counted to the day each unit came back, before waivers. */
  lateFees: money,
  waived: money,
  charged: money,
});
export const RefundsRow = z.object({
  refundNumber: z.string(),
  orderNumber: z.string(),
  customerName: z.string(),
  /** The refund's reason and how it was paid back, as labels. */
  reason: z.string(),
  method: z.string(),
  refundedOn: z.string(),
  amount: money,
});
export const ReceivablesAgeingRow = z.object({
  orderNumber: z.string(),
  customerName: z.string(),
  askedOn: z.string(),
  dueDate: z.string(),
  /** Manila days past the due date on the range's last day (0: not yet due). */
  daysOverdue: z.number().int(),
  /** The balance in the bucket its days overdue fall in, "0.00" in the others. */
  current: money,
  days1to30: money,
  days31to60: money,
  days61to90: money,
  over90: money,
  balance: money,
});

/** The range's totals of all five reports and the overall figures (SPEC §9). */
export const ReportTotals = z.object({
  purchasedSales: money,
  rentalSales: money,
  /** purchasedSales + rentalSales. */
  overallSales: money,
  purchasedInvoice: money,
  rentalUnpaidInvoice: money,
  /** Sum of the balances of partial invoices whose rental is still in INITIAL_PAYMENT. */
  rentalPartialBalance: money,
  /** purchasedInvoice + rentalUnpaidInvoice + rentalPartialBalance. */
  overallInvoice: money,
});
export type ReportTotals = z.infer<typeof ReportTotals>;

/** For the charts: the report's money per Manila day of the range, and its top five rows by money. */
export const ReportChart = z.object({
  byDay: z.array(z.object({ day: z.string(), amount: money })),
  top: z.array(z.object({ name: z.string(), amount: money })),
});

const page = <T extends z.ZodType, R extends ReportName>(report: R, row: T) =>
  z.object({
    report: z.literal(report),
    from: z.string(),
    to: z.string(),
    rows: z.array(row),
    /** Rows in the whole range (paging). */
    total: z.number().int(),
    /** This report's total money over the whole range (not just the page). */
    sum: money,
    totals: ReportTotals,
    chart: ReportChart,
  });

export const ReportResponse = z.discriminatedUnion('report', [
  page('purchased-sales', PurchasedSalesRow),
  page('rental-sales', RentalSalesRow),
  page('purchased-invoice', PurchasedInvoiceRow),
  page('rental-unpaid-invoice', RentalUnpaidInvoiceRow),
  page('rental-partial-invoice', RentalPartialInvoiceRow),
  page('deposits-held', DepositsHeldRow),
  page('late-fees', LateFeesRow),
  page('refunds', RefundsRow),
  page('receivables-ageing', ReceivablesAgeingRow),
]);
export type ReportResponse = z.infer<typeof ReportResponse>;

// ---- Excel export as a job

export const ReportExport = z.object({
  id: z.string().uuid(),
  report: z.enum(REPORT_NAMES),
  from: z.string(),
  to: z.string(),
  status: z.enum(EXPORT_STATUSES),
  /** Rows written so far, of rowsTotal. */
  rowsWritten: z.number().int(),
  rowsTotal: z.number().int(),
  /** 0-100. */
  progress: z.number().int(),
  fileName: z.string(),
  createdAt: z.string(),
});
export type ReportExport = z.infer<typeof ReportExport>;
export const ReportExportResponse = z.object({ export: ReportExport });
export const ExportParams = z.object({ id: z.string().uuid({ error: 'Not found.' }) });
