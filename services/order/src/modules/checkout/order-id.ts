import { createHash } from 'node:crypto';
import { manilaDate, manilaInstant } from '@dme/contracts';
import type { Line } from './lines';

/**
 * The namespace of checkout order ids (a fixed UUID: changing it would change every derived id,
 * so a retry across a deploy would no longer find its first attempt's reservation).
 */
export const CHECKOUT_ORDER_NAMESPACE = '3f0d6c1e-8a52-4b8e-9d57-2c4a61f0b7a9';

/**
 * A name-based UUID that sorts by day (RFC 9562 version 8, "custom"): the first 48 bits are the
 * milliseconds of `dayStart`, the rest SHA-1 over the namespace's 16 bytes and the name (as a
 * version 5 UUID's). The same name on the same day gives the same id; ids of a later day sort
 * after.
 */
export function dayOrderedNameId(namespace: string, name: string, dayStart: Date): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new Error(`dayOrderedNameId: not a UUID namespace: ${namespace}`);
  const b = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16);
  b.writeUIntBE(dayStart.getTime(), 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The id of the order a checkout places (issue 30): derived from who checks out, their
 * Idempotency-Key and the lines it reserves, so a retry of the same checkout (the process killed
 * mid-request, the key taken over after its lease) asks the catalog with the same order id and the
 * catalog answers the reservation it already holds instead of holding the units a second time.
 *
 * - The customer id is part of the name: the same key sent by two customers gives two ids.
 * - The lines are too (what linesOf gives: product, levels, quantity, days, first day): a retry
 *   that would reserve something else (the cart changed, a rental's first day moved to the next
 *   day) gets another id, so the catalog never answers "already held" for units it did not hold
 *   for these lines (it answers a retry of an order id it holds with the lines asked, holding
 *   nothing more).
 * - `attempt` counts the ids this key has used already and may not use again (an attempt that was
 *   abandoned, whose release may still be on its way to the catalog; an order written under the
 *   key before its stored answer expired): see checkoutOrderId.
 *
 * The name is a JSON array, so no two (customer, key, lines, attempt) give the same name.
 *
 * The id begins with the Manila day it is derived on (dayOrderedNameId), so a day's orders sort
 * together: their inserts land on the few pages of each index keyed by order id that hold that
 * day (the orders', lines', tracker's, payments', reports'...), not on random pages of a year's
 * index. A retry on the next Manila day (a checkout killed a moment before midnight and retried
 * after it) derives another id: its units are held twice until the first hold expires, as a retry
 * with a random id would be (docs/decisions.md, "Time-ordered row ids, and order ids by day").
 */
export function derivedOrderId(customerId: string, key: string, lines: Line[], attempt = 0, now: Date = new Date()): string {
  const fingerprint = lines.map((l) => [l.ref, l.productID, l.productVariantID, l.productSubVariantID, l.quantity, l.noOfRentalDays, l.startDate]);
  const name = JSON.stringify(['dme.checkout.order', customerId.toLowerCase(), key, fingerprint, attempt]);
  return dayOrderedNameId(CHECKOUT_ORDER_NAMESPACE, name, manilaInstant(manilaDate(now), '00:00'));
}

/**
 * The order id of a checkout: the first derived id (attempt 0, 1, ...) this key has not used yet.
 * `used`: the order ids the key has been spent on (checkout_attempts, read with the claim).
 */
export function checkoutOrderId(customerId: string, key: string, lines: Line[], used: readonly string[], now: Date = new Date()): string {
  const taken = new Set(used.map((u) => u.toLowerCase()));
  for (let attempt = 0; ; attempt++) {
    const id = derivedOrderId(customerId, key, lines, attempt, now);
    if (!taken.has(id)) return id;
  }
}
