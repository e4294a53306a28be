import { addDays, BOOKING_MESSAGES, lastBookableStart, manilaDate, ORDER_MESSAGES, rentalPeriod, type FieldError } from '@dme/contracts';
import { HttpProblem, NEW_ID_SQL, qualified, sql, type Db } from '@dme/platform';
import { LEAF_SQL, RENTABLE_SQL, unitFreeSql } from './busy';

/** A product level: the product, a variant of it, or a sub-variant (null: not narrowed). */
export interface Level {
  productId: string;
  variantId: string | null;
  subVariantId: string | null;
}

/** SQL matching the stock items `i` of a level ($p, $v, $s: the level's ids as parameters). */
export const levelItemsSql = (i: string, p: string, v: string, s: string) =>
  `${i}.product_id = ${p}::uuid and (${v}::uuid is null or ${i}.variant_id = ${v}::uuid) and (${s}::uuid is null or ${i}.sub_variant_id = ${s}::uuid)`;

/** What one rental need asks of a leaf: `quantity` units for [start, end), due on `due`. */
export interface Need {
  leafId: string;
  productId: string;
  quantity: number;
  start: string;
  due: string;
  end: string;
}

/**
 * Books `need.quantity` free units of the leaf for the order, in one statement: the leaf's units
 * free for the whole period (busy.ts) in the order bookings take them (on the shelf first, then out or
 * on their way back to it, by serial code: each pass walks the leaf's serial-code index and stops once it has enough), `legacy` more than asked must be free (undated holds of orders placed before
 * dated rentals, which name no unit), and only if that many are, the bookings are written.
 * The caller holds the leaf's ledger row locked, so no other booking of the leaf runs meanwhile;
 * the exclusion constraint stays the last word. Answers whether the units were booked.
 */
export async function bookNeed(db: Db, orderId: string, need: Need, legacy: number, today: string): Promise<boolean> {
  const t = (n: string) => qualified(db, n);
  const [row] = await sql<{ fits: boolean }>(
    db,
    `with picked as materialized (
       select i.id, row_number() over (order by i.pass, i.serial_code) as n
         from (select * from (
                 (select i.id, 0 as pass, i.serial_code from ${t('stock_items')} i
                   where ${LEAF_SQL('i')} = $1::uuid and i.status in ('AVAILABLE') and ${unitFreeSql(t, 'i', 'daterange($2::date, $3::date)', '$7::date')}
                   order by ${LEAF_SQL('i')}, i.serial_code limit $4::int + $5::int)
                 union all
                 (select i.id, 1 as pass, i.serial_code from ${t('stock_items')} i
                   where ${LEAF_SQL('i')} = $1::uuid and i.status in ('RENTED','RETURNED','CLEANED','INSPECTED') and ${unitFreeSql(t, 'i', 'daterange($2::date, $3::date)', '$7::date')}
                   order by ${LEAF_SQL('i')}, i.serial_code limit $4::int + $5::int)) both_passes
                order by pass, serial_code
                limit $4::int + $5::int) i
     ), enough as (
       select count(*) >= $4::int + $5::int as fits from picked
     ), written as (
       insert into ${t('bookings')} (id, kind, order_id, stock_item_id, leaf_id, product_id, period, due_date, status)
       select ${NEW_ID_SQL}, 'RENTAL', $6::uuid, p.id, $1::uuid, $8::uuid, daterange($2::date, $3::date), $9::date, 'ACTIVE'
         from picked p, enough e
        where e.fits and p.n <= $4::int
       returning 1
     )
     select e.fits and (select count(*) from written) = $4::int as fits from enough e`,
    [need.leafId, need.start, need.end, need.quantity, legacy, orderId, today, need.productId, need.due],
  );
  return row?.fits === true;
}

/**
 * The first day from `from` (and not before today, not after the booking horizon) on which
 * `need` units of the level are free for `length` days (rental days + turnaround), per unit: a
 * rental can only start on `from` or on a day some unit comes free, so those are the days tried.
 */
export async function firstStartDate(db: Db, level: Level, need: number, length: number, from: string, today: string): Promise<string | null> {
  const t = (n: string) => qualified(db, n);
  const start = from < today ? today : from;
  const [row] = await sql<{ s: string | null }>(
    db,
    `with units as materialized (
       select i.id, i.status, i.order_id, i.product_id, i.serviced_on from ${t('stock_items')} i where ${levelItemsSql('i', '$1', '$2', '$3')} and ${RENTABLE_SQL('i')}
     ), cand as (
       select $4::date as s
       union select upper(b.period) from ${t('bookings')} b join units u on u.id = b.stock_item_id where b.status in ('ACTIVE') and upper(b.period) > $4::date
       union select greatest(upper(b.period), $7::date + 1 + (upper(b.period) - b.due_date)) from ${t('bookings')} b join units u on u.id = b.stock_item_id and b.order_id = u.order_id
        where u.status in ('RENTED') and b.status in ('ACTIVE') and b.kind = 'RENTAL'
     )
     select to_char(c.s, 'YYYY-MM-DD') as s from cand c
      where c.s >= $4::date and c.s <= $8::date
        and (select count(*) from units u where ${unitFreeSql(t, 'u', 'daterange(c.s, c.s + $6::int)', '$7::date')}) >= $5::int
      order by c.s limit 1`,
    [level.productId, level.variantId, level.subVariantId, start, need, length, today, lastBookableStart(today)],
  );
  return row?.s ?? null;
}

/** Undated holds (orders placed before dated rentals) under a level: the ledger's `reserved`. */
export async function legacyHeld(db: Db, level: Level): Promise<number> {
  const [row] = await sql<{ n: number }>(
    db,
    `select coalesce(sum(reserved), 0)::int as n from ${qualified(db, 'stock_levels')}
      where product_id = $1::uuid and ($2::uuid is null or variant_id = $2::uuid) and ($3::uuid is null or sub_variant_id = $3::uuid)`,
    [level.productId, level.variantId, level.subVariantId],
  );
  return row?.n ?? 0;
}

/** The refusal of a rental line whose units are not free: the spec's max-stock message, and the first start that works. */
export function notFreeProblem(what: string, need: Need, first: string | null, ref: number): HttpProblem {
  const detail = `${BOOKING_MESSAGES.notFree(what, need.quantity, need.start)} ${ORDER_MESSAGES.maxStock} ${first ? BOOKING_MESSAGES.firstFree(first) : BOOKING_MESSAGES.noneAhead}`;
  const errors: FieldError[] = [{ field: `lines.${ref}.startDate`, message: first ? BOOKING_MESSAGES.firstFree(first) : BOOKING_MESSAGES.noneAhead }];
  return new HttpProblem(409, detail, errors);
}

/** The rental period of a line (terms.rentalPeriod): its start (today when absent), days and the product's turnaround. */
export function needOf(line: { leafId: string; productId: string; quantity: number; startDate: string | null; days: number; turnaround: number }, today: string): Need {
  const p = rentalPeriod(line.startDate ?? today, line.days, line.turnaround);
  return { leafId: line.leafId, productId: line.productId, quantity: line.quantity, start: p.start, due: p.due, end: p.end };
}

/** Removes what an order booked in this transaction (an order is booked all or nothing). */
export async function unbookOrder(db: Db, orderId: string): Promise<void> {
  await sql(db, `delete from ${qualified(db, 'bookings')} where order_id = $1 and status = 'ACTIVE'`, [orderId]);
}

/** The placed orders' number and customer, for the staff calendar and the customer's notices (from `dme.order.placed`). */
export async function labelBookings(db: Db, placed: Array<{ orderId: string; orderNumber: string; customerId?: string; customerName: string | null }>): Promise<void> {
  if (placed.length === 0) return;
  await sql(
    db,
    `update ${qualified(db, 'bookings')} b set order_number = p.order_number, customer_name = p.customer_name, customer_id = p.customer_id
       from jsonb_to_recordset($1::jsonb) as p(order_id uuid, order_number text, customer_id uuid, customer_name text)
      where b.order_id = p.order_id`,
    [JSON.stringify(placed.map((p) => ({ order_id: p.orderId, order_number: p.orderNumber, customer_id: p.customerId ?? null, customer_name: p.customerName })))],
  );
}

/**
 * A unit of a rental came back (returns): its booking ends on the return day plus the product's
 * turnaround, if that is earlier than booked (an early or partial return frees the rest of the
 * period; a late one keeps its booking, whose days have passed).
 */
export async function cutBookingAtReturn(db: Db, stockItemId: string, orderId: string, today: string = manilaDate()): Promise<void> {
  const t = (n: string) => qualified(db, n);
  await sql(
    db,
    `update ${t('bookings')} b
        set status = case when $3::date + (upper(b.period) - b.due_date) <= lower(b.period) or $3::date < lower(b.period) then 'CANCELLED' else b.status end,
            period = case when $3::date + (upper(b.period) - b.due_date) <= lower(b.period) or $3::date < lower(b.period) then b.period
                          else daterange(lower(b.period), $3::date + (upper(b.period) - b.due_date)) end,
            due_date = case when $3::date < lower(b.period) then b.due_date else least(b.due_date, $3::date) end,
            updated_at = now()
      where b.stock_item_id = $1 and b.order_id = $2 and b.status in ('ACTIVE') and b.kind = 'RENTAL'
        and $3::date + (upper(b.period) - b.due_date) < upper(b.period)`,
    [stockItemId, orderId, today],
  );
}

/** The bookings a day range of a unit would collide with, named for a message. */
export async function collisionsOf(db: Db, stockItemId: string, from: string, end: string, exceptOrder: string | null): Promise<Array<{ kind: string; order_number: string | null; reason: string | null; start: string; last: string }>> {
  return sql(
    db,
    `select b.kind, coalesce(b.order_number, '') as order_number, b.reason, to_char(lower(b.period), 'YYYY-MM-DD') as start,
            to_char(upper(b.period) - 1, 'YYYY-MM-DD') as last
       from ${qualified(db, 'bookings')} b
      where b.stock_item_id = $1 and b.status in ('ACTIVE') and b.period && daterange($2::date, $3::date)
        and ($4::uuid is null or b.order_id is distinct from $4::uuid)
      order by lower(b.period)`,
    [stockItemId, from, end, exceptOrder],
  );
}

/** A unit scanned while packing a rental: the stock item and its code. */
export interface ScannedUnit {
  id: string;
  serial_code: string;
}

/** Why a unit cannot take these days: the booking or downtime it collides with, as a message. */
function collisionMessage(code: string, c: { kind: string; order_number: string | null; reason: string | null; start: string; last: string }): string {
  return c.kind === 'DOWNTIME' ? BOOKING_MESSAGES.downUnit(code, c.reason ?? 'MAINTENANCE', c.start, c.last) : BOOKING_MESSAGES.bookedOtherwise(code, c.order_number || 'another order', c.start, c.last);
}

/**
 * Packing a rental (issue 25): the order's bookings of each leaf move to the units scanned for it.
 * A scanned unit the order booked keeps its booking; any other must be free for the booking's days
 * (else a refusal naming what it collides with: another order's booking or a downtime), and takes
 * over one of the order's bookings whose unit was not scanned. The caller holds the leaves' ledger
 * rows locked. An order placed before dated rentals has no bookings: its units must not be booked
 * today. Answers the refusals (field paths as the caller names the scans); nothing moves if any.
 */
export async function moveBookingsToScanned(
  db: Db,
  orderId: string,
  scans: Array<{ leafId: string; units: Array<ScannedUnit & { field: string }> }>,
  today: string = manilaDate(),
): Promise<FieldError[]> {
  const t = (n: string) => qualified(db, n);
  const problems: FieldError[] = [];
  const moves: Array<{ booking: string; item: string }> = [];
  for (const scan of scans) {
    const booked = await sql<{ id: string; stock_item_id: string; start: string; end: string }>(
      db,
      `select id, stock_item_id, to_char(lower(period), 'YYYY-MM-DD') as start, to_char(upper(period), 'YYYY-MM-DD') as end
         from ${t('bookings')} where order_id = $1 and leaf_id = $2 and status = 'ACTIVE' and kind = 'RENTAL' order by lower(period), id for update`,
      [orderId, scan.leafId],
    );
    if (booked.length === 0) {
      for (const u of scan.units) {
        const [c] = await collisionsOf(db, u.id, today, addDays(today, 1), orderId);
        if (c) problems.push({ field: u.field, message: collisionMessage(u.serial_code, c) });
      }
      continue;
    }
    const scannedIds = new Set(scan.units.map((u) => u.id));
    const spare = booked.filter((b) => !scannedIds.has(b.stock_item_id));
    const bookedIds = new Set(booked.map((b) => b.stock_item_id));
    for (const u of scan.units.filter((x) => !bookedIds.has(x.id))) {
      const b = spare.shift();
      if (!b) break;
      const [c] = await collisionsOf(db, u.id, b.start, b.end, null);
      if (c) problems.push({ field: u.field, message: collisionMessage(u.serial_code, c) });
      else moves.push({ booking: b.id, item: u.id });
    }
  }
  if (problems.length > 0) return problems;
  // The scanned units have no booking on these days (checked above, under the leaves' locks).
  if (moves.length > 0) {
    await sql(
      db,
      `update ${t('bookings')} b set stock_item_id = m.item, updated_at = now()
         from jsonb_to_recordset($1::jsonb) as m(booking uuid, item uuid) where b.id = m.booking`,
      [JSON.stringify(moves)],
    );
  }
  return [];
}

/**
 * A rental was delivered on `day` (Manila): SPEC's due date is the delivered date + rental days,
 * so each of its bookings moves to start on that day, keeping its length (rental days and
 * turnaround), where the unit is free for the moved days (checked like a new booking, under the
 * leaf's lock). A booking whose moved days collide stays where it was; the later booking it would
 * have run into shows on the at-risk list once the unit is out past the old due date. Answers how
 * many bookings moved and how many could not. Safe to repeat (a moved booking starts on `day`).
 */
export async function moveToDelivered(db: Db, orderId: string, day: string): Promise<{ moved: number; kept: number }> {
  const t = (n: string) => qualified(db, n);
  const rows = await sql<{ id: string; stock_item_id: string; leaf_id: string; start: string; days: number; length: number }>(
    db,
    `select id, stock_item_id, leaf_id, to_char(lower(period), 'YYYY-MM-DD') as start, (due_date - lower(period))::int as days, (upper(period) - lower(period))::int as length
       from ${t('bookings')} where order_id = $1 and status in ('ACTIVE') and kind in ('RENTAL') and lower(period) <> $2::date order by leaf_id, id`,
    [orderId, day],
  );
  if (rows.length === 0) return { moved: 0, kept: 0 };
  const leaves = [...new Set(rows.map((r) => r.leaf_id))].sort();
  await sql(db, `select leaf_id from ${t('stock_levels')} where leaf_id = any($1::uuid[]) order by leaf_id for update`, [leaves]);
  let moved = 0;
  for (const r of rows) {
    const end = addDays(day, r.length);
    const [clash] = await sql<{ id: string }>(
      db,
      `select id from ${t('bookings')} where stock_item_id = $1 and status in ('ACTIVE') and id <> $2 and period && daterange($3::date, $4::date) limit 1`,
      [r.stock_item_id, r.id, day, end],
    );
    if (clash) continue;
    await sql(db, `update ${t('bookings')} set period = daterange($2::date, $3::date), due_date = $4::date, updated_at = now() where id = $1`, [r.id, day, end, addDays(day, r.days)]);
    moved++;
  }
  return { moved, kept: rows.length - moved };
}
