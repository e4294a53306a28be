import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_RENTAL_DAYS, manilaDate, type StockAvailabilityReply } from '@dme/contracts';
import { qualified, sql } from '@dme/platform';
import { countsFor } from './counts';
import { legacyHeld } from '../bookings/booking.service';
import { LEAF_SQL, unitFreeSql } from '../bookings/busy';

/**
 * What a customer can still order of a product at a variant / sub-variant (the order service asks
 * at add to cart, over NATS request/reply). A purchase: `availableQuantity` of the stock ledger at
 * that level (countsFor, the one place counts are read). A rental (issue 25): the units of the
 * leaf free for the whole period asked (its start, today by default, its rental days and the
 * product's turnaround; busy.ts, the rule bookings are made by), less undated holds. Never below 0.
 */
export async function availabilityOf(
  em: EntityManager,
  ref: { productID: string; productVariantID: string | null; productSubVariantID: string | null; startDate?: string | null | undefined; noOfRentalDays?: number | null | undefined },
): Promise<StockAvailabilityReply> {
  const t = (n: string) => qualified(em, n);
  const [product] = await sql<{ type: string; turnaround_days: number }>(em, `select type, turnaround_days from ${t('products')} where id = $1`, [ref.productID]);
  if (product?.type === 'FOR_RENT') {
    const today = manilaDate();
    const start = ref.startDate ?? today;
    const length = (ref.noOfRentalDays ?? DEFAULT_RENTAL_DAYS) + product.turnaround_days;
    const leaf = ref.productSubVariantID ?? ref.productVariantID ?? ref.productID;
    const [row] = await sql<{ n: number }>(
      em,
      `select count(*)::int as n from ${t('stock_items')} i
        where ${LEAF_SQL('i')} = $1::uuid and ${unitFreeSql(t, 'i', 'daterange($2::date, $2::date + $3::int)', '$4::date')}`,
      [leaf, start, length, today],
    );
    const legacy = await legacyHeld(em, { productId: ref.productID, variantId: ref.productVariantID, subVariantId: ref.productSubVariantID });
    return { available: Math.max(0, (row?.n ?? 0) - legacy) };
  }
  const counts = await countsFor(em, [ref.productID]);
  const level = ref.productSubVariantID
    ? counts.subVariant(ref.productSubVariantID)
    : ref.productVariantID
      ? counts.variant(ref.productVariantID)
      : counts.product(ref.productID);
  return { available: Math.max(0, level.availableQuantity) };
}
