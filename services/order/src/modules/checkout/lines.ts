import { centsToString, firstDayCents, lineDepositCents, lineTotalCents, manilaDate, ORDER_MESSAGES, rentalDaysOf, rentalStartOf, sumCents, toCents, type OrderType, type PlaceOrderInput, type ReserveLineReply } from '@dme/contracts';
import { badRequest, notFound, newId } from '@dme/platform';
import type { CartLineRow } from './checkout.store';

/** A line of the order being placed, as the reservation asks for it (`ref`: its position). */
export interface Line {
  ref: number;
  productID: string;
  productVariantID: string | null;
  productSubVariantID: string | null;
  quantity: number;
  noOfRentalDays: number | null;
  /** A rental line's first day (issue 25): as chosen, else the day it is ordered; null for a purchase. */
  startDate: string | null;
}

/** A line with the catalog's price snapshot (`r`, with its rental terms), its new id, its total, its first day's total and its deposit, in cents. */
export type PricedLine = Line & { r: ReserveLineReply; id: string; total: number; firstDay: number; deposit: number };

/** The order's lines: the bulk lines as sent, or the customer's cart lines of that type. */
export function linesOf(body: Pick<PlaceOrderInput, 'type' | 'typeOfOrder' | 'lines' | 'cartItemIDs'>, cart: CartLineRow[] | null, today: string = manilaDate()): { lines: Line[]; cartIds: string[] } {
  if (body.typeOfOrder === 'BULK') {
    return {
      cartIds: [],
      lines: (body.lines ?? []).map((l, ref) => ({
        ref,
        productID: l.productID,
        productVariantID: l.productVariantID,
        productSubVariantID: l.productSubVariantID,
        quantity: l.quantity,
        noOfRentalDays: rentalDaysOf(body.type, l.noOfRentalDays),
        startDate: rentalStartOf(body.type, l.startDate, today),
      })),
    };
  }
  const rows = cart ?? [];
  if (rows.length === 0) throw badRequest(ORDER_MESSAGES.emptyOrder, [{ field: 'cartItemIDs', message: ORDER_MESSAGES.emptyOrder }]);
  if (body.cartItemIDs && rows.length !== new Set(body.cartItemIDs).size) throw notFound('Cart item not found.');
  return {
    cartIds: rows.map((r) => r.id),
    lines: rows.map((r, ref) => ({
      ref,
      productID: r.product_id,
      productVariantID: r.variant_id,
      productSubVariantID: r.sub_variant_id,
      quantity: r.quantity,
      noOfRentalDays: rentalDaysOf(body.type, r.no_of_rental_days),
      startDate: rentalStartOf(body.type, r.start_date, today),
    })),
  };
}

/**
 * The lines priced from the catalog's reservation answer (its price snapshot), with the order's
 * total and, for a rental, its first (partial) payment and its deposit (issue 29: each line's
 * under the rental terms the catalog answered, snapshotted on the line): the terms modules' line
 * total, first day and deposit.
 */
export function priceLines(lines: Line[], reply: ReserveLineReply[], type: OrderType): { priced: PricedLine[]; totalAmount: string; partial: string | null; deposit: string } {
  const byRef = new Map(reply.map((l) => [l.ref, l]));
  const priced = lines.map((l) => {
    const r = byRef.get(l.ref)!;
    const terms = { unitCents: toCents(r.unitPrice), quantity: l.quantity, noOfRentalDays: l.noOfRentalDays };
    const total = lineTotalCents(terms);
    const deposit = type === 'RENT' ? lineDepositCents(r.rentalTerms, { quantity: l.quantity, lineCents: total }) : 0;
    return { ...l, r, id: newId(), total, firstDay: firstDayCents(terms), deposit };
  });
  const totalAmount = centsToString(sumCents(priced.map((p) => p.total)));
  const partial = type === 'RENT' ? centsToString(sumCents(priced.map((p) => p.firstDay))) : null;
  return { priced, totalAmount, partial, deposit: centsToString(sumCents(priced.map((p) => p.deposit))) };
}
