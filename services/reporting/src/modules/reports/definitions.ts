import { AGEING_BUCKETS, REFUND_KIND_LABELS, REFUND_METHOD_LABELS, type ReportName } from '@dme/contracts';

/*
 * What each report counts (packages/contracts/src/reports.ts, docs/decisions.md "Reporting"), as
 * SQL over the read models. A report is two layers:
 * - `base`: the facts it counts, one row each, with `_day` (the Manila day that puts the fact in
 *   the range) and `_money` (its money) for the day chart and the report's sum;
 * - `rows`: the report's rows (the base grouped, for the sales reports), with the contract's
 *   fields (money already as text with two decimals), `_money` and `_label` for the top five,
 *   and the sort keys `order` names (a total order, so pages and exports are stable).
 * A range of Manila days [from, to] is the instants [from 00:00, to + 1 00:00) in Manila.
 */

/** SQL expressions of the range's first and last day (parameters, or checked date literals). */
export interface RangeSql {
  from: string;
  to: string;
}

export interface Tables {
  orders: string;
  lines: string;
  payments: string;
  products: string;
  refunds: string;
}

/** How a column is written to Excel. */
export type ColumnKind = 'text' | 'int' | 'money' | 'date';

export interface ReportColumn {
  key: string;
  header: string;
  kind: ColumnKind;
  width: number;
  /** Not summed in the totals row (a unit price). */
  noTotal?: true;
}

export interface ReportDef {
  base: (t: Tables, r: RangeSql) => string;
  rows: (t: Tables) => string;
  /** The rows' total order (columns of `rows`). */
  order: string;
  /** The contract fields holding money (normalized to "0.00" form). */
  money: readonly string[];
  /** The field whose sum is the report's `sum` (the money of `_money`). */
  moneyField: string;
  columns: readonly ReportColumn[];
  /**
   * Kept per day (report_day_sums, report_day_groups: see days.ts) unless false: the report's facts
   * of a day depend on that day only. Receivables ageing is as of the range's last day (its
   * facts and their days depend on the range), so it is computed from its base on every request.
   */
  perDay?: false;
  /** The sales reports: their rows are the base grouped by SALES_GROUP (so their day groups add up). */
  grouped?: true;
  /** An extra sum of the base kept per day for the overall totals (reportTotals). */
  totalsExtra?: string;
}

const lo = (r: RangeSql) => `((${r.from})::date::timestamp at time zone 'Asia/Manila')`;
const hi = (r: RangeSql) => `(((${r.to})::date + 1)::timestamp at time zone 'Asia/Manila')`;
/** The Manila day of an instant (DESIGN §5): the day a fact counts on. */
export const manilaDay = (col: string) => `(${col} at time zone 'Asia/Manila')::date`;
const day = manilaDay;

/**
 * A sales report's facts: its order lines, each with its quantity, money, rental days (quantity ×
 * days), partial payment and balance (0 for purchases), so both sales reports' facts have the same
 * columns and sums of sums are sums (SALES_GROUP).
 */
const salesLines = (t: Tables, r: RangeSql, paidCol: string, where: string, money: { partial: string; balance: string }) => `select l.product_id,
    l.variant_id, l.sub_variant_id, l.unit_price, l.quantity, l.product_name, l.variant_name, l.sub_variant_name,
    l.quantity * coalesce(l.no_of_rental_days, 0) as _rental_days, ${money.partial} as partial, ${money.balance} as balance,
    ${day(`o.${paidCol}`)} as _day, l.line_total as _money
  from ${t.orders} o join ${t.lines} l on l.order_id = o.id
  where ${where} and o.${paidCol} >= ${lo(r)} and o.${paidCol} < ${hi(r)}`;

/**
 * How the sales reports group their facts: the keys (product / variant / sub-variant and unit
 * price), the names (the first by name), and the sums. A day's groups (report_day_groups) have the
 * same columns as the facts, so the same grouping over days' groups gives the range's groups.
 */
export const SALES_GROUP = {
  keys: ['product_id', 'variant_id', 'sub_variant_id', 'unit_price'],
  names: ['product_name', 'variant_name', 'sub_variant_name'],
  sums: ['quantity', '_money', '_rental_days', 'partial', 'balance'],
} as const;

/** Groups of product / variant / sub-variant and unit price, with the product's brand. */
const salesGroups = (t: Tables, fields: string) => `select coalesce(p.brand, '') as brand, g.name, ${fields},
    g._money, g.name as _label, g.unit_price as _price, g.product_id as _p, g.variant_id as _v, g.sub_variant_id as _s
  from (select ${SALES_GROUP.keys.map((k) => `b.${k}`).join(', ')},
          concat_ws(' / ', ${SALES_GROUP.names.map((k) => `min(b.${k})`).join(', ')}) as name,
          sum(b.quantity)::int as "totalQuantity", sum(b._money) as _money, sum(b._rental_days)::int as "totalRentalDays",
          sum(b.partial) as partial, sum(b.balance) as balance
        from base b group by ${SALES_GROUP.keys.map((k) => `b.${k}`).join(', ')}) g
  left join ${t.products} p on p.id = g.product_id`;

const SALES_ORDER = 'name, _price, _p, _v nulls first, _s nulls first';

const invoiceColumns = () => `py.invoice_number as "invoiceNumber", py.receipt_number as "receiptNumber",
    coalesce(nullif(py.order_number, ''), o.order_number, '') as "orderNumber", coalesce(o.customer_name, '') as "customerName",
    ${day('py.confirmed_at')}::text as "paidOn", ${day('py.confirmed_at')} as _day, py.confirmed_at as _at, py.payment_id as _id,
    concat_ws(' · ', coalesce(nullif(py.order_number, ''), o.order_number, ''), nullif(coalesce(o.customer_name, ''), '')) as _label`;
const invoiceFrom = (t: Tables) => `from ${t.payments} py left join ${t.orders} o on o.id = py.order_id`;

const rentalTotal = 'coalesce(o.total_amount, py.amount + py.balance_after)';

/** The columns most reports start with. */
const ORDER_NUMBER_COLUMN: ReportColumn = { key: 'orderNumber', header: 'Order Number', kind: 'text', width: 22 };
const CUSTOMER_COLUMN: ReportColumn = { key: 'customerName', header: 'Customer', kind: 'text', width: 28 };
/** A report whose rows are its facts as they are, in the time they happened (ties: by id). */
const ONE_ROW_PER_FACT = { rows: () => 'select * from base', order: '_at, _id' } as const;

/** A code column shown by its label (the labels are the contracts', inlined as SQL literals). */
const labelOf = (col: string, labels: Record<string, string>) =>
  `(case ${col} ${Object.entries(labels)
    .map(([k, v]) => `when '${k.replaceAll("'", "''")}' then '${v.replaceAll("'", "''")}'`)
    .join(' ')} else ${col} end)`;

/** A rental not cancelled (a cancelled one's money is refunded whole, never held or owed). */
const notCancelled = `coalesce(o.status, '') <> 'CANCELLED'`;

/** Receivables ageing: Manila days past the due date on the range's last day (0 while not due). */
const daysOverdue = (r: RangeSql) => `greatest((${r.to})::date - coalesce(o.full_due_date, ${day('o.full_asked_at')} + 1), 0)`;

/** Each bucket's column: the balance when the days overdue fall in it, else 0. */
const ageingColumns = (r: RangeSql) =>
  AGEING_BUCKETS.map((b, i) => {
    const above = i === 0 ? null : AGEING_BUCKETS[i - 1]!.maxDays;
    const cond = [above === null ? null : `${daysOverdue(r)} > ${above}`, b.maxDays === null ? null : `${daysOverdue(r)} <= ${b.maxDays}`].filter(Boolean).join(' and ');
    return `(case when ${cond} then o.full_balance else 0 end)::text as "${b.key}"`;
  }).join(', ');

const orderLabel = `concat_ws(' · ', o.order_number, nullif(o.customer_name, ''))`;

export const REPORTS: Record<ReportName, ReportDef> = {
  /** Purchase lines of orders paid in full on a day of the range. */
  'purchased-sales': {
    base: (t, r) => salesLines(t, r, 'full_paid_at', `o.type = 'BUY' and o.status <> 'CANCELLED'`, { partial: '0', balance: '0' }),
    rows: (t) => salesGroups(t, `g."totalQuantity", g.unit_price::text as "productAmount", g._money::text as "totalSales"`),
    grouped: true,
    order: SALES_ORDER,
    money: ['productAmount', 'totalSales'],
    moneyField: 'totalSales',
    columns: [
      { key: 'brand', header: 'Brand', kind: 'text', width: 20 },
      { key: 'name', header: 'Name', kind: 'text', width: 44 },
      { key: 'totalQuantity', header: 'Total Quantity', kind: 'int', width: 15 },
      { key: 'productAmount', header: 'Product Amount', kind: 'money', width: 16, noTotal: true },
      { key: 'totalSales', header: 'Total Sales', kind: 'money', width: 16 },
    ],
  },
  /**
   * Rental lines of orders whose first (partial) payment was taken on a day of the range, never a
   * cancelled one. Partial payment of a line = its first day (stored at insert, terms
   * `firstDayCents`); its balance = line total − that, until the rental is paid in full (then 0).
   * Extra charges are the order's, not a line's: they are in the unpaid invoice report.
   */
  'rental-sales': {
    base: (t, r) =>
      salesLines(t, r, 'first_paid_at', `o.type = 'RENT' and o.status <> 'CANCELLED'`, {
        partial: 'l.first_day',
        balance: 'case when o.full_paid_at is null then l.line_total - l.first_day else 0 end',
      }),
    rows: (t) =>
      salesGroups(
        t,
        `g."totalQuantity", g.unit_price::text as "productAmount", g."totalRentalDays", g._money::text as "totalAmount",
         g.partial::text as "totalPartialPayments", g.balance::text as "totalBalance"`,
      ),
    grouped: true,
    order: SALES_ORDER,
    money: ['productAmount', 'totalAmount', 'totalPartialPayments', 'totalBalance'],
    moneyField: 'totalAmount',
    columns: [
      { key: 'brand', header: 'Brand', kind: 'text', width: 20 },
      { key: 'name', header: 'Name', kind: 'text', width: 44 },
      { key: 'totalQuantity', header: 'Total Quantity', kind: 'int', width: 15 },
      { key: 'productAmount', header: 'Product Amount (per day)', kind: 'money', width: 22, noTotal: true },
      { key: 'totalRentalDays', header: 'Total Rental Days', kind: 'int', width: 18 },
      { key: 'totalAmount', header: 'Total Amount', kind: 'money', width: 16 },
      { key: 'totalPartialPayments', header: 'Total Partial Payments', kind: 'money', width: 22 },
      { key: 'totalBalance', header: 'Total Balance', kind: 'money', width: 16 },
    ],
  },
  /** One row per payment of a purchase taken on a day of the range. */
  'purchased-invoice': {
    base: (t, r) => `select ${invoiceColumns()}, py.amount::text as amount, py.amount as _money
      ${invoiceFrom(t)}
      where py.order_type = 'BUY' and py.type = 'FULL' and py.confirmed_at >= ${lo(r)} and py.confirmed_at < ${hi(r)}`,
    ...ONE_ROW_PER_FACT,
    money: ['amount'],
    moneyField: 'amount',
    columns: [
      { key: 'invoiceNumber', header: 'Invoice Number', kind: 'text', width: 18 },
      { key: 'receiptNumber', header: 'Receipt Number', kind: 'text', width: 18 },
      ORDER_NUMBER_COLUMN,
      CUSTOMER_COLUMN,
      { key: 'paidOn', header: 'Paid On', kind: 'date', width: 14 },
      { key: 'amount', header: 'Amount', kind: 'money', width: 16 },
    ],
  },
  /** Rentals asked for their full payment on a day of the range and not paid yet (never cancelled ones). */
  'rental-unpaid-invoice': {
    base: (t, r) => `select o.order_number as "orderNumber", o.customer_name as "customerName", ${day('o.full_asked_at')}::text as "askedOn",
        o.full_due_date::text as "dueDate", o.total_amount::text as "orderTotal", coalesce(o.partial_payment, 0)::text as "partialPayment",
        coalesce(o.extra_charge, 0)::text as "extraCharge", o.full_balance::text as balance,
        ${day('o.full_asked_at')} as _day, o.full_balance as _money, o.full_asked_at as _at, o.id as _id,
        concat_ws(' · ', o.order_number, nullif(o.customer_name, '')) as _label
      from ${t.orders} o
      where o.type = 'RENT' and o.full_paid_at is null and o.status <> 'CANCELLED'
        and o.full_asked_at >= ${lo(r)} and o.full_asked_at < ${hi(r)}`,
    ...ONE_ROW_PER_FACT,
    money: ['orderTotal', 'partialPayment', 'extraCharge', 'balance'],
    moneyField: 'balance',
    columns: [
      ORDER_NUMBER_COLUMN,
      CUSTOMER_COLUMN,
      { key: 'askedOn', header: 'Asked On', kind: 'date', width: 14 },
      { key: 'dueDate', header: 'Due Date', kind: 'date', width: 14 },
      { key: 'orderTotal', header: 'Order Total', kind: 'money', width: 16 },
      { key: 'partialPayment', header: 'Partial Payment', kind: 'money', width: 16 },
      { key: 'extraCharge', header: 'Extra Charge', kind: 'money', width: 16 },
      { key: 'balance', header: 'Balance', kind: 'money', width: 16 },
    ],
  },
  /** One row per first (partial) payment of a rental taken on a day of the range; its money is the payment. */
  'rental-partial-invoice': {
    base: (t, r) => `select ${invoiceColumns()}, ${rentalTotal}::text as "orderTotal", py.amount::text as "partialPayment",
        py.balance_after::text as balance, coalesce(o.payment_status, py.status_after) as "paymentStatus",
        py.amount as _money, py.balance_after as _balance
      ${invoiceFrom(t)}
      where py.order_type = 'RENT' and py.type = 'PARTIAL' and py.confirmed_at >= ${lo(r)} and py.confirmed_at < ${hi(r)}`,
    ...ONE_ROW_PER_FACT,
    money: ['orderTotal', 'partialPayment', 'balance'],
    moneyField: 'partialPayment',
    // The overall invoice counts the balances of rentals not asked for their full payment yet.
    totalsExtra: `sum(_balance) filter (where "paymentStatus" = 'INITIAL_PAYMENT')`,
    columns: [
      { key: 'invoiceNumber', header: 'Invoice Number', kind: 'text', width: 18 },
      { key: 'receiptNumber', header: 'Receipt Number', kind: 'text', width: 18 },
      ORDER_NUMBER_COLUMN,
      CUSTOMER_COLUMN,
      { key: 'paidOn', header: 'Paid On', kind: 'date', width: 14 },
      { key: 'orderTotal', header: 'Order Total', kind: 'money', width: 16 },
      { key: 'partialPayment', header: 'Partial Payment', kind: 'money', width: 16 },
      { key: 'balance', header: 'Balance', kind: 'money', width: 16 },
      { key: 'paymentStatus', header: 'Payment Status', kind: 'text', width: 18 },
    ],
  },
  /**
   * Issue 29: one row per rental deposit taken with a first payment on a day of the range, with
   * its settlement at the return; held = the whole deposit until the rental is asked for its full
   * payment (0 once settled, or cancelled: then refunded with the payment). Its money is what is held.
   */
  'deposits-held': {
    base: (t, r) => `select x.*, x._held as _money, x._held::text as held from (
        select coalesce(nullif(py.order_number, ''), o.order_number, '') as "orderNumber", coalesce(o.customer_name, '') as "customerName",
          ${day('py.confirmed_at')}::text as "takenOn", py.deposit::text as deposit,
          (case when o.full_asked_at is not null and ${notCancelled} then coalesce(o.deposit_applied, 0) else 0 end)::text as applied,
          (case when not (${notCancelled}) then py.deposit else coalesce(o.deposit_refund, 0) end)::text as refund,
          (case when o.full_asked_at is null and ${notCancelled} then py.deposit else 0 end) as _held,
          ${day('py.confirmed_at')} as _day, py.confirmed_at as _at, py.payment_id as _id,
          concat_ws(' · ', coalesce(nullif(py.order_number, ''), o.order_number, ''), nullif(coalesce(o.customer_name, ''), '')) as _label
        ${invoiceFrom(t)}
        where py.order_type = 'RENT' and py.type = 'PARTIAL' and py.deposit > 0 and py.confirmed_at >= ${lo(r)} and py.confirmed_at < ${hi(r)}) x`,
    ...ONE_ROW_PER_FACT,
    money: ['deposit', 'applied', 'refund', 'held'],
    moneyField: 'held',
    columns: [
      ORDER_NUMBER_COLUMN,
      CUSTOMER_COLUMN,
      { key: 'takenOn', header: 'Taken On', kind: 'date', width: 14 },
      { key: 'deposit', header: 'Deposit', kind: 'money', width: 16 },
      { key: 'applied', header: 'Applied to Charges', kind: 'money', width: 20 },
      { key: 'refund', header: 'Refund', kind: 'money', width: 16 },
      { key: 'held', header: 'Held', kind: 'money', width: 16 },
    ],
  },
  /** Issue 29: one row per rental whose late fees were settled (full payment asked) on a day of the range; its money is what was charged. */
  'late-fees': {
    base: (t, r) => `select o.order_number as "orderNumber", o.customer_name as "customerName", ${day('o.full_asked_at')}::text as "settledOn",
        (coalesce(o.late_fees, 0) + coalesce(o.late_fees_waived, 0))::text as "lateFees", coalesce(o.late_fees_waived, 0)::text as waived,
        coalesce(o.late_fees, 0)::text as charged,
        ${day('o.full_asked_at')} as _day, coalesce(o.late_fees, 0) as _money, o.full_asked_at as _at, o.id as _id, ${orderLabel} as _label
      from ${t.orders} o
      where o.type = 'RENT' and ${notCancelled} and o.full_asked_at >= ${lo(r)} and o.full_asked_at < ${hi(r)}
        and (coalesce(o.late_fees, 0) > 0 or coalesce(o.late_fees_waived, 0) > 0)`,
    ...ONE_ROW_PER_FACT,
    money: ['lateFees', 'waived', 'charged'],
    moneyField: 'charged',
    columns: [
      ORDER_NUMBER_COLUMN,
      CUSTOMER_COLUMN,
      { key: 'settledOn', header: 'Settled On', kind: 'date', width: 14 },
      { key: 'lateFees', header: 'Late Fees', kind: 'money', width: 16 },
      { key: 'waived', header: 'Waived', kind: 'money', width: 16 },
      { key: 'charged', header: 'Charged', kind: 'money', width: 16 },
    ],
  },
  /** Issue 29: one row per refund paid back (recorded by accounting) on a day of the range. */
  refunds: {
    base: (t, r) => `select rf.number as "refundNumber", rf.order_number as "orderNumber", coalesce(o.customer_name, '') as "customerName",
        ${labelOf('rf.kind', REFUND_KIND_LABELS)} as reason, ${labelOf('rf.method', REFUND_METHOD_LABELS)} as method,
        ${day('rf.refunded_at')}::text as "refundedOn", rf.amount::text as amount,
        ${day('rf.refunded_at')} as _day, rf.amount as _money, rf.refunded_at as _at, rf.refund_id as _id,
        concat_ws(' · ', rf.number, rf.order_number) as _label
      from ${t.refunds} rf left join ${t.orders} o on o.id = rf.order_id
      where rf.refunded_at >= ${lo(r)} and rf.refunded_at < ${hi(r)}`,
    ...ONE_ROW_PER_FACT,
    money: ['amount'],
    moneyField: 'amount',
    columns: [
      { key: 'refundNumber', header: 'Refund Number', kind: 'text', width: 22 },
      ORDER_NUMBER_COLUMN,
      CUSTOMER_COLUMN,
      { key: 'reason', header: 'Reason', kind: 'text', width: 28 },
      { key: 'method', header: 'Method', kind: 'text', width: 16 },
      { key: 'refundedOn', header: 'Refunded On', kind: 'date', width: 14 },
      { key: 'amount', header: 'Amount', kind: 'money', width: 16 },
    ],
  },
  /**
   * Issue 29: as of the range's last day, each rental asked for its full payment by then and not
   * paid by then, its balance in the bucket of its days past due; one asked before the range
   * counts on the range's first day in the day chart.
   */
  'receivables-ageing': {
    base: (t, r) => `select o.order_number as "orderNumber", o.customer_name as "customerName", ${day('o.full_asked_at')}::text as "askedOn",
        coalesce(o.full_due_date, ${day('o.full_asked_at')} + 1)::text as "dueDate", ${daysOverdue(r)}::int as "daysOverdue", ${ageingColumns(r)},
        o.full_balance::text as balance,
        greatest(${day('o.full_asked_at')}, (${r.from})::date) as _day, o.full_balance as _money, o.full_asked_at as _at, o.id as _id, ${orderLabel} as _label
      from ${t.orders} o
      where o.type = 'RENT' and ${notCancelled} and o.full_balance > 0
        -- Asked by then and not paid by then: the rentals not paid yet, and those paid after the range (two index walks, not every rental asked).
        and o.id in (select a.id from ${t.orders} a where a.type = 'RENT' and a.full_paid_at is null and a.full_asked_at < ${hi(r)}
                     union all select a.id from ${t.orders} a where a.type = 'RENT' and a.full_paid_at >= ${hi(r)} and a.full_asked_at < ${hi(r)})`,
    ...ONE_ROW_PER_FACT,
    money: ['current', 'days1to30', 'days31to60', 'days61to90', 'over90', 'balance'],
    moneyField: 'balance',
    perDay: false,
    columns: [
      ORDER_NUMBER_COLUMN,
      CUSTOMER_COLUMN,
      { key: 'askedOn', header: 'Asked On', kind: 'date', width: 14 },
      { key: 'dueDate', header: 'Due Date', kind: 'date', width: 14 },
      { key: 'daysOverdue', header: 'Days Overdue', kind: 'int', width: 14, noTotal: true },
      ...AGEING_BUCKETS.map((b) => ({ key: b.key, header: b.header, kind: 'money' as const, width: 16 })),
      { key: 'balance', header: 'Balance', kind: 'money', width: 16 },
    ],
  },
};

/** The report's rows in their total order, as one query (`with base, rows`). */
export function rowsQuery(def: ReportDef, t: Tables, r: RangeSql): string {
  return `with base as materialized (${def.base(t, r)}), rows as (${def.rows(t)}) select * from rows order by ${def.order}`;
}
