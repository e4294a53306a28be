import { toCents, type FieldError, type HandoverLeg, type HandoverOutcome, type OrderStatus, type OrderType, type PackedLine, type ReturnedUnit, type ReturnStatus, type Transition } from '@dme/contracts';
import type { Principal } from '@dme/platform';
import type { z } from 'zod';

/** The guards and effects the process table names (DESIGN §6, packages/contracts process.ts). */
export type Guard = NonNullable<Transition['guard']>;
export type Effect = NonNullable<Transition['effect']>;

/** Who asks for a transition: a signed-in person, or an event (the row's `who` says which may). */
export type Caller =
  | { kind: 'person'; principal: Principal }
  /** `by`: the person behind the event (e.g. who confirmed the payment), recorded in the status event. */
  | { kind: 'event'; event: string; by: string | null };

/**
 * What the request brings besides the target status: packing, the scanned serial codes per line;
 * handover, the hand-over at the door the step is taken with (issue 28: recorded in the same
 * transaction), whose outcome and reason the tracker shows.
 */
export interface TransitionInput {
  packing?: Array<z.output<typeof PackedLine>>;
  handover?: { leg: HandoverLeg; outcome: HandoverOutcome; trackerNote?: string };
}

/** One line of an order as the process reads it. */
export interface FactLine {
  id: string;
  productId: string;
  variantId: string | null;
  subVariantId: string | null;
  productName: string;
  variantName: string | null;
  subVariantName: string | null;
  quantity: number;
  noOfRentalDays: number | null;
  /** The damage or lost fee snapshot of one unit ("250.00"). */
  damageCharges: string;
}

/** A serial code packed for a line, with its return inspection (null until returned). */
export interface FactSerial {
  lineId: string;
  serialCode: string;
  returnStatus: ReturnStatus | null;
}

/** What the process table's guards and effects decide on: the order, its lines and their serials (read by `loadOrder`, modules/orders/read.ts). */
export interface OrderFacts {
  id: string;
  orderNumber: string;
  customerId: string;
  type: OrderType;
  status: OrderStatus;
  driverId: string | null;
  deliveredAt: Date | null;
  /** The order total and a rental's first (partial) payment, as placed ("1560.00"; null: a purchase). */
  totalAmount: string;
  partialPayment: string | null;
  lines: FactLine[];
  serials: FactSerial[];
}

/** A decision of the process: go ahead, or the problem to answer (status, message, fields). */
export type Verdict = { ok: true } | { ok: false; status: 400 | 403 | 409; message: string; errors?: FieldError[] };

export const YES: Verdict = { ok: true };
export const no = (status: 400 | 403 | 409, message: string, errors?: FieldError[]): Verdict => ({ ok: false, status, message, ...(errors ? { errors } : {}) });

/** The order's packed units as they came back (their mark, null until marked) with their line's damage or lost fee. */
export function returnedUnits(order: Pick<OrderFacts, 'lines' | 'serials'>): ReturnedUnit[] {
  const fee = new Map(order.lines.map((l) => [l.id, toCents(l.damageCharges)]));
  return order.serials.map((s) => ({ mark: s.returnStatus, feeCents: fee.get(s.lineId) ?? 0 }));
}

/** A line as packing names it: product / variant / sub-variant ("Wheelchair / Standard / 18 in"). */
export function lineLabel(line: Pick<FactLine, 'productName' | 'variantName' | 'subVariantName'>): string {
  return [line.productName, line.variantName, line.subVariantName].filter(Boolean).join(' / ');
}

/** Serial codes are matched whatever the case they were typed in (catalog codes are upper case). */
export function normalizeSerial(code: string): string {
  return code.trim().toUpperCase();
}
