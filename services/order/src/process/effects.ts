import type { EntityManager } from '@mikro-orm/postgresql';
import { AssignSerialsReply, centsToString, type AssignSerialsRequest, type FieldError } from '@dme/contracts';
import { callRpc, HttpProblem, qualified, type NatsConnection, newId } from '@dme/platform';
import { fullPaymentTermsOf, lineLabel, normalizeSerial, type Caller, type Effect, type OrderFacts, type TransitionInput } from './facts';

/** What the effects need from outside the order service: the catalog's packing command. */
export interface ProcessDeps {
  nc: NatsConnection;
  subjects: { assignSerials: string };
}

export interface EffectContext {
  /** The transition's transaction: whatever an effect writes commits with the status change, or not at all. */
  em: EntityManager;
  order: OrderFacts;
  caller: Caller;
  input: TransitionInput;
  deps: ProcessDeps | undefined;
  now: Date;
}

/** What an effect adds to the status event. */
export interface EffectOutcome {
  /** FOR_FULL_PAYMENT: the damage or lost fees of the serials not returned OK. */
  extraCharge?: string;
  /** FOR_FULL_PAYMENT: the full payment's due date (Manila). */
  fullPaymentDue?: string;
  /** FOR_FULL_PAYMENT: what is left to pay (order total + extra charge − first payment). */
  balance?: string;
  /** FOR_FULL_PAYMENT (issue 29): the late fees within the extra charge, the deposit taken for the charges and what is refunded of it. */
  lateFees?: string;
  depositApplied?: string;
  depositRefund?: string;
  lateFeesWaived?: string;
}

export type EffectFn = (ctx: EffectContext) => Promise<EffectOutcome>;

/**
 * The catalog names a refused code by its place in the command (`lines.<i>.serialCodes.<j>`);
 * the client sent it as `packing.<k>.serialCodes.<j>` (its own order of lines, the same order of
 * codes within a line).
 */
function packingField(e: FieldError, request: AssignSerialsRequest, input: TransitionInput): FieldError {
  const m = /^lines\.(\d+)(\..*)?$/.exec(e.field);
  const lineId = m ? request.lines[Number(m[1])]?.lineId : undefined;
  const k = lineId === undefined ? -1 : (input.packing ?? []).findIndex((p) => p.lineID === lineId);
  return k < 0 ? e : { ...e, field: `packing.${k}${m![2] ?? ''}` };
}

/**
 * The effects of the process table, one function per effect the table can name: a row naming an
 * effect that has no function here does not compile. Each runs in the transition's transaction,
 * before the status changes; the status event (`dme.order.status_changed`) is recorded after it.
 */
export const EFFECTS: { [E in Effect]: EffectFn } = {
  /**
   * PENDING → FOR_PAYMENT: nothing to write here. The status event is what makes the payment
   * payable: the payment service opens the order's payment when it sees the order move to
   * FOR_PAYMENT.
   */
  'payment-ready': async () => ({}),

  /**
   * PREPARING → TO_SHIP: the catalog assigns the scanned serial codes (AVAILABLE → RENTED or SOLD,
   * inventory OUT) and consumes the order's reservation, in one transaction of its own
   * (RPC.assignSerials, request/reply: staff wait for it); then the serials are recorded per line
   * here, in the transition's transaction, with the stock item and the bin each was packed from.
   * The codes are the request's `packing`, or the ones saved while scanning (process/packing.ts).
   * Its compensation is forward, not an undo: if this transaction fails after the catalog answered,
   * the order stays PREPARING with its codes kept, and packing again sends the same codes, which
   * the catalog answers the same (a retry there); packing.test.ts fails the write to show it.
   */
  'assign-serials': async ({ em, order, caller, input, deps }) => {
    if (!deps) throw new Error('assign-serials: the catalog command is not configured');
    const byLine = new Map((input.packing ?? []).map((p) => [p.lineID, p.serialCodes.map(normalizeSerial)]));
    const request: AssignSerialsRequest = {
      orderId: order.id,
      orderType: order.type,
      // The packer, for the units' chain of custody (issue 26).
      by: caller.kind === 'person' ? { userId: caller.principal.userId, username: caller.principal.username } : null,
      lines: order.lines.map((l) => ({
        lineId: l.id,
        productID: l.productId,
        productVariantID: l.variantId,
        productSubVariantID: l.subVariantId,
        productName: lineLabel(l),
        quantity: l.quantity,
        serialCodes: byLine.get(l.id) ?? [],
      })),
    };
    let answer: unknown;
    try {
      answer = await callRpc(deps.nc, deps.subjects.assignSerials, request);
    } catch (err) {
      throw err instanceof HttpProblem && err.errors ? new HttpProblem(err.status, err.detail, err.errors.map((e) => packingField(e, request, input))) : err;
    }
    const reply = AssignSerialsReply.parse(answer);
    const rows = reply.lines.flatMap((l) =>
      l.serialCodes.map((s, position) => ({
        id: newId(),
        line_id: l.lineId,
        position,
        serial_code: s.serialCode,
        stock_item_id: s.stockItemId,
        warehouse_bin: s.warehouseBin,
      })),
    );
    await em.execute(
      `insert into ${qualified(em, 'order_line_serials')} (id, order_id, line_id, position, serial_code, stock_item_id, warehouse_bin)
       select r.id, ?, r.line_id, r.position, r.serial_code, r.stock_item_id, r.warehouse_bin
         from jsonb_to_recordset(?::jsonb) as r(id uuid, line_id uuid, position int, serial_code text, stock_item_id uuid, warehouse_bin text)`,
      [order.id, JSON.stringify(rows)],
    );
    return {};
  },

  /** TO_SHIP → OUT_FOR_DELIVERY and FOR_RETURN → FOR_PICK_UP: the driver who scanned the order takes it. */
  'record-driver': async ({ em, order, caller }) => {
    const driverId = caller.kind === 'person' ? caller.principal.userId : caller.by;
    // Taken by another driver than the one planned: the stop leaves the planned driver's order of stops.
    await em.execute(`update ${qualified(em, 'orders')} set stop_position = case when driver_id = ? then stop_position end, driver_id = ? where id = ?`, [
      driverId,
      driverId,
      order.id,
    ]);
    return {};
  },

  /**
   * OUT_FOR_DELIVERY → TO_SHIP (issue 28: the delivery failed at the door) and DELIVERED →
   * FOR_RETURN (the pick-up is a new trip): the order waits for a driver again.
   */
  'release-driver': async ({ em, order }) => {
    await em.execute(`update ${qualified(em, 'orders')} set driver_id = null, driver_day = null, stop_position = null where id = ?`, [order.id]);
    return {};
  },

  /** OUT_FOR_DELIVERY → DELIVERED: the delivered time, from which each rental line's due date counts. */
  delivered: async ({ em, order, now }) => {
    await em.execute(`update ${qualified(em, 'orders')} set delivered_at = ? where id = ?`, [now, order.id]);
    return {};
  },

  /**
   * FOR_PICK_UP → FOR_FULL_PAYMENT: the terms of contracts `fullPaymentTerms` (DESIGN §5): the
   * extra charge is the damage or lost fee of every serial returned LOST or DAMAGED, the balance
   * total + extra − the first payment, due the Manila day after it is asked for. The three travel
   * in the status event (the payment service and reporting keep them, not recompute them) and the
   * extra charge and due date stay on the order for its display.
   */
  'full-payment-due': async ({ em, order, now }) => {
    const terms = fullPaymentTermsOf(order, now);
    const extraCharge = centsToString(terms.extraCents);
    const lateFees = centsToString(terms.lateFeeCents);
    const depositApplied = centsToString(terms.depositAppliedCents);
    const depositRefund = centsToString(terms.depositRefundCents);
    await em.execute(
      `update ${qualified(em, 'orders')} set extra_charge = ?, full_payment_due = ?::date, late_fees = ?, deposit_applied = ?, deposit_refund = ? where id = ?`,
      [extraCharge, terms.dueDate, lateFees, depositApplied, depositRefund, order.id],
    );
    return {
      extraCharge,
      fullPaymentDue: terms.dueDate,
      balance: centsToString(terms.balanceCents),
      lateFees,
      depositApplied,
      depositRefund,
      lateFeesWaived: centsToString(terms.lateFeeWaivedCents),
    };
  },

  /** → CANCELLED: nothing to write here; the catalog releases the reservation when it sees the status event. */
  'release-reservation': async () => ({}),
};
