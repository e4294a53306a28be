import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { HttpProblem } from '@dme/platform';
import { reserve } from '../modules/reservations/reservation.service';
import { assignSerials, checkSerial } from '../modules/stock/packing.service';

/** A product as the catalog's API answers it (what these helpers read of it). */
type ProductRef = { id: string; name: string };

/** Packs `codes` of a rental product for an order (by `by`), reserved first: the units go out with a customer. Answers the order id. */
export async function rentOut(em: () => EntityManager, product: ProductRef, codes: string[], by: { userId: string; username: string }, orderId: string = randomUUID()): Promise<string> {
  await reserve(em(), { orderId, orderType: 'RENT', lines: [{ ref: 0, productID: product.id, productVariantID: null, productSubVariantID: null, quantity: codes.length, noOfRentalDays: 3 }] });
  await assignSerials(em(), {
    orderId,
    orderType: 'RENT',
    by,
    lines: [{ lineId: randomUUID(), productID: product.id, productVariantID: null, productSubVariantID: null, productName: product.name, quantity: codes.length, serialCodes: codes }],
  });
  return orderId;
}

/** Whether packing would take this unit for its product: 'ok', or the refusal's message. */
export function packable(em: () => EntityManager, product: ProductRef, code: string): Promise<string> {
  return checkSerial(em(), { productID: product.id, productVariantID: null, productSubVariantID: null, productName: product.name, serialCode: code }).then(
    () => 'ok',
    (err: unknown) => (err instanceof HttpProblem ? (err.detail ?? '') : String(err)),
  );
}
