import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { addDays, DEFAULT_RENTAL_DAYS, isBookableStart, manilaDate, type AvailabilityBatchQuery, type AvailabilityBatchResponse, type AvailabilityQuery, type AvailabilityResponse, type ProductAvailability } from '@dme/contracts';
import { qualified, sql } from '@dme/platform';
import { freeInSql, LEAF_SQL, RENTABLE_SQL, rentalDaysLeftSql, takenDaysSql } from './busy';
import { firstStartDate, legacyHeld, levelItemsSql } from './booking.service';
import { rentalLevel } from './level';

type Availability = z.output<typeof AvailabilityQuery>;

/**
 * Availability of a level over days (issue 25): per day, the units free that day, and whether a
 * rental of `quantity` for `days` days could start then (every unit free for the whole period,
 * turnaround included: busy.ts, the rule bookings are made by, each unit's taken days read once);
 * and the first such day. Undated holds of orders placed before dated rentals count against every
 * day.
 */
export async function availabilityFor(em: EntityManager, productId: string, q: Availability): Promise<AvailabilityResponse> {
  const today = manilaDate();
  const { product, level } = await rentalLevel(em, productId, q.variantID, q.subVariantID);
  const quantity = q.quantity ?? 1;
  const rentalDays = q.days ?? DEFAULT_RENTAL_DAYS;
  const length = rentalDays + product.turnaround_days;
  const legacy = await legacyHeld(em, level);
  const t = (n: string) => qualified(em, n);
  const rows = await sql<{ day: string; free: number; fits: number; units: number }>(
    em,
    `with units as materialized (
       select ${takenDaysSql(t, 'i', 'daterange($4::date, $5::date + $6::int)', '$7::date')} as taken, ${rentalDaysLeftSql(t, 'i')} as days_left
         from ${t('stock_items')} i where ${levelItemsSql('i', '$1', '$2', '$3')} and ${RENTABLE_SQL('i')}
     )
     select to_char(d, 'YYYY-MM-DD') as day,
            (select count(*) from units u where ${freeInSql('u.taken', 'daterange(d::date, d::date + 1)')})::int as free,
            (select count(*) from units u where ${freeInSql('u.taken', 'daterange(d::date, d::date + $6::int)')} and (u.days_left is null or u.days_left >= $8::int))::int as fits,
            (select count(*) from units)::int as units
       from generate_series($4::date, $5::date, interval '1 day') d
      order by d`,
    [level.productId, level.variantId, level.subVariantId, q.from, q.to, length, today, rentalDays],
  );
  const need = quantity + legacy;
  return {
    productID: productId,
    variantID: level.variantId,
    subVariantID: level.subVariantId,
    quantity,
    rentalDays,
    turnaroundDays: product.turnaround_days,
    units: rows[0]?.units ?? 0,
    days: rows.map((r) => ({
      date: r.day,
      free: Math.max(0, r.free - legacy),
      freeForRental: isBookableStart(r.day, today) ? Math.max(0, r.fits - legacy) : 0,
      startable: isBookableStart(r.day, today) && r.fits >= need,
    })),
    firstStartDate: await firstStartDate(em, level, need, length, q.from, today),
  };
}

type Batch = z.output<typeof AvailabilityBatchQuery>;

/**
 * The shop's grid (issue 25): for a page of rental products at once, per day of the window the
 * units free that day and whether a rental of `quantity` for `days` may start then at some level
 * (leaf) of the product: the same rule (busy.ts) and the same undated holds per leaf as
 * `availabilityFor`, in one statement for the page. A product with no such day in the window gets
 * its first start beyond it, as the product page does. Products that are not rental ones, or are
 * archived or unknown, are left out.
 */
export async function availabilityBatch(em: EntityManager, q: Batch): Promise<AvailabilityBatchResponse> {
  const today = manilaDate();
  const quantity = q.quantity ?? 1;
  const rentalDays = q.days ?? DEFAULT_RENTAL_DAYS;
  const t = (n: string) => qualified(em, n);
  const rows = await sql<{ product_id: string; turnaround_days: number; leaf_id: string | null; variant_id: string | null; sub_variant_id: string | null; legacy: number; days: Array<{ d: string; free: number; fits: number }> | null; units: number }>(
    em,
    `with prods as materialized (
       select p.id, p.turnaround_days from ${t('products')} p where p.id = any($1::uuid[]) and p.type = 'FOR_RENT' and p.archived_at is null
     ), units as materialized (
       select i.product_id, i.variant_id, i.sub_variant_id, ${LEAF_SQL('i')} as leaf_id, pr.turnaround_days,
              ${takenDaysSql(t, 'i', 'daterange($2::date, $3::date + $4::int + pr.turnaround_days)', '$5::date')} as taken, ${rentalDaysLeftSql(t, 'i')} as days_left
         from ${t('stock_items')} i join prods pr on pr.id = i.product_id
        where ${RENTABLE_SQL('i')}
     ), per_day as (
       select u.leaf_id, d::date as d,
              count(*) filter (where ${freeInSql('u.taken', 'daterange(d::date, d::date + 1)')})::int as free,
              count(*) filter (where ${freeInSql('u.taken', 'daterange(d::date, d::date + $4::int + u.turnaround_days)')} and (u.days_left is null or u.days_left >= $4::int))::int as fits
         from units u cross join generate_series($2::date, $3::date, interval '1 day') d
        group by u.leaf_id, d
     ), leaves as (
       select u.product_id, u.leaf_id, min(u.variant_id::text)::uuid as variant_id, min(u.sub_variant_id::text)::uuid as sub_variant_id, count(*)::int as units
         from units u group by u.product_id, u.leaf_id
     )
     select pr.id as product_id, pr.turnaround_days, l.leaf_id, l.variant_id, l.sub_variant_id, coalesce(l.units, 0) as units,
            coalesce((select sum(sl.reserved) from ${t('stock_levels')} sl where sl.leaf_id = l.leaf_id), 0)::int as legacy,
            (select json_agg(json_build_object('d', to_char(pd.d, 'YYYY-MM-DD'), 'free', pd.free, 'fits', pd.fits) order by pd.d) from per_day pd where pd.leaf_id = l.leaf_id) as days
       from prods pr left join leaves l on l.product_id = pr.id`,
    [q.productIDs, q.from, q.to, rentalDays, today],
  );
  const window: string[] = [];
  for (let d = q.from; d <= q.to; d = addDays(d, 1)) window.push(d);
  const items: ProductAvailability[] = [];
  for (const productId of q.productIDs) {
    const leaves = rows.filter((r) => r.product_id === productId);
    if (leaves.length === 0) continue;
    const byDay = window.map((date, n) => {
      let free = 0;
      let startable = false;
      for (const l of leaves) {
        const day = l.days?.[n];
        if (!day) continue;
        free += Math.max(0, day.free - l.legacy);
        if (isBookableStart(date, today) && day.fits >= quantity + l.legacy) startable = true;
      }
      return { date, free: Math.max(0, free), startable };
    });
    let first = byDay.find((d) => d.startable)?.date ?? null;
    if (!first) {
      const beyond = addDays(q.to, 1);
      const firsts = await Promise.all(
        leaves
          .filter((l) => l.leaf_id !== null)
          .map((l) => firstStartDate(em, { productId, variantId: l.variant_id, subVariantId: l.sub_variant_id }, quantity + l.legacy, rentalDays + l.turnaround_days, beyond, today)),
      );
      first = firsts.filter((f): f is string => f !== null).sort()[0] ?? null;
    }
    items.push({ productID: productId, units: leaves.reduce((n, l) => n + l.units, 0), turnaroundDays: leaves[0]!.turnaround_days, days: byDay, firstStartDate: first });
  }
  return { from: q.from, to: q.to, items };
}
