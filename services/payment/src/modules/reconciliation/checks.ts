import { balanceCents, centsToString, sumCents, type Cents, type PaymentType, type ReconciliationCheck, type RefundKind, type RefundStatus } from '@dme/contracts';
import type { Figures } from '../payments/payment.rules';

/**
 * The daily reconciliation's checks (issue 29), pure: one payment's records (charges) and refunds
 * against what its terms say was owed, paid, held and given back. Each way money could be charged
 * twice, not charged, charged a different amount, or kept is one check; a payment that passes them
 * all gives no finding. The expected figures come from the payment rules and the terms module
 * (`balanceCents`), never from a second formula.
 */

export interface ChargeFact {
  type: PaymentType;
  amount: Cents;
  deposit: Cents;
  /** A CYCLE charge's cycle number (issue 29). */
  cycle: number | null;
}

export interface RefundFact {
  kind: RefundKind;
  amount: Cents;
  status: RefundStatus;
}

export interface Finding {
  check: ReconciliationCheck;
  expected: string;
  actual: string;
  detail: string;
}

const money = (c: Cents) => centsToString(c);
const TAKEN_LABEL: Record<PaymentType, string> = { PARTIAL: 'First payment', FULL: 'Full payment', CYCLE: 'Cycle payment', BUYOUT: 'Buy-out' };

/** What the payment's status says was taken: a rental's first payment, then its full payment; a purchase's one payment. */
function chargesTheStatusNeeds(f: Figures): PaymentType[] {
  switch (f.status) {
    case 'PENDING':
    case 'CANCELLED':
    case 'REFUND_DUE':
    case 'REFUNDED':
      return [];
    case 'PAID':
      // Issue 29: a rent-to-own rental that became the customer's: bought out, or by its last cycle.
      if (f.orderType === 'RENT' && f.owned) return f.type === 'BUYOUT' ? ['PARTIAL', 'BUYOUT'] : ['PARTIAL', 'CYCLE'];
      return f.orderType === 'RENT' ? ['PARTIAL', 'FULL'] : ['FULL'];
    default:
      return ['PARTIAL'];
  }
}

export function reconcile(f: Figures, charges: readonly ChargeFact[], refunds: readonly RefundFact[]): Finding[] {
  const out: Finding[] = [];
  const rent = f.orderType === 'RENT';
  const ofType = (t: PaymentType) => charges.filter((c) => c.type === t);

  // Charged exactly once per kind of payment.
  for (const t of ['PARTIAL', 'FULL', 'BUYOUT'] as const) {
    const n = ofType(t).length;
    if (n > 1) out.push({ check: 'DUPLICATE_CHARGE', expected: '1', actual: String(n), detail: `${TAKEN_LABEL[t]} recorded ${n} times` });
  }
  for (const t of chargesTheStatusNeeds(f)) {
    if (ofType(t).length === 0) out.push({ check: 'MISSING_CHARGE', expected: '1', actual: '0', detail: `${TAKEN_LABEL[t]} not recorded for a ${f.status} payment` });
  }
  if ((f.status === 'REFUND_DUE' || f.status === 'REFUNDED') && charges.length === 0) {
    out.push({ check: 'MISSING_CHARGE', expected: '1', actual: '0', detail: `A ${f.status} payment with no payment recorded` });
  }
  if ((f.status === 'PENDING' || f.status === 'CANCELLED') && charges.length > 0) {
    out.push({ check: 'DUPLICATE_CHARGE', expected: '0', actual: String(charges.length), detail: `A payment recorded on a ${f.status} payment` });
  }

  // Billing cycles (issue 29): each cycle charged once, only on a rental billed by cycles, the last one paid on record, never beyond the rent.
  const cycles = ofType('CYCLE');
  const cycleRent = sumCents(cycles.map((c) => c.amount));
  if (cycles.length > 0 && f.billing !== 'CYCLES') {
    out.push({ check: 'DUPLICATE_CHARGE', expected: '0', actual: String(cycles.length), detail: 'Cycle payments on a rental not billed by cycles' });
  }
  const numbers = cycles.map((c) => c.cycle ?? 0);
  for (const n of new Set(numbers)) {
    const times = numbers.filter((x) => x === n).length;
    if (times > 1) out.push({ check: 'DUPLICATE_CHARGE', expected: '1', actual: String(times), detail: `Cycle ${n} payment recorded ${times} times` });
  }
  const lastRecorded = numbers.reduce((m, n) => Math.max(m, n), 0);
  if (lastRecorded !== f.lastCycle) {
    out.push({ check: 'MISSING_CHARGE', expected: String(f.lastCycle), actual: String(lastRecorded), detail: 'Last cycle paid on the payment against its records' });
  }
  if (ofType('BUYOUT').length > 0 && !f.owned) {
    out.push({ check: 'DUPLICATE_CHARGE', expected: '0', actual: String(ofType('BUYOUT').length), detail: 'A buy-out on a rental that is not the customer\'s' });
  }
  if (f.owned && ofType('FULL').length > 0) {
    out.push({ check: 'DUPLICATE_CHARGE', expected: '0', actual: String(ofType('FULL').length), detail: 'A full payment on a rental the customer owns' });
  }
  if (rent && (f.partial ?? 0) + cycleRent > f.total) {
    out.push({ check: 'WRONG_AMOUNT', expected: money(f.total), actual: money((f.partial ?? 0) + cycleRent), detail: 'First payment and cycle payments beyond the rent' });
  }

  // Each charge the amount its terms say.
  const [first] = ofType('PARTIAL');
  if (rent && first && ofType('PARTIAL').length === 1) {
    const expected = (f.partial ?? 0) + f.deposit;
    if (first.amount !== expected) out.push({ check: 'WRONG_AMOUNT', expected: money(expected), actual: money(first.amount), detail: 'First payment: the first day and the deposit' });
  }
  const [full] = ofType('FULL');
  if (full && ofType('FULL').length === 1) {
    const expected = rent ? balanceCents({ totalCents: f.total, paidCents: (f.partial ?? 0) + cycleRent + (f.depositApplied ?? 0), extraCents: f.extraCharge }) : f.total;
    const what = rent ? 'Full payment: the rent left (after the first and cycle payments) and the charges, less the deposit applied' : 'Payment of the order total';
    if (full.amount !== expected) out.push({ check: 'WRONG_AMOUNT', expected: money(expected), actual: money(full.amount), detail: what });
  }

  // What the payment says was paid is what its records add up to; once paid, that is what is owed.
  const recorded = sumCents(charges.map((c) => c.amount));
  if (recorded !== f.paid) out.push({ check: 'PAID_TOTAL', expected: money(f.paid), actual: money(recorded), detail: 'Paid on the payment against its records' });
  // A rental the customer owns ends its rent with what was paid (nothing owed beyond it); its deposit is checked below.
  if (f.status === 'PAID' && !f.owned) {
    const owed = f.total + (f.extraCharge ?? 0);
    const kept = recorded - (rent ? (f.depositRefund ?? 0) : 0);
    if (kept !== owed) out.push({ check: 'PAID_TOTAL', expected: money(owed), actual: money(kept), detail: 'Paid (less the deposit to refund) against the order total and its charges' });
  }

  // The deposit: held once the first payment took it, and settled whole at the return.
  if (rent) {
    const held = first ? f.deposit : 0;
    if (f.depositHeld !== held) out.push({ check: 'DEPOSIT_HELD', expected: money(held), actual: money(f.depositHeld), detail: 'Deposit held against the deposit taken' });
    if (f.depositApplied !== null && f.depositApplied + (f.depositRefund ?? 0) !== f.depositHeld) {
      out.push({ check: 'DEPOSIT_SETTLEMENT', expected: money(f.depositHeld), actual: money(f.depositApplied + (f.depositRefund ?? 0)), detail: 'Deposit applied plus deposit refunded' });
    }
  }

  // What is owed back has its refund, once, of that amount.
  const cancelled = f.status === 'REFUND_DUE' || f.status === 'REFUNDED';
  const owedBack: Array<[RefundKind, Cents]> = [
    ['CANCELLED', cancelled ? f.paid : 0],
    ['DEPOSIT', rent && !cancelled && f.depositApplied !== null ? (f.depositRefund ?? 0) : 0],
  ];
  for (const [kind, amount] of owedBack) {
    const found = refunds.filter((r) => r.kind === kind);
    const label = kind === 'DEPOSIT' ? 'Deposit refund' : 'Refund of a cancelled order';
    if (amount === 0 && found.length > 0) out.push({ check: 'REFUND', expected: '0.00', actual: money(sumCents(found.map((r) => r.amount))), detail: `${label} not owed` });
    else if (amount > 0 && found.length !== 1) out.push({ check: 'REFUND', expected: '1', actual: String(found.length), detail: `${label}: one refund owed` });
    else if (amount > 0 && found[0]!.amount !== amount) out.push({ check: 'REFUND', expected: money(amount), actual: money(found[0]!.amount), detail: label });
  }
  if (f.status === 'REFUNDED' && refunds.some((r) => r.kind === 'CANCELLED' && r.status !== 'REFUNDED')) {
    out.push({ check: 'REFUND', expected: 'REFUNDED', actual: 'DUE', detail: 'A REFUNDED payment whose refund is not paid back' });
  }
  return out;
}
