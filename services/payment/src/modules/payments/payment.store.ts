import { billingCycles, centsToString, cycleLines, cycleDue, manilaDate, orderBuyOut, rentalCycles, sumCents, toCents, type Billing, type Cents, type Cycle, type OrderStatus, type Payment, type PaymentRecord, type PaymentRefund, type PaymentStatus, type PaymentType } from '@dme/contracts';
import { qualified, sql, type Db } from '@dme/platform';
import { buyOutNow, creditedCents, dueNow, nextAction, OWNABLE, refundDue, type Figures, type OrderKind } from './payment.rules';

/**
 * Rows of the payment schema and their conversions (numeric columns are read as text, dates as
 * "YYYY-MM-DD" text, so no value goes through a float or a local-time Date).
 */

export interface PaymentRow {
  id: string;
  order_id: string;
  order_number: string;
  order_type: OrderKind;
  order_status: OrderStatus;
  customer_id: string;
  customer_name: string;
  customer: { name: string; email: string; contactNumber: string } | null;
  delivery: { address: string; city: string; state: string; zipcode: string } | null;
  lines: Payment['lines'];
  status: PaymentStatus;
  type: PaymentType | null;
  total_order_payment: string;
  total_partial_payment: string | null;
  extra_charge: string | null;
  overall_total: string | null;
  balance: string;
  amount_paid: string;
  due_date: string | null;
  deposit: string;
  deposit_held: string;
  late_fees: string | null;
  deposit_applied: string | null;
  deposit_refund: string | null;
  /** The rental's changes of days (issue 29), oldest first. */
  extensions: Payment['extensions'];
  /** Billing cycles (issue 29). */
  billing: Billing;
  delivered_on: string | null;
  last_cycle: number;
  /** Rent-to-own (issue 29): the rental became the customer's. */
  owned: boolean;
  /** The sum of the refunds still due (read by the list only). */
  refunds_due?: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface RecordRow {
  id: string;
  payment_id: string;
  type: PaymentType;
  invoice_number: string;
  receipt_number: string;
  note: string;
  amount: string;
  accommodated_by: string;
  accommodated_by_name: string;
  total_partial_payment: string | null;
  extra_charge: string | null;
  overall_total: string | null;
  balance: string;
  due_date: string | null;
  /** The deposit within the amount (issue 29). */
  deposit: string;
  /** A CYCLE record's cycle number (issue 29). */
  cycle: number | null;
  created_at: Date;
}

/** The columns of a payment as PaymentRow reads them (`p` is the payments table). */
export const PAYMENT_COLUMNS = `p.id, p.order_id, p.order_number, p.order_type, p.order_status, p.customer_id, p.customer_name,
  p.customer, p.delivery, p.lines, p.status, p.type, p.total_order_payment::text as total_order_payment,
  p.total_partial_payment::text as total_partial_payment, p.extra_charge::text as extra_charge,
  p.overall_total::text as overall_total, p.balance::text as balance, p.amount_paid::text as amount_paid,
  p.due_date::text as due_date, p.deposit::text as deposit, p.deposit_held::text as deposit_held, p.late_fees::text as late_fees,
  p.deposit_applied::text as deposit_applied, p.deposit_refund::text as deposit_refund, p.extensions, p.version, p.created_at, p.updated_at,
  p.billing, p.delivered_on::text as delivered_on, p.last_cycle, p.owned`;

const RECORD_COLUMNS = `r.id, r.payment_id, r.type, r.invoice_number, r.receipt_number, r.note, r.amount::text as amount,
  r.accommodated_by, r.accommodated_by_name, r.total_partial_payment::text as total_partial_payment,
  r.extra_charge::text as extra_charge, r.overall_total::text as overall_total, r.balance::text as balance,
  r.due_date::text as due_date, r.deposit::text as deposit, r.cycle, r.created_at`;

export const money = (cents: Cents | null): string | null => (cents === null ? null : centsToString(cents));
export const cents = (value: string | null): Cents | null => (value === null ? null : toCents(value));

/**
 * A rental's billing cycles from its delivery (issue 29, rental-money `billingCycles`): its lines'
 * days at their rent of a day (unit price × quantity); none before delivery or on UPFRONT billing.
 */
export function cyclesOf(row: Pick<PaymentRow, 'billing' | 'delivered_on' | 'lines'>): Cycle[] {
  if (row.billing !== 'CYCLES' || row.delivered_on === null) return [];
  return billingCycles(row.delivered_on, cycleLines(row.lines));
}

/** A payment row's figures; the cycle due is as of `today` (a Manila date). */
export function figuresOf(row: PaymentRow, today: string = manilaDate()): Figures {
  const base = figuresWithoutCycle(row);
  const due = cycleDue(cyclesOf(row), { lastCycle: base.lastCycle, rentPaidCents: creditedCents(base), today });
  // Rent-to-own (issue 29): what buying it out takes now, and whether the cycle due makes it the customer's (while out with them).
  const own = base.billing === 'CYCLES' && base.deliveredOn !== null ? orderBuyOut(row.lines, base.lastCycle) : null;
  const owns = due !== null && OWNABLE.includes(base.orderStatus) && (orderBuyOut(row.lines, due.cycle.n)?.owned ?? false);
  return { ...base, cycleDue: due && { n: due.cycle.n, cents: due.cents, owns }, buyOut: own && !own.owned ? own.cents : null };
}

function figuresWithoutCycle(row: PaymentRow): Figures {
  return {
    orderType: row.order_type,
    orderStatus: row.order_status,
    status: row.status,
    type: row.type,
    total: toCents(row.total_order_payment),
    partial: cents(row.total_partial_payment),
    extraCharge: cents(row.extra_charge),
    overallTotal: cents(row.overall_total),
    balance: toCents(row.balance),
    paid: toCents(row.amount_paid),
    dueDate: row.due_date,
    deposit: toCents(row.deposit ?? '0'),
    depositHeld: toCents(row.deposit_held ?? '0'),
    lateFees: cents(row.late_fees ?? null),
    depositApplied: cents(row.deposit_applied ?? null),
    depositRefund: cents(row.deposit_refund ?? null),
    billing: row.billing ?? 'UPFRONT',
    deliveredOn: row.delivered_on ?? null,
    lastCycle: row.last_cycle ?? 0,
    cycleDue: null,
    buyOut: null,
    owned: row.owned ?? false,
  };
}

/** Writes a payment's figures (in the caller's transaction); `bumpVersion` when an event tells of it. */
export async function saveFigures(db: Db, id: string, f: Figures, bumpVersion = false): Promise<void> {
  await sql(
    db,
    `update ${qualified(db, 'payments')} set order_status = $2, status = $3, type = $4, total_partial_payment = $5, extra_charge = $6,
            overall_total = $7, balance = $8, amount_paid = $9, due_date = $10::date, version = version + $11, updated_at = now(),
            deposit = $12, deposit_held = $13, late_fees = $14, deposit_applied = $15, deposit_refund = $16,
            delivered_on = $17::date, last_cycle = $18, owned = $19
      where id = $1`,
    [
      id,
      f.orderStatus,
      f.status,
      f.type,
      money(f.partial),
      money(f.extraCharge),
      money(f.overallTotal),
      money(f.balance),
      money(f.paid),
      f.dueDate,
      bumpVersion ? 1 : 0,
      money(f.deposit),
      money(f.depositHeld),
      money(f.lateFees),
      money(f.depositApplied),
      money(f.depositRefund),
      f.deliveredOn,
      f.lastCycle,
      f.owned,
    ],
  );
}

export function summaryOf(row: PaymentRow) {
  const f = figuresOf(row);
  return {
    id: row.id,
    orderID: row.order_id,
    orderNumber: row.order_number,
    orderType: row.order_type,
    orderStatus: row.order_status,
    customerID: row.customer_id,
    customerName: row.customer_name,
    status: row.status,
    type: row.type,
    totalOrderPayment: centsToString(f.total),
    totalPartialPayment: money(f.partial),
    balance: centsToString(f.balance),
    nextAction: nextAction(f),
    refundDue: money(refundDue(f)),
    dueNow: money(dueNow(f)),
    refundsDue: row.refunds_due ? centsToString(toCents(row.refunds_due)) : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function recordOf(r: RecordRow): PaymentRecord {
  return {
    id: r.id,
    type: r.type,
    invoiceNumber: r.invoice_number,
    receiptNumber: r.receipt_number,
    note: r.note,
    amount: centsToString(toCents(r.amount)),
    accommodatedBy: r.accommodated_by,
    accommodatedByName: r.accommodated_by_name,
    createdAt: new Date(r.created_at).toISOString(),
    cycle: r.cycle ?? null,
  };
}

export function paymentOf(row: PaymentRow, records: RecordRow[], refunds: PaymentRefund[] = []): Payment {
  const f = figuresOf(row);
  // The rent the first and cycle payments took (their deposit apart): what the cycles count as paid (a buy-out or a full payment pays no cycle).
  const cycleRentPaid = sumCents(records.filter((r) => r.type === 'PARTIAL' || r.type === 'CYCLE').map((r) => toCents(r.amount) - toCents(r.deposit ?? '0')));
  const due = refunds.filter((r) => r.status === 'DUE');
  return {
    ...summaryOf(row),
    refundsDue: due.length ? centsToString(sumCents(due.map((r) => toCents(r.amount)))) : null,
    customer: row.customer,
    delivery: row.delivery,
    lines: row.lines,
    extraCharge: money(f.extraCharge),
    overallTotal: money(f.overallTotal),
    dueDate: f.dueDate,
    records: records.map(recordOf),
    deposit: centsToString(f.deposit),
    depositHeld: centsToString(f.depositHeld),
    lateFees: money(f.lateFees),
    depositApplied: money(f.depositApplied),
    depositRefund: money(f.depositRefund),
    refunds,
    extensions: row.extensions ?? [],
    billing: f.billing,
    deliveredOn: f.deliveredOn,
    buyOutNow: money(buyOutNow(f)),
    cycles:
      f.billing === 'CYCLES' && f.deliveredOn !== null
        ? // Cycles are billed while the rental is out on its first payment; after that (back, owned, cancelled) an unpaid one is closed.
          rentalCycles(f.deliveredOn, row.lines, { lastCycle: f.lastCycle, rentPaidCents: cycleRentPaid, closed: f.status !== 'INITIAL_PAYMENT' }, manilaDate())
        : [],
  };
}

/** One payment row by a column (`id` or `order_id`), locked for update when asked; optionally one customer's only. */
export async function findPayment(db: Db, by: 'id' | 'order_id', value: string, opts: { customerId?: string; lock?: boolean } = {}): Promise<PaymentRow | undefined> {
  const scope = opts.customerId ? ' and p.customer_id = $2' : '';
  const [row] = await sql<PaymentRow>(
    db,
    `select ${PAYMENT_COLUMNS} from ${qualified(db, 'payments')} p where p.${by} = $1${scope}${opts.lock ? ' for update' : ''}`,
    opts.customerId ? [value, opts.customerId] : [value],
  );
  return row;
}

/** A payment's records, oldest first. */
export function recordsOf(db: Db, paymentId: string): Promise<RecordRow[]> {
  return sql<RecordRow>(db, `select ${RECORD_COLUMNS} from ${qualified(db, 'payment_records')} r where r.payment_id = $1 order by r.seq`, [paymentId]);
}
