import { badRequest, notFound, qualified, sql, type Db } from '@dme/platform';
import type { Level } from './booking.service';

/** Texts of bookings where the spec is silent (the rest are BOOKING_MESSAGES). */
export const CALENDAR_MESSAGES = {
  notRentable: 'Only rental products are booked for dates.',
  unknownLevel: 'This variant or sub-variant is not of this product.',
  unknownUnit: 'Stock item not found.',
  unknownDowntime: 'Downtime not found.',
} as const;

export interface ProductRow {
  id: string;
  name: string;
  type: string;
  turnaround_days: number;
}

/** A rental product (not archived) and the level asked of it, or 404 / 400. */
export async function rentalLevel(db: Db, productId: string, variantId: string | null | undefined, subVariantId: string | null | undefined): Promise<{ product: ProductRow; level: Level }> {
  const t = (n: string) => qualified(db, n);
  const [product] = await sql<ProductRow>(db, `select id, name, type, turnaround_days from ${t('products')} where id = $1 and archived_at is null`, [productId]);
  if (!product) throw notFound('Product not found.');
  if (product.type !== 'FOR_RENT') throw badRequest(CALENDAR_MESSAGES.notRentable);
  let variant = variantId ?? null;
  const sub = subVariantId ?? null;
  if (sub) {
    const [row] = await sql<{ variant_id: string }>(
      db,
      `select s.variant_id from ${t('sub_variants')} s join ${t('variants')} v on v.id = s.variant_id where s.id = $1 and v.product_id = $2`,
      [sub, productId],
    );
    if (!row || (variant && row.variant_id !== variant)) throw badRequest(CALENDAR_MESSAGES.unknownLevel);
    variant = row.variant_id;
  } else if (variant) {
    const [row] = await sql(db, `select 1 from ${t('variants')} where id = $1 and product_id = $2`, [variant, productId]);
    if (!row) throw badRequest(CALENDAR_MESSAGES.unknownLevel);
  }
  return { product, level: { productId, variantId: variant, subVariantId: sub } };
}
