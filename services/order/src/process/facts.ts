import type { EntityManager } from '@mikro-orm/postgresql';
import type { FieldError, OrderStatus, OrderType, PackedLine, ReturnStatus, Transition } from '@dme/contracts';
import { qualified, type Principal } from '@dme/platform';
import type { z } from 'zod';

/** The guards and effects the process table names (DESIGN §6, packages/contracts process.ts). */
export type Guard = NonNullable<Transition['guard']>;
export type Effect = NonNullable<Transition['effect']>;

/** Who asks for a transition: a signed-in person, or an event (the row's `who` says which may). */
export type Caller =
  | { kind: 'person'; principal: Principal }
  /** `by`: the person behind the event (e.g. who confirmed the payment), recorded in the status event. */
  | { kind: 'event'; event: string; by: string | null };

/** What the request brings besides the target status (packing: the scanned serial codes per line). */
export interface TransitionInput {
  packing?: Array<z.output<typeof PackedLine>>;
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

/** What the process table's guards and effects decide on: the order, its lines and their serials. */
export interface OrderFacts {
  id: string;
  orderNumber: string;
  customerId: string;
  type: OrderType;
  status: OrderStatus;
  driverId: string | null;
  deliveredAt: Date | null;
  lines: FactLine[];
  serials: FactSerial[];
}

/** A decision of the process: go ahead, or the problem to answer (status, message, fields). */
export type Verdict = { ok: true } | { ok: false; status: 400 | 403 | 409; message: string; errors?: FieldError[] };

export const YES: Verdict = { ok: true };
export const no = (status: 400 | 403 | 409, message: string, errors?: FieldError[]): Verdict => ({ ok: false, status, message, ...(errors ? { errors } : {}) });

/** A line as packing names it: product / variant / sub-variant ("Wheelchair / Standard / 18 in"). */
export function lineLabel(line: Pick<FactLine, 'productName' | 'variantName' | 'subVariantName'>): string {
  return [line.productName, line.variantName, line.subVariantName].filter(Boolean).join(' / ');
}

/** Serial codes are matched whatever the case they were typed in (catalog codes are upper case). */
export function normalizeSerial(code: string): string {
  return code.trim().toUpperCase();
}

interface FactsRow {
  id: string;
  order_number: string;
  customer_id: string;
  type: OrderType;
  status: OrderStatus;
  driver_id: string | null;
  delivered_at: string | Date | null;
  lines: FactLine[];
  serials: FactSerial[];
}

/**
 * The facts of one order (call it after locking the order row, so that it reads what committed
 * before the lock was granted), or null when there is no such order.
 */
export async function loadFacts(em: EntityManager, orderId: string): Promise<OrderFacts | null> {
  const [row] = await em.execute<FactsRow[]>(
    `select o.id, o.order_number, o.customer_id, o.type, o.status, o.driver_id, o.delivered_at,
            coalesce((select json_agg(json_build_object('id', l.id, 'productId', l.product_id, 'variantId', l.variant_id,
                       'subVariantId', l.sub_variant_id, 'productName', l.product_name, 'variantName', l.variant_name,
                       'subVariantName', l.sub_variant_name, 'quantity', l.quantity, 'noOfRentalDays', l.no_of_rental_days,
                       'damageCharges', l.damage_charges::text) order by l.position)
                        from ${qualified(em, 'order_lines')} l where l.order_id = o.id), '[]'::json) as lines,
            coalesce((select json_agg(json_build_object('lineId', s.line_id, 'serialCode', s.serial_code, 'returnStatus', s.return_status)
                       order by s.line_id, s.position)
                        from ${qualified(em, 'order_line_serials')} s where s.order_id = o.id), '[]'::json) as serials
       from ${qualified(em, 'orders')} o where o.id = ?`,
    [orderId],
  );
  if (!row) return null;
  return {
    id: row.id,
    orderNumber: row.order_number,
    customerId: row.customer_id,
    type: row.type,
    status: row.status,
    driverId: row.driver_id,
    deliveredAt: row.delivered_at === null ? null : new Date(row.delivered_at),
    lines: row.lines,
    serials: row.serials,
  };
}
