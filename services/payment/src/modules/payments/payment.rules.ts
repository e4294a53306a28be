import {
  balanceCents,
  fullPaymentDueDate,
  manilaDate,
  ORDER_STATUSES,
  type Billing,
  paymentMove,
  type Cents,
  type OrderStatus,
  type PaymentAction,
  type PaymentStatus,
  type PaymentType,
  type RefundKind,
} from '@dme/contracts';

export { invoiceFileName } from '@dme/contracts';

/**
 * The payment's rules (SPEC §4 Payment statuses, DESIGN §5 money), pure: what can be taken now,
 * what taking it changes, and what the order's status events do to a payment. Amounts in cents.
 */

export type OrderKind = 'BUY' | 'RENT';

/** A payment's figures, in cents. */
export interface Figures {
  orderType: OrderKind;
  orderStatus: OrderStatus;
  status: PaymentStatus;
  type: PaymentType | null;
  total: Cents;
  partial: Cents | null;
  extraCharge: Cents | null;
  overallTotal: Cents | null;
  balance: Cents;
  /** What the payment's records add up to (a deposit taken included). */
  paid: Cents;
  dueDate: string | null;
  /** A rental's deposit (issue 29): asked with its first payment, held once that is taken. */
  deposit: Cents;
  depositHeld: Cents;
  /** At the full payment: the late fees within the extra charge, the deposit taken for the charges and what is refunded of it. */
  lateFees: Cents | null;
  depositApplied: Cents | null;
  depositRefund: Cents | null;
  /** How the rent is billed (issue 29); CYCLES: from the day it was delivered, the last cycle paid, and the cycle to take now (rental-money `cycleDue`, as of today). */
  billing: Billing;
  deliveredOn: string | null;
  lastCycle: number;
  /** `owns`: paying this cycle makes a rent-to-own rental the customer's (rental-money `orderBuyOut`). */
  cycleDue: { n: number; cents: Cents; owns?: boolean } | null;
  /** Rent-to-own (issue 29): what buying the rental out takes now (null: not offered), and whether it became the customer's. */
  buyOut: Cents | null;
  owned: boolean;
}

/** While a rental is out (delivered, and until it is back), its cycle payments can be taken (issue 29). */
const CYCLE_PAYABLE: readonly OrderStatus[] = ['DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP'];

/**
 * What counts against the rent and the charges: what was paid, less the deposit held (it is the
 * customer's until the return), plus the part of it taken for the charges at the return.
 */
export function creditedCents(p: Pick<Figures, 'paid' | 'depositHeld' | 'depositApplied'>): Cents {
  return p.paid - p.depositHeld + (p.depositApplied ?? 0);
}

/**
 * What confirming does now, or null when nothing can be taken (order not confirmed yet, paid,
 * cancelled). A rental billed by cycles takes the cycle due while it is out (issue 29); what is
 * left of the cycles when it is back comes with the full payment.
 */
export function nextAction(p: Pick<Figures, 'orderType' | 'orderStatus' | 'status' | 'cycleDue'>): PaymentAction | null {
  if (p.status === 'PENDING' && p.orderStatus === 'FOR_PAYMENT') return p.orderType === 'BUY' ? 'MARK_AS_PAID' : 'PAY_PARTIAL';
  if (p.orderType === 'RENT' && p.status === 'FOR_FULL_PAYMENT' && p.orderStatus === 'FOR_FULL_PAYMENT') return 'COMPLETE_PAYMENT';
  if (p.orderType === 'RENT' && p.status === 'INITIAL_PAYMENT' && CYCLE_PAYABLE.includes(p.orderStatus) && p.cycleDue) return 'PAY_CYCLE';
  return null;
}

/**
 * Why nothing can be taken now, as a 409's text: the order was cancelled (as far as the payment
 * knows: its copy of the order status, fed by order events), or it is not waiting for a payment.
 * Null when something can be taken.
 */
export function notPayableReason(p: Pick<Figures, 'orderType' | 'orderStatus' | 'status' | 'cycleDue'>): 'orderCancelled' | 'notPayable' | null {
  if (nextAction(p)) return null;
  return p.orderStatus === 'CANCELLED' || p.status === 'CANCELLED' ? 'orderCancelled' : 'notPayable';
}

/** REFUND_DUE: what was paid and is owed back; null for any other status. */
export function refundDue(p: Pick<Figures, 'status' | 'paid'>): Cents | null {
  return p.status === 'REFUND_DUE' ? p.paid : null;
}

/** A new payment: PENDING, nothing paid, the whole order total still to pay; a rental's deposit asked with its first payment. */
export function opening(orderType: OrderKind, total: Cents, partial: Cents | null, deposit: Cents = 0): Figures {
  return {
    orderType,
    orderStatus: 'PENDING',
    status: 'PENDING',
    type: null,
    total,
    partial: orderType === 'RENT' ? partial : null,
    extraCharge: null,
    overallTotal: null,
    balance: total,
    paid: 0,
    dueDate: null,
    deposit: orderType === 'RENT' ? deposit : 0,
    depositHeld: 0,
    lateFees: null,
    depositApplied: null,
    depositRefund: null,
    billing: 'UPFRONT',
    deliveredOn: null,
    lastCycle: 0,
    cycleDue: null,
    buyOut: null,
    owned: false,
  };
}

/** One payment taken: the record's amount and the payment's figures after it. */
export interface Confirmation {
  action: PaymentAction;
  amount: Cents;
  /** The deposit within the amount (a rental's first payment). */
  deposit: Cents;
  /** A cycle payment's number (issue 29); null otherwise. */
  cycle: number | null;
  after: Figures;
}

/** What confirming takes now (the accounting screen shows it before), or null when nothing can be taken. */
export function dueNow(p: Figures): Cents | null {
  return figuresAfter(p)?.amount ?? null;
}

/** The order statuses in which a rent-to-own rental can become the customer's: out with them (issue 29). */
export const OWNABLE: readonly OrderStatus[] = ['DELIVERED', 'FOR_RETURN'];

/** A rent-to-own rental can be bought out while it is out and not past due (issue 29): delivered, its first payment taken, not the customer's yet. */
export function buyOutNow(p: Pick<Figures, 'orderType' | 'orderStatus' | 'status' | 'buyOut' | 'owned'>): Cents | null {
  if (p.orderType !== 'RENT' || p.status !== 'INITIAL_PAYMENT' || p.owned || p.buyOut === null) return null;
  return p.orderStatus === 'DELIVERED' ? p.buyOut : null;
}

/**
 * The rental becomes the customer's (issue 29): paid, nothing more owed (its rent ends with what
 * was paid: nothing is prorated), its deposit refunded whole.
 */
function owning(p: Figures): Figures {
  return { ...p, status: 'PAID', owned: true, balance: 0, overallTotal: creditedCents({ ...p, depositApplied: 0 }), depositApplied: 0, depositRefund: p.depositHeld, lateFees: null, extraCharge: null };
}

/** Takes the buy-out of a rent-to-own rental (BUY_OUT, issue 29): PAID, BUYOUT, the rental the customer's. Null when it cannot be bought out now. */
export function confirmBuyOut(p: Figures): Confirmation | null {
  const amount = buyOutNow(p);
  if (amount === null) return null;
  const after = owning({ ...p, type: 'BUYOUT', paid: p.paid + amount });
  paymentMove(p.status, after.status, { by: 'staff', action: 'BUY_OUT' });
  return { action: 'BUY_OUT', amount, deposit: 0, cycle: null, after };
}

/**
 * Takes the payment due now (SPEC §4): a purchase in full (PAID, FULL, overall total = order
 * total); a rental's first day and its deposit (issue 29; INITIAL_PAYMENT, PARTIAL, overall total
 * 0, balance = total − partial, the deposit held); a rental's balance (PAID, FULL, amount =
 * balance); a rental's cycle due (issue 29; PAY_CYCLE, CYCLE, the status stays). Null when nothing can be taken.
 * The status change is a row of the payment process (contracts PAYMENT_PROCESS) or throws.
 */
export function confirm(p: Figures): Confirmation | null {
  const c = figuresAfter(p);
  if (c) paymentMove(p.status, c.after.status, { by: 'staff', action: c.action });
  return c;
}

function figuresAfter(p: Figures): Confirmation | null {
  const action = nextAction(p);
  switch (action) {
    case 'MARK_AS_PAID':
      return {
        action,
        amount: p.total,
        deposit: 0,
        cycle: null,
        after: { ...p, status: 'PAID', type: 'FULL', overallTotal: p.total, balance: 0, paid: p.paid + p.total },
      };
    case 'PAY_PARTIAL': {
      const partial = p.partial ?? 0;
      const held = { ...p, paid: p.paid + partial + p.deposit, depositHeld: p.depositHeld + p.deposit };
      return {
        action,
        amount: partial + p.deposit,
        deposit: p.deposit,
        cycle: null,
        after: { ...held, status: 'INITIAL_PAYMENT', type: 'PARTIAL', partial, overallTotal: 0, balance: balanceCents({ totalCents: p.total, paidCents: creditedCents(held) }) },
      };
    }
    case 'COMPLETE_PAYMENT':
      return {
        action,
        amount: p.balance,
        deposit: 0,
        cycle: null,
        after: { ...p, status: 'PAID', type: 'FULL', balance: 0, paid: p.paid + p.balance },
      };
    case 'PAY_CYCLE': {
      // Issue 29: the cycle due (rental-money `cycleDue`: the rent through its end less the rent paid); the status stays INITIAL_PAYMENT.
      const due = p.cycleDue!;
      const paid = { ...p, type: 'CYCLE' as const, paid: p.paid + due.cents, lastCycle: due.n, cycleDue: null };
      // The cycle that makes a rent-to-own rental the customer's ends its rent (issue 29).
      if (due.owns) return { action, amount: due.cents, deposit: 0, cycle: due.n, after: owning(paid) };
      return { action, amount: due.cents, deposit: 0, cycle: due.n, after: { ...paid, balance: balanceCents({ totalCents: p.total, paidCents: creditedCents(paid), extraCents: p.extraCharge }) } };
    }
    default:
      return null;
  }
}

/**
 * What an order status event does to its payment: the order's status is kept (FOR_PAYMENT makes
 * the payment payable); CANCELLED cancels a payment nothing was paid on, and makes a payment
 * something was paid on REFUND_DUE (taken while the order was being cancelled: the order stays
 * cancelled, its stock released, and the money is owed back; issue 22); FOR_FULL_PAYMENT (a
 * rental after its return) asks for the rest: extra charge, overall total = extra + order total,
 * balance = order total + extra − paid (terms `balanceCents`), due on the date the order event
 * carries (older events: terms `fullPaymentDueDate` of its time). The status change is a row of
 * the payment process (contracts PAYMENT_PROCESS) or throws.
 */
export function onOrderStatus(
  p: Figures,
  to: OrderStatus,
  extraCharge: Cents | null,
  at: Date,
  dueDate: string | null = null,
  settlement: Settlement | null = null,
  from: OrderStatus | null = null,
): Figures {
  const next = { ...afterOrderStatus(p, to, extraCharge, dueDate ?? fullPaymentDueDate(at), settlement), orderStatus: orderStatusAfter(p.orderStatus, from, to) };
  // Issue 29: a rental's cycles count from the day it was delivered (its Manila date; a redelivered event keeps the first).
  if (to === 'DELIVERED' && p.orderType === 'RENT' && p.deliveredOn === null) next.deliveredOn = manilaDate(at);
  paymentMove(p.status, next.status, { by: 'order', status: to });
  return next;
}

/**
 * The order status a payment keeps after an order's status event: the event's `to` when it
 * follows the status kept (its `from`: a failed delivery goes back to TO_SHIP this way), or when
 * it is further along the process (ORDER_STATUSES' order, CANCELLED last). Two replicas may
 * handle an order's quick steps (TO_SHIP, OUT_FOR_DELIVERY, DELIVERED) side by side and commit
 * them out of order; an older step handled late does not take the status back. Without `from`
 * (older callers), the event's `to`.
 */
export function orderStatusAfter(kept: OrderStatus, from: OrderStatus | null, to: OrderStatus): OrderStatus {
  if (from === null || from === kept) return to;
  return ORDER_STATUSES.indexOf(to) > ORDER_STATUSES.indexOf(kept) ? to : kept;
}

/** What the order's step computed at the return (issue 29, contracts `fullPaymentTerms`): late fees and the deposit's settlement. */
export interface Settlement {
  lateFees: Cents;
  depositApplied: Cents;
  depositRefund: Cents;
}

/** Statuses whose figures no longer change: paid, cancelled, owed back or paid back. */
const SETTLED: readonly PaymentStatus[] = ['PAID', 'CANCELLED', 'REFUND_DUE', 'REFUNDED'];

function afterOrderStatus(p: Figures, to: OrderStatus, extraCharge: Cents | null, dueDate: string, settlement: Settlement | null): Figures {
  const next: Figures = { ...p, orderStatus: to };
  if (to === 'CANCELLED' && p.paid === 0 && (p.status === 'PENDING' || p.status === 'CANCELLED')) return { ...next, status: 'CANCELLED' };
  // Owed back, or already paid back (a redelivered cancellation changes nothing then).
  if (to === 'CANCELLED' && p.paid > 0) return { ...next, status: p.status === 'REFUNDED' ? 'REFUNDED' : 'REFUND_DUE' };
  if (to === 'FOR_FULL_PAYMENT' && p.orderType === 'RENT' && !SETTLED.includes(p.status)) {
    const extra = extraCharge ?? 0;
    // The order settles the deposit against the charges; an older event (no settlement) leaves the held deposit to refund whole.
    const settled = { ...next, lateFees: settlement?.lateFees ?? 0, depositApplied: settlement?.depositApplied ?? 0, depositRefund: settlement?.depositRefund ?? p.depositHeld };
    return {
      ...settled,
      status: 'FOR_FULL_PAYMENT',
      extraCharge: extra,
      overallTotal: extra + p.total,
      balance: balanceCents({ totalCents: p.total, paidCents: creditedCents(settled), extraCents: extra }),
      dueDate,
    };
  }
  return next;
}

/**
 * A rental got more days, or was ended early (issue 25): the order total the order service
 * re-priced replaces the payment's, and what is left to pay follows (terms `balanceCents`: total +
 * extra charge − paid), so the full payment asks for the days the rental has now (an early end
 * keeps at least the first day, which is what was paid first). A payment already settled or
 * cancelled keeps its figures.
 */
export function onExtended(f: Figures, total: Cents): Figures {
  if (SETTLED.includes(f.status)) return f;
  return { ...f, total, balance: balanceCents({ totalCents: total, paidCents: creditedCents(f), extraCents: f.extraCharge }) };
}

/**
 * A refund paid back (issue 29): a cancelled order's payment owed back is REFUNDED (a row of the
 * payment process); a deposit's rest refunded leaves its payment as it is.
 */
export function onRefundRecorded(p: Figures, kind: RefundKind): Figures {
  if (kind !== 'CANCELLED' || p.status !== 'REFUND_DUE') return p;
  return { ...p, status: paymentMove(p.status, 'REFUNDED', { by: 'refund' }) };
}
