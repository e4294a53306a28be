import type { EntityManager } from '@mikro-orm/postgresql';
import type { StockAvailabilityReply } from '@dme/contracts';
import { countsFor } from './counts';

/**
 * What a customer can still order of a product at a variant / sub-variant (the order service asks
 * at add to cart, over NATS request/reply): `availableQuantity` of the stock ledger at that level
 * (countsFor, the one place counts are read), never below 0.
 */
export async function availabilityOf(
  em: EntityManager,
  ref: { productID: string; productVariantID: string | null; productSubVariantID: string | null },
): Promise<StockAvailabilityReply> {
  const counts = await countsFor(em, [ref.productID]);
  const level = ref.productSubVariantID
    ? counts.subVariant(ref.productSubVariantID)
    : ref.productVariantID
      ? counts.variant(ref.productVariantID)
      : counts.product(ref.productID);
  return { available: Math.max(0, level.availableQuantity) };
}
