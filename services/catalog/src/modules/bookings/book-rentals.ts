import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_RENTAL_DAYS, DEFAULT_TURNAROUND_DAYS, manilaDate } from '@dme/contracts';
import { NEW_ID_SQL, qualified, sql, type HttpProblem } from '@dme/platform';
import { bookNeed, firstStartDate, needOf, notFreeProblem, unbookOrder, type Need } from './booking.service';
import { batchKeys, batchLeavesSql, HOLD_MINUTES, nameOf, outcomeOf, replyOf, requestsSql, resolvedLinesSql, type LineRow, type Reserve, type ReserveOutcome } from '../reservations/lines';

/** A line of a rental as bookRentalOrders reads it: the resolved line, its order's state and its leaf's undated holds. */
interface RentalRow extends LineRow {
  req: number;
  ord: number;
  turnaround_days: number | null;
  bad: boolean;
  retry: boolean;
  legacy: number;
}

/**
 * reserveOrders for rentals (issue 25): each order books units for its lines' dates, all or
 * nothing, in the order given, in one transaction. (1) One statement resolves every line (the
 * same checks and messages as purchases), tells retries (the order holds already) and locks the
 * ledger rows of every leaf in leaf-id order (as purchases, packing and returns do), reading each
 * leaf's undated holds. (2) Per order, one statement per leaf and period books free units
 * (bookings.bookNeed); an order one of whose needs is short books nothing and answers 409 with
 * the first start date that works. (3) One statement writes the orders' reservation rows, `dated`
 * (they no longer raise `reserved`: the bookings hold the units), which confirm, release, expiry
 * and packing go on using.
 */
export async function bookRentalOrders(em: EntityManager, inputs: Reserve[]): Promise<ReserveOutcome[]> {
  const today = manilaDate();
  const requests = inputs.map((input, req) => ({
    req,
    order_id: input.orderId,
    wanted: 'FOR_RENT',
    lines: input.lines.map((l, ord) => ({ ord, ref: l.ref, product_id: l.productID, variant_id: l.productVariantID ?? null, sub_variant_id: l.productSubVariantID ?? null, quantity: l.quantity })),
  }));
  return em.transactional(async (tem) => {
    const t = (name: string) => qualified(tem, name);
    const rows = await sql<RentalRow>(
      tem,
      `with ${resolvedLinesSql(t, 2)}
       ), ${requestsSql(t, 2)}
       ), locked as materialized (
         select l.leaf_id, l.reserved from ${t('stock_levels')} l
          where l.leaf_id in (select x.leaf_id from resolved x join requests r on r.req = x.req and not r.bad and not r.retry) and l.leaf_id = any(${batchLeavesSql(2)})
          order by l.leaf_id for update
       )
       select x.*, r.bad, r.retry, coalesce(k.reserved, 0)::int as legacy
         from resolved x join requests r on r.req = x.req left join locked k on k.leaf_id = x.leaf_id
        order by x.req, x.ord`,
      [JSON.stringify(requests), ...batchKeys(inputs)],
    );
    const byReq = new Map<number, RentalRow[]>();
    for (const r of rows) byReq.set(r.req, [...(byReq.get(r.req) ?? []), r]);
    const held: Array<{ order_id: string; product_id: string; variant_id: string | null; sub_variant_id: string | null; leaf_id: string; quantity: number }> = [];
    const outcomes: ReserveOutcome[] = [];
    // An order asked twice in one batch (a retry that arrived with its first try) is booked once.
    const bookedHere = new Set<string>();
    for (const [req, input] of inputs.entries()) {
      const lines = byReq.get(req) ?? [];
      const first = lines[0];
      if (!first || first.bad || first.retry || bookedHere.has(input.orderId)) {
        outcomes.push(outcomeOf(lines.map((l) => ({ ...l, outcome: l.bad ? 'error' : 'retry', short: null }))));
        continue;
      }
      // One need per leaf and period (lines of the same unit level and dates are merged).
      const needs = new Map<string, { need: Need; row: RentalRow; ref: number }>();
      for (const row of lines) {
        const asked = input.lines[row.ord]!;
        const need = needOf(
          { leafId: row.leaf_id!, productId: row.product_id!, quantity: row.quantity, startDate: asked.startDate ?? null, days: asked.noOfRentalDays ?? DEFAULT_RENTAL_DAYS, turnaround: row.turnaround_days ?? DEFAULT_TURNAROUND_DAYS },
          today,
        );
        const key = `${need.leafId}|${need.start}|${need.end}`;
        const prev = needs.get(key);
        if (prev) prev.need.quantity += need.quantity;
        else needs.set(key, { need, row, ref: row.ref });
      }
      let problem: HttpProblem | undefined;
      for (const { need, row, ref } of needs.values()) {
        if (await bookNeed(tem, input.orderId, need, row.legacy, today)) continue;
        await unbookOrder(tem, input.orderId);
        const level = { productId: row.product_id!, variantId: row.variant_id, subVariantId: row.sub_variant_id };
        const first = await firstStartDate(tem, level, need.quantity + row.legacy, daysBetween(need.start, need.end), need.start, today);
        problem = notFreeProblem(nameOf(row), need, first, ref);
        break;
      }
      if (problem) {
        outcomes.push({ problem });
        continue;
      }
      for (const row of lines) {
        const same = held.find((h) => h.order_id === input.orderId && h.leaf_id === row.leaf_id);
        if (same) same.quantity += row.quantity;
        else held.push({ order_id: input.orderId, product_id: row.product_id!, variant_id: row.variant_id, sub_variant_id: row.sub_variant_id, leaf_id: row.leaf_id!, quantity: row.quantity });
      }
      bookedHere.add(input.orderId);
      outcomes.push({ lines: lines.map(replyOf) });
    }
    if (held.length > 0) {
      await sql(
        tem,
        `insert into ${t('reservations')} (id, order_id, product_id, variant_id, sub_variant_id, leaf_id, quantity, status, expires_at, dated)
         select ${NEW_ID_SQL}, h.order_id, h.product_id, h.variant_id, h.sub_variant_id, h.leaf_id, h.quantity, 'HELD', $2::timestamptz, true
           from jsonb_to_recordset($1::jsonb) as h(order_id uuid, product_id uuid, variant_id uuid, sub_variant_id uuid, leaf_id uuid, quantity int)`,
        [JSON.stringify(held), new Date(Date.now() + HOLD_MINUTES * 60_000)],
      );
    }
    return outcomes;
  });
}

/** Days from `a` to `b` (YYYY-MM-DD), b after a. */
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);
