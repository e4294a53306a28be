import { HANDOVER_MESSAGES, isPastDue, lineDueDate, manilaDate, PACKING_MESSAGES, type FieldError } from '@dme/contracts';
import { lineLabel, no, normalizeSerial, YES, type Caller, type Guard, type OrderFacts, type TransitionInput, type Verdict } from './facts';

export interface GuardContext {
  order: OrderFacts;
  caller: Caller;
  /**
   * The request's input, or undefined when the process only asks whether the step could be taken
   * now (the actions an order lists): a guard then checks what it can without it.
   */
  input: TransitionInput | undefined;
  now: Date;
}

export type GuardFn = (ctx: GuardContext) => Verdict;

/** Texts of the guards where the spec is silent. */
export const GUARD_MESSAGES = {
  alreadyPacked: 'This order is already packed.',
  unknownLine: 'Unknown order line.',
  lineTwice: 'This order line is listed twice.',
  notTheDriver: 'Only the driver who has this order can hand it over.',
  notDelivered: 'This rental has not been delivered yet.',
  notPastDue: 'No product of this rental has reached its due date yet.',
  notReturned: 'Mark every serial code of this order as OK, damaged or lost first.',
} as const;


/** The caller is the driver who has the order (any driver when none has it yet); else 403. */
function sameDriver({ order, caller }: GuardContext): Verdict {
  if (caller.kind !== 'person') return no(403, GUARD_MESSAGES.notTheDriver);
  return order.driverId === null || caller.principal.userId === order.driverId ? YES : no(403, GUARD_MESSAGES.notTheDriver);
}

/**
 * The guards of the process table, one function per guard the table can name: a row naming a
 * guard that has no function here does not compile.
 */
export const GUARDS: { [G in Guard]: GuardFn } = {
  // The UI asks for confirmation before PENDING → FOR_PAYMENT; there is nothing else to check here.
  confirm: () => YES,

  /**
   * Packing (PREPARING → TO_SHIP) must cover every line with exactly its quantity of distinct
   * serial codes. Without the request's input (listing the actions an order offers) the guard can
   * only check that the order has not been packed already; the codes themselves are checked when
   * they are sent (here for counts and repeats, by the catalog for what each code is).
   */
  'all-lines-scanned': ({ order, input }) => {
    if (order.serials.length > 0) return no(409, GUARD_MESSAGES.alreadyPacked);
    if (!input) return YES;
    const packing = input.packing ?? [];
    const lines = new Map(order.lines.map((l) => [l.id, l]));
    const listed = new Set<string>();
    for (const [i, p] of packing.entries()) {
      const field = `packing.${i}.lineID`;
      if (!lines.has(p.lineID)) return no(400, GUARD_MESSAGES.unknownLine, [{ field, message: GUARD_MESSAGES.unknownLine }]);
      if (listed.has(p.lineID)) return no(400, GUARD_MESSAGES.lineTwice, [{ field, message: GUARD_MESSAGES.lineTwice }]);
      listed.add(p.lineID);
    }
    const seen = new Set<string>();
    const repeats: FieldError[] = [];
    for (const [i, p] of packing.entries()) {
      for (const [j, code] of p.serialCodes.entries()) {
        const c = normalizeSerial(code);
        if (seen.has(c)) repeats.push({ field: `packing.${i}.serialCodes.${j}`, message: PACKING_MESSAGES.alreadyScanned });
        seen.add(c);
      }
    }
    if (repeats.length > 0) return no(409, PACKING_MESSAGES.alreadyScanned, repeats);
    for (const line of order.lines) {
      const scanned = packing.find((p) => p.lineID === line.id)?.serialCodes.length ?? 0;
      if (scanned > line.quantity) return no(409, PACKING_MESSAGES.tooMany(lineLabel(line)));
    }
    if (order.lines.some((line) => (packing.find((p) => p.lineID === line.id)?.serialCodes.length ?? 0) < line.quantity)) {
      return no(409, PACKING_MESSAGES.scanEveryLine);
    }
    return YES;
  },

  /**
   * OUT_FOR_DELIVERY → DELIVERED and FOR_RETURN → FOR_PICK_UP (issue 28): only with a completed
   * hand-over at the door (recipient, signature, serials), recorded in the same step; by the driver
   * who has the order (a wrong person: 403) — a pick-up no driver has yet is the taker's.
   * A scan or a plain status change alone is refused, so no order is delivered without proof.
   */
  'handed-over': (ctx) => {
    const driver = sameDriver(ctx);
    if (!driver.ok) return driver;
    return ctx.input?.handover?.outcome === 'HANDED_OVER' ? YES : no(409, HANDOVER_MESSAGES.needsHandover);
  },

  // OUT_FOR_DELIVERY → TO_SHIP: a delivery refused or with nobody home, recorded at the door by its driver.
  'attempt-failed': (ctx) => {
    const driver = sameDriver(ctx);
    if (!driver.ok) return driver;
    const outcome = ctx.input?.handover?.outcome;
    return outcome !== undefined && outcome !== 'HANDED_OVER' ? YES : no(409, HANDOVER_MESSAGES.reasonRequired);
  },

  /**
   * DELIVERED → FOR_RETURN: some rental line is due, its due date (the delivered date plus its
   * rental days, in Manila) being today or past: its rental period has ended.
   */
  'some-line-past-due': ({ order, now }) => {
    if (!order.deliveredAt) return no(409, GUARD_MESSAGES.notDelivered);
    const today = manilaDate(now);
    const due = order.lines.some((l) => l.noOfRentalDays !== null && isPastDue(lineDueDate(order.deliveredAt!, l.noOfRentalDays), today));
    return due ? YES : no(409, GUARD_MESSAGES.notPastDue);
  },

  // FOR_PICK_UP → FOR_FULL_PAYMENT: every serial packed for the order has its return status.
  'all-serials-returned': ({ order }) =>
    order.serials.length > 0 && order.serials.every((s) => s.returnStatus !== null) ? YES : no(409, GUARD_MESSAGES.notReturned),
};
