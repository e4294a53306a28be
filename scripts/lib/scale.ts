/**
 * A year of a busy regional DME supplier (issue 30, part 4), written straight in SQL in the
 * services' own tables — for `npm run bench -- scale` and, on a small sample, for the test that
 * checks it holds the invariants the replicas suite checks.
 *
 * At scale 1: 10,000 products (half for rent; one in five in three variants, each with its own
 * price, units and stock level, half of those with two sub-variants under the last variant),
 * 100,000 serial-numbered units, 200,000 customers
 * and 1,000,000 orders over the 365 days before `endDay`, each with its lines, tracker, payment
 * (with its records, mirrored in the order service) and the reporting read model. Seeded and
 * reproducible: every choice is an md5 of the seed, a name and the row's number, so the same
 * seed and end day write the same rows.
 *
 * Orders older than two weeks (purchases) or six weeks (rentals) are finished (DELIVERED,
 * COMPLETED); newer ones spread over every status of their process; one in fifty is CANCELLED,
 * most before any payment, one in three while its first payment was being taken (issue 22's race:
 * the payment owed back whole, REFUND_DUE, a numbered refund of kind CANCELLED paid back a day
 * later, REFUNDED, but for one in four still due). A purchase is paid in full when it leaves PENDING/FOR_PAYMENT; a rental pays
 * its first day then, and the rest when COMPLETED. One customer (the first) has one order in a
 * thousand besides her share: a long "my orders" list to page through.
 *
 * Rentals book `quantity` units per line (catalog bookings) as the catalog books them at checkout:
 * units free from the day the rental was placed, the leaf's first by serial code first; a unit is
 * free again once back and through its product's turnaround, so units go out many times a year (a
 * line that finds too few free waits unbooked). The units of a rental packed are RENTED to it and
 * its lines hold the units' serials; a rental back has its bookings cut at the return, its serials
 * returned OK and its units back on the shelf (AVAILABLE, still naming it); but one line in twenty
 * of a rental back has its first unit come back DAMAGED (one in four of those LOST), charged the
 * line's damage or lost fee, then mended as staff would (MEND): a damaged unit's repair opened the
 * next day (a work order) and closed repaired, back in service, or scrapped; a lost one found
 * (cleaned, inspected, put away) or written off; a unit back in service goes out again. A rental bought out has its bookings ended that day
 * and its units SOLD to its customer.
 *
 * The events' history as a running shop holds it: the order and payment events of the last week in
 * their publishers' outboxes (published: orders placed and moved on, payments taken, refunds paid
 * back), and the ids of the last two weeks' in each consumer's inbox (platform housekeeping purges
 * older ones). Nothing is paid, paid back or delivered after the year's end.
 *
 * The units' chains of custody as the catalog writes them: every order remembered (number, type,
 * customer), every unit STOCKED, and the units of rentals RESERVED when placed, then packed, out
 * for delivery, delivered and picked up as far as their order has gone; a rental back's units
 * RETURNED, cleaned, inspected (its checklist passed) and put away; a rental bought out's units
 * BOUGHT_OUT by its customer.
 *
 * Rental money (issue 29): one rental product in four asks a deposit of 500.00 a unit and a late
 * fee of 50.00 a unit a day after a day's grace, at most 500.00 a unit. The deposit is taken with
 * the rental's first payment and held. One rental back in five came back some days after it was
 * due; the late fees counted for its lines under those terms are charged when its full payment is
 * asked for, less what staff waived (one late rental in ten has half of them waived, with the
 * waiver's reason, who and when). With the fees of its units marked DAMAGED or LOST, they make the
 * rental's charges. The deposit pays the charges first; what is left of it is owed
 * back: a numbered refund, paid back an hour after the rental's full payment (COMPLETED) or still
 * due (FOR_FULL_PAYMENT); what it does not cover is added to the balance.
 *
 * Billing cycles (issue 29): one rental product in three of the others bills a rental over 30 days
 * per 30-day cycle. One rental in eight runs 31 to 120 days on those products: the order and its
 * payment are billed by cycles from the day it was delivered; each cycle due while it was out is
 * paid on its day (a CYCLE record with its number, in the payment, the order's copy and reporting)
 * but for one rental in five still out, whose last cycle due is not paid yet,
 * its full payment at the return is what the cycles left (often 0.00), and it is COMPLETED only
 * some days after its days ran out. Payments carry the overall total as the service keeps it
 * (none before a payment, 0 while only the first payment and cycles are taken).
 *
 * Rent-to-own (issue 29): half the products billed by cycles are rent-to-own (a unit's sale price
 * 60 days of its rent, half the rent paid credited). One rental in three COMPLETED on such lines
 * only was bought out instead of coming back: while DELIVERED, after half its cycles, for what
 * contracts `orderBuyOut` prices it (a BUYOUT record; the payment PAID and the customer's, its
 * overall total what it paid; no return, no full payment).
 *
 * Not generated yet: the units of purchases (SOLD, with their serials and custody). A year of
 * purchases sells far more units than the 100,000 stocked, so it needs restocking through the year
 * (Add Stock as units sell), which the sizes above do not yet count.
 */
import pg from 'pg';
import { chargedAtReturn, CUSTODY_OF_TRIGGER, CYCLE_DAYS, EVENT_DATA, EventEnvelope, FULL_PAYMENT_DUE_DAYS, ORDER_STATUSES, PAYMENT_RANK, RETURN_STATUSES, RETURN_TRIGGER, STOCK_ITEM_MOVES, STOCK_STATUS_INVENTORY, stockMoveTarget, type EventType, type StockTrigger, type RentalTermsWire } from '@dme/contracts';
import { keptCountsDriftSql, paddedNumberSql, PURGE_DEFAULTS } from '@dme/platform';
import { USER_COUNTS } from '@dme/identity';
import { ORDER_COUNTS, ORDER_PAYMENT_COUNTS } from '@dme/order';
import { PAYMENT_COUNTS } from '@dme/payment';

export interface ScaleOptions {
  /** 1 = the full year (1,000,000 orders); 0.001 = a thousandth of every count. */
  scale: number;
  seed: number;
  /** The Manila day the year ends on (its last orders are placed that day). */
  endDay: string;
  /** The password every generated customer signs in with: its scrypt/argon hash as identity stores it. */
  passwordHash: string;
  log?: (m: string) => void;
}

export interface ScaleSizes {
  products: number;
  units: number;
  customers: number;
  orders: number;
}

export function scaleSizes(scale: number): ScaleSizes {
  const products = 2 * Math.max(2, Math.round((10_000 * scale) / 2));
  return { products, units: 10 * products, customers: Math.max(10, Math.round(200_000 * scale)), orders: Math.max(20, Math.round(1_000_000 * scale)) };
}

/** The generated customer number n's sign-in name (n from 1). */
export const scaleUsername = (n: number) => `scale${n}`;

const CATEGORIES = ['Wheelchair', 'Hospital Bed', 'Oxygen Concentrator', 'Walker', 'Nebulizer', 'Commode Chair', 'Crutches', 'Patient Lift', 'CPAP Machine', 'Rollator'];
const BRANDS = ['Invacare', 'Drive Medical', 'Medline', 'Philips', 'ResMed', 'Sunrise', 'Hoyer', 'Lumex', 'Graham-Field', 'Omron', 'Karma', 'Roscoe'];

/** The statuses generated orders are spread over, by type (every status of each process). */
const PURCHASE_FLOW = ['PENDING', 'FOR_PAYMENT', 'PREPARING', 'TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED'];
const RENTAL_FLOW = ['PENDING', 'FOR_PAYMENT', 'PREPARING', 'TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP', 'FOR_FULL_PAYMENT', 'COMPLETED'];
for (const s of [...PURCHASE_FLOW, ...RENTAL_FLOW]) if (!(ORDER_STATUSES as readonly string[]).includes(s)) throw new Error(`not an order status: ${s}`);

/** Rentals whose units are booked (under way), and of those the ones whose units are out with the customer. */
const BOOKED = ['PREPARING', 'TO_SHIP', 'OUT_FOR_DELIVERY', 'DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP'];
const OUT = ['DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP'];
/** Rentals whose units are packed (PREPARING → TO_SHIP scans them: RENTED to the order), and of those the ones a driver has taken. */
const PACKED = ['TO_SHIP', 'OUT_FOR_DELIVERY', ...OUT];
const TAKEN = ['OUT_FOR_DELIVERY', ...OUT];

/** Days of published events the outboxes keep, and of handled ids the inboxes keep (platform PURGE_DEFAULTS). */
const OUTBOX_DAYS = PURGE_DEFAULTS.outboxDays;
const INBOX_DAYS = PURGE_DEFAULTS.inboxDays;

/**
 * The durable consumers of the order and payment events, by subject prefix, with the schema whose
 * inbox records what they handled (as the services name them: catalog consumers/orders.ts,
 * payment consumers/orders.ts, reporting consumers/events.ts, identity messages/notify.ts, order
 * consumers/payments.ts).
 */
const CONSUMERS: Record<string, { publisher: string; consumers: Array<[schema: string, durable: string]> }> = {
  'dme.order.': { publisher: 'ordering', consumers: [['catalog', 'catalog-orders'], ['payment', 'payment-orders'], ['reporting', 'reporting-orders'], ['identity', 'identity-mail-order']] },
  'dme.payment.': { publisher: 'payment', consumers: [['ordering', 'order-payment'], ['reporting', 'reporting-payments'], ['identity', 'identity-mail-payment']] },
};

/**
 * One product in five comes in three variants (sizes), by its number `i` (SQL): one pair of a
 * rental product and a product for sale in each five pairs, a different one in each next five, so
 * both kinds and every category have some. The first variant is at the product's price and damage
 * fee, the others dearer (their own price, half of it the damage fee). The product's ten units are
 * split among them (units 1, 4, 7, 10 the first; 2, 5, 8 the second; 3, 6, 9 the third), each
 * variant a batch of its own and a leaf of the stock ledger.
 */
const VARIANT_PRODUCT = (i: string) => `(${i} + 1) / 2 % 5 = (${i} + 1) / 2 / 5 % 5`;
const VARIANTS: ReadonlyArray<{ name: string; factor: number | null }> = [
  { name: 'Standard', factor: null },
  { name: 'Wide', factor: 1.2 },
  { name: 'Bariatric', factor: 1.5 },
];
/**
 * One pair of products in variants in two (by a product's number `i`, SQL: the pair's number even, so
 * rentals and sales alike) has sub-variants under its last variant
 * (Bariatric): Manual and Electric, each with its own price and damage fee (the product's price
 * times the factor, half of it the fee); that variant is then priced by them (no price of its own,
 * as the catalog keeps it). Its three units are split between them: its first and third unit the
 * first sub-variant, its second the other, each a batch of its own and a leaf of the stock ledger.
 */
const SUB_VARIANT_PRODUCT = (i: string) => `${VARIANT_PRODUCT(i)} and (${i} + 1) / 2 % 2 = 0`;
const SUB_VARIANTS: ReadonlyArray<{ name: string; factor: number }> = [
  { name: 'Manual', factor: 1.5 },
  { name: 'Electric', factor: 2 },
];
/** The position of the variant that has the sub-variants (the last). */
const SUB_OF = VARIANTS.length - 1;
/** A product's variants (SQL, product id `p`) as the order service's read model keeps them (order readmodels/products.ts). */
const ORDER_VARIANTS = (p: string) => `coalesce((select jsonb_agg(jsonb_build_object('id', v.id, 'name', v.name, 'price', v.price::text, 'damageCharges', v.damage_charges::text,
      'subVariants', coalesce((select jsonb_agg(jsonb_build_object('id', sv.id, 'name', sv.name, 'price', sv.price::text, 'damageCharges', sv.damage_charges::text) order by sv.position)
                                 from catalog.sub_variants sv where sv.variant_id = v.id), '[]'::jsonb)) order by v.position)
    from catalog.variants v where v.product_id = ${p}), '[]'::jsonb)`;
/**
 * Every price a customer can pick of product `p` (SQL alias) that has variants: each sub-variant, and
 * each variant without them, at its level's price (catalog leafPrices and contracts levelPrice: the
 * sub-variant's own, else the variant's, else the product's).
 */
const PICKABLE_PRICES = (p: string) => `select coalesce(sv.price, v.price, ${p}.price) as price
    from catalog.variants v left join catalog.sub_variants sv on sv.variant_id = v.id where v.product_id = ${p}.id`;
/** The rental products that ask a deposit and late fees (one in four), by their number `i` (SQL). */
const DEPOSIT_PRODUCT = (i: string) => `${i} % 2 = 1 and pg_temp.h('deposit', ${i}) % 4 = 0`;
const DEPOSIT_TERMS: RentalTermsWire = { deposit: { kind: 'FIXED', amount: '500.00' }, lateFeePerDay: '50.00', graceDays: 1, lateFeeCap: { kind: 'AMOUNT', amount: '500.00' } };
/**
 * A line's late fees (SQL) when its units came back `late` days after its due date, under the terms
 * it was placed with (`terms`, the wire form): each unit's late days past the grace at the daily fee,
 * capped per unit (contracts rental-money `unitLateFeeCents`; the generator writes only amount caps).
 */
const LINE_LATE_FEES = (terms: string, quantity: string, late: string) =>
  `coalesce(${quantity} * least(greatest(0, ${late} - (${terms} ->> 'graceDays')::int) * (${terms} ->> 'lateFeePerDay')::numeric,
                             coalesce((${terms} -> 'lateFeeCap' ->> 'amount')::numeric, 'infinity'::numeric)), 0)`;
/**
 * The rental products billed per 30-day cycle (issue 29's terms, billing CYCLES; no deposit), by
 * their number `i` (SQL): one in three of those that ask no deposit.
 */
const CYCLES_PRODUCT = (i: string) => `${i} % 2 = 1 and not (${DEPOSIT_PRODUCT(i)}) and pg_temp.h('cycles', ${i}) % 3 = 0`;
const CYCLES_TERMS: RentalTermsWire = { deposit: null, lateFeePerDay: '0.00', graceDays: 0, lateFeeCap: null, billing: 'CYCLES' };
/**
 * Half the products billed by cycles are rent-to-own (by their number `i`, SQL): a unit's sale price
 * 60 days of its rent, half the rent paid credited, the customer's after 12 paid cycles (more than a
 * generated rental runs: none becomes the customer's by its cycles).
 */
const OWNABLE_PRODUCT = (i: string) => `pg_temp.h('own', ${i}) % 2 = 0`;
const RENT_TO_OWN = { saleDays: 60, creditPercent: 50, afterCycles: 12 };
/** The rentals on rent-to-own lines only (every line) bought out (SQL, by the order's number `i`): one in three of those COMPLETED. */
const BOUGHT_OUT = (i: string) => `pg_temp.h('buy-out', ${i}) % 3 = 0`;
/**
 * A long rental's days (SQL, by its order's number `i`): one rental in eight runs 31 to 120 days, on
 * products billed by cycles (every line the same days), so it is billed per 30-day cycle (contracts
 * rental-money `orderBilling`); null for the others (1 to 30 days a line).
 */
const LONG_DAYS = (i: string) => `case when pg_temp.h('long', ${i}) % 8 = 0 then (31 + pg_temp.h('long-days', ${i}) % 90)::int end`;
/** How many days after it was due a rental back came back (SQL, by its order's number `i`): one in five 1 to 12 days, the rest on time. */
const LATE = (i: string) => `case when pg_temp.h('late', ${i}) % 5 = 0 then 1 + pg_temp.h('late-days', ${i}) % 12 else 0 end`;
/** The year's end (SQL): the Manila midnight after its end day (`endDay`, a date expression). */
const yearEnd = (endDay: string) => `(${endDay}::date + 1)::timestamp at time zone 'Asia/Manila'`;
/**
 * When a rental back was asked for its full payment (SQL, from its placing time, a long rental's days
 * and the year's end day): 30 days after it was placed (a long rental: two days after its days), or
 * at four fifths of its age if younger.
 */
const ASKED = (t: string, longDays: string, endDay: string) =>
  `${t} + least(make_interval(days => coalesce(${longDays}, 28) + 2), (${yearEnd(endDay)} - ${t}) * 0.8)`;
/**
 * When a rental back paid in full (SQL): five days after it was asked, or halfway from then to the
 * year's end if that is sooner (a young rental COMPLETED never pays in the future).
 */
const FULLY_PAID = (t: string, longDays: string, endDay: string) =>
  `${ASKED(t, longDays, endDay)} + least(interval '5 days', (${yearEnd(endDay)} - (${ASKED(t, longDays, endDay)})) / 2)`;
/** When the rest of its deposit was paid back (SQL, from when it paid in full): an hour later, or halfway to the year's end. */
const REFUNDED = (paid: string, endDay: string) => `${paid} + least(interval '1 hour', (${yearEnd(endDay)} - ${paid}) / 2)`;
/** Rentals back: their full payment asked for, the deposit settled against the charges. */
const RETURNED = ['FOR_FULL_PAYMENT', 'COMPLETED'];
/**
 * The orders cancelled while their first payment was being taken (issue 22's race), by their
 * number `i` (SQL): one cancellation in three. The payment is owed back whole (REFUND_DUE), and
 * paid back a day after (REFUNDED) but for one in four, still due (the customer's bank details
 * awaited).
 */
const CANCELLED_PAID = (i: string) => `pg_temp.h('cancel-paid', ${i}) % 3 = 0`;
const REFUND_WAITS = (i: string) => `pg_temp.h('refund-waits', ${i}) % 4 = 0`;
/** Payments owed back or paid back: their order was cancelled after they were taken. */
const OWED_BACK = ['REFUND_DUE', 'REFUNDED'];
/**
 * When a cancelled order's payment was taken (SQL, from its placing time): a minute before the
 * cancellation (an hour after it was placed), the race; any other first payment half an hour
 * after it was placed.
 */
const FIRST_PAID = (t: string, payStatus: string) => `${t} + case when ${payStatus} = any(${sqlList(OWED_BACK)}) then interval '59 minutes' else interval '30 minutes' end`;
/** When it was paid back (SQL, from its placing time): a day after the cancellation, or halfway to the year's end. */
const CANCEL_REFUNDED = (t: string, endDay: string) => `${t} + interval '1 hour' + least(interval '1 day', (${yearEnd(endDay)} - (${t} + interval '1 hour')) / 2)`;

const sqlList = (xs: readonly string[]) => `array[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(',')}]`;
/** The marks a unit comes back with that charge its line's damage or lost fee (contracts `chargedAtReturn`). */
const CHARGED_MARKS = RETURN_STATUSES.filter(chargedAtReturn);
/** The status a unit comes back in with its mark (SQL, from a return mark; contracts `RETURN_TRIGGER`): RETURNED when OK, else as marked. */
const RETURNED_STATUS = (mark: string) => `case ${mark} ${RETURN_STATUSES.map((m) => `when '${m}' then '${stockMoveTarget(RETURN_TRIGGER[m])}'`).join(' ')} end`;
/** The generator's two marks, each one the rule charges (the choice between them is the data's, not a rule). */
const [LOST_MARK, DAMAGED_MARK] = (['LOST', 'DAMAGED'] as const).map((m) => {
  if (!chargedAtReturn(m)) throw new Error(`the scale generator marks units ${m}, which is not charged at the return`);
  return m;
});
/**
 * What becomes of a unit marked at the return (SQL, from a scale_rentals row `x`): a DAMAGED one has a repair
 * opened the next day and closed 3-10 days after its return, one in five scrapped (else repaired, back in
 * service); a LOST one in three is found 5-14 days after its return (then cleaned, inspected and put away, an
 * hour each), the rest written off 30 days after it. Answers the trigger that ends it and when.
 */
const MEND = (x: string) => {
  const trigger = `case ${x}.mark when '${DAMAGED_MARK}' then case when pg_temp.h('scrap', ${x}.i * 2 + ${x}.n) % 5 = 0 then 'scrapped' else 'repaired' end
                          when '${LOST_MARK}' then case when pg_temp.h('found', ${x}.i * 2 + ${x}.n) % 3 = 0 then 'found' else 'writtenOff' end end`;
  const days = `case ${trigger} when 'found' then 5 + pg_temp.h('repair', ${x}.i * 2 + ${x}.n) % 10 when 'writtenOff' then 30 else 3 + pg_temp.h('repair', ${x}.i * 2 + ${x}.n) % 8 end`;
  return { trigger, at: `${x}.returned + (${days}) * interval '1 day'` };
};
/** A repair work order's outcome, by the trigger that closed it (contracts units `outcome`; the custody entry's condition too). */
const REPAIR_OUTCOME: Partial<Record<StockTrigger, 'REPAIRED' | 'SCRAPPED'>> = { repaired: 'REPAIRED', scrapped: 'SCRAPPED' };
/** The steps of a mend, in order: the trigger, how long after the mend's own time (a repair's opening is the day after the return), and whether the mend takes it. */
const MEND_STEPS: Array<{ k: number; trigger: StockTrigger; at: (b: string) => string; when: (b: string) => string }> = [
  { k: 1, trigger: 'repairOpened', at: (b) => `${b}.returned + interval '1 day'`, when: (b) => `${b}.unit_mark = '${DAMAGED_MARK}'` },
  ...(['repaired', 'scrapped', 'found', 'writtenOff'] as const).map((t) => ({ k: 2, trigger: t, at: (b: string) => `${b}.mend_at`, when: (b: string) => `${b}.mend = '${t}'` })),
  ...(['cleaned', 'inspectedOk', 'putAway'] as const).map((t, n) => ({ k: 3 + n, trigger: t, at: (b: string) => `${b}.mend_at + interval '${n + 1} hours'`, when: (b: string) => `${b}.mend = 'found'` })),
];
/** Each stock-item move as SQL rows (from status, to status, the custody entry it writes): contracts STOCK_ITEM_MOVES, CUSTODY_OF_TRIGGER. */
const MOVES_SQL = `(values ${STOCK_ITEM_MOVES.map((m) => `('${m.from}', '${m.to}', '${CUSTODY_OF_TRIGGER[m.trigger]}', '${m.trigger}')`).join(', ')}) as mv(from_status, to_status, kind, trigger)`;

/** Writes the year into a database whose five schemas are migrated. Answers the sizes written. */
export async function generateYear(databaseUrl: string, opts: ScaleOptions): Promise<ScaleSizes> {
  const size = scaleSizes(opts.scale);
  const log = opts.log ?? (() => undefined);
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const step = async (what: string, text: string, params: unknown[] = []) => {
      const t = performance.now();
      const r = await c.query(text, params);
      log(`  scale: ${what}: ${r.rowCount ?? 0} rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    };
    await c.query('set synchronous_commit = off');
    // h(name, n): a number in [0, 2^32) chosen by the seed, a name and a row's number.
    await c.query(`create function pg_temp.h(name text, n bigint) returns bigint language sql immutable parallel safe as
      $$ select ('x' || substr(md5('${opts.seed}:' || name || ':' || n), 1, 8))::bit(32)::bigint $$`);
    // u(name, n): a version-4 UUID chosen the same way (the API's checks refuse other versions).
    await c.query(`create function pg_temp.u(name text, n bigint) returns uuid language sql immutable parallel safe as
      $$ select overlay(overlay(md5('${opts.seed}:' || name || ':' || n) placing '4' from 13) placing '8' from 17)::uuid $$`);
    // The units of a product (its number pn) at a leaf: vi the variant's index (null: no variants), si the
    // sub-variant's (null: none); the leaf's j-th unit is unit number vunit(pn, vi, si, j); a leaf has
    // leafunits(vi, si) units. A variant's units are its product's every third; a sub-variant's its variant's every other.
    await c.query(`create function pg_temp.vunit(pn bigint, vi int, si int, j int) returns bigint language sql immutable parallel safe as
      $$ select (pn - 1) * 10 + case when vi is null then j
                                     else vi + 1 + ${VARIANTS.length} * (case when si is null then j else si + 1 + ${SUB_VARIANTS.length} * (j - 1) end - 1) end $$`);
    await c.query(`create function pg_temp.leafunits(vi int, si int) returns int language sql immutable parallel safe as
      $$ select case when vi is null then 10 when si is null then (10 - vi + ${VARIANTS.length} - 1) / ${VARIANTS.length}
                     else ((10 - vi + ${VARIANTS.length} - 1) / ${VARIANTS.length} - si + ${SUB_VARIANTS.length} - 1) / ${SUB_VARIANTS.length} end $$`);
    // The sub-variant (its index, or null) of a product's unit k (its number among all units) at variant vi.
    await c.query(`create function pg_temp.unitsub(pn bigint, vi int, k bigint) returns int language sql immutable parallel safe as
      $$ select case when vi = ${SUB_OF} and ${SUB_VARIANT_PRODUCT('pn')} then (((k - 1) % 10 / ${VARIANTS.length}) % ${SUB_VARIANTS.length})::int end $$`);
    /** The moment `days` days before the year's end, from two parameters (the end day, the days). */
    const since = (day: string, days: string) => `${yearEnd(day)} - make_interval(days => ${days}::int)`;
    const P = size.products;
    const C = size.customers;
    const O = size.orders;

    // ---- catalog: products (odd numbers for rent, even for sale), bins, one batch of 10 units each
    await step(
      'catalog products',
      `insert into catalog.products (id, name, brand, description, type, image, price, damage_charges, price_min, price_max, created_at, updated_at)
       select pg_temp.u('product', i), (${sqlList(CATEGORIES)})[1 + i % ${CATEGORIES.length}] || ' ' || (${sqlList(['Classic', 'Pro', 'Lite', 'Plus', 'Max', 'Care'])})[1 + pg_temp.h('model', i) % 6] || ' ' || i,
              (${sqlList(BRANDS)})[1 + pg_temp.h('brand', i) % ${BRANDS.length}], 'Durable medical equipment, model ' || i,
              case when i % 2 = 1 then 'FOR_RENT' else 'FOR_SALE' end, '/api/uploads/' || md5('image' || i) || '.png', x.price, round(x.price / 2, 2), x.price, x.price,
              $2::date - 400, $2::date - 400
         from generate_series(1, $1::int) i
         cross join lateral (select case when i % 2 = 1 then 10 + pg_temp.h('price', i) % 490 else 100 + pg_temp.h('price', i) % 4900 end::numeric(12,2) as price) x`,
      [P, opts.endDay],
    );
    // One rental product in four asks a deposit per unit (issue 29's terms, no late fee).
    await step(
      'rental terms (deposits)',
      `update catalog.products set rental_terms = $2::jsonb where id = any(select pg_temp.u('product', i) from generate_series(1, $1::int) i where ${DEPOSIT_PRODUCT('i')})`,
      [P, JSON.stringify(DEPOSIT_TERMS)],
    );
    // One in three of the others bills a rental over 30 days per 30-day cycle (issue 29), half of those rent-to-own.
    await step(
      'rental terms (billing cycles)',
      `update catalog.products p set rental_terms = case when ${OWNABLE_PRODUCT('x.i')}
              then $2::jsonb || jsonb_build_object('rentToOwn', jsonb_build_object('salePrice', (p.price * $3::int)::numeric(12,2)::text, 'creditPercent', $4::int, 'afterCycles', $5::int))
              else $2::jsonb end
         from generate_series(1, $1::int) x(i) where p.id = pg_temp.u('product', x.i) and ${CYCLES_PRODUCT('x.i')}`,
      [P, JSON.stringify(CYCLES_TERMS), RENT_TO_OWN.saleDays, RENT_TO_OWN.creditPercent, RENT_TO_OWN.afterCycles],
    );
    // The products a long rental's lines choose from, numbered from 0.
    await c.query(`create temporary table scale_cycle_products as
      select (row_number() over (order by i) - 1)::int as k, i as pn from generate_series(1, $1::int) i where ${CYCLES_PRODUCT('i')}`, [P]);
    await c.query('alter table scale_cycle_products add primary key (k); analyze scale_cycle_products');
    const cycleProducts = Number(((await c.query('select count(*)::int as n from scale_cycle_products')).rows[0] as { n: number }).n);
    await step(
      'variants',
      `insert into catalog.variants (id, product_id, name, position, price, damage_charges, created_at)
       select pg_temp.u('variant', (i - 1) * ${VARIANTS.length} + v.n - 1), p.id, v.name, v.n - 1,
              case when not (v.n - 1 = ${SUB_OF} and ${SUB_VARIANT_PRODUCT('i')}) then round(p.price * v.factor, 2) end,
              case when not (v.n - 1 = ${SUB_OF} and ${SUB_VARIANT_PRODUCT('i')}) then round(p.price * v.factor / 2, 2) end, p.created_at
         from generate_series(1, $1::int) i join catalog.products p on p.id = pg_temp.u('product', i)
         cross join unnest($2::text[], $3::numeric[]) with ordinality v(name, factor, n)
        where ${VARIANT_PRODUCT('i')}
        order by i, v.n`,
      [P, VARIANTS.map((v) => v.name), VARIANTS.map((v) => v.factor)],
    );
    await step(
      'sub-variants',
      `insert into catalog.sub_variants (id, variant_id, name, position, price, damage_charges, created_at)
       select pg_temp.u('sub-variant', (i - 1) * ${SUB_VARIANTS.length} + s.n - 1), pg_temp.u('variant', (i - 1) * ${VARIANTS.length} + ${SUB_OF}), s.name, s.n - 1,
              round(p.price * s.factor, 2), round(p.price * s.factor / 2, 2), p.created_at
         from generate_series(1, $1::int) i join catalog.products p on p.id = pg_temp.u('product', i)
         cross join unnest($2::text[], $3::numeric[]) with ordinality s(name, factor, n)
        where ${SUB_VARIANT_PRODUCT('i')}
        order by i, s.n`,
      [P, SUB_VARIANTS.map((v) => v.name), SUB_VARIANTS.map((v) => v.factor)],
    );
    // The range the shop shows: what a customer can pick (catalog writePriceRange).
    await step(
      'variant price ranges',
      `update catalog.products p set (price_min, price_max) = (select min(x.price), max(x.price) from (${PICKABLE_PRICES('p')}) x)
        where p.id = any(select pg_temp.u('product', i) from generate_series(1, $1::int) i) and exists (select 1 from catalog.variants v where v.product_id = p.id)`,
      [P],
    );
    await step(
      'warehouse bins',
      `insert into catalog.warehouse_bins (id, name, description, created_at, updated_at) select pg_temp.u('bin', i), 'Y-' || lpad(i::text, 2, '0'), 'Scale bin ' || i, $1::date - 400, $1::date - 400 from generate_series(1, 20) i`,
      [opts.endDay],
    );
    await step(
      'stock batches',
      `insert into catalog.stock_batches (id, product_id, variant_id, sub_variant_id, warehouse_bin_id, quantity, created_at)
       select pg_temp.u('batch', i), pg_temp.u('product', i), null::uuid, null::uuid, pg_temp.u('bin', 1 + i % 20), 10, $2::date - 400 from generate_series(1, $1::int) i where not (${VARIANT_PRODUCT('i')})
       union all
       select pg_temp.u('batch-variant', (i - 1) * $3::int + vi), pg_temp.u('product', i), pg_temp.u('variant', (i - 1) * $3::int + vi), null::uuid, pg_temp.u('bin', 1 + i % 20), pg_temp.leafunits(vi, null), $2::date - 400
         from generate_series(1, $1::int) i cross join generate_series(0, $3::int - 1) vi where ${VARIANT_PRODUCT('i')} and not (vi = ${SUB_OF} and ${SUB_VARIANT_PRODUCT('i')})
       union all
       select pg_temp.u('batch-sub-variant', (i - 1) * $4::int + si), pg_temp.u('product', i), pg_temp.u('variant', (i - 1) * $3::int + ${SUB_OF}), pg_temp.u('sub-variant', (i - 1) * $4::int + si),
              pg_temp.u('bin', 1 + i % 20), pg_temp.leafunits(${SUB_OF}, si), $2::date - 400
         from generate_series(1, $1::int) i cross join generate_series(0, $4::int - 1) si where ${SUB_VARIANT_PRODUCT('i')}`,
      [P, opts.endDay, VARIANTS.length, SUB_VARIANTS.length],
    );
    await step(
      'units (serials)',
      `insert into catalog.stock_items (id, serial_code, product_id, variant_id, sub_variant_id, warehouse_bin_id, batch_id, status, inventory_type, created_at, updated_at, status_since, serviced_on)
       select pg_temp.u('unit', k), 'YR' || lpad(k::text, 8, '0'), pg_temp.u('product', x.pn), pg_temp.u('variant', (x.pn - 1) * $3::int + x.vi),
              pg_temp.u('sub-variant', (x.pn - 1) * $4::int + x.si), pg_temp.u('bin', 1 + (x.pn + 1) % 20),
              case when x.vi is null then pg_temp.u('batch', x.pn) when x.si is not null then pg_temp.u('batch-sub-variant', (x.pn - 1) * $4::int + x.si)
                   else pg_temp.u('batch-variant', (x.pn - 1) * $3::int + x.vi) end, 'AVAILABLE', 'IN',
              $2::date - 400, $2::date - 400, $2::date - 400, $2::date - 400
         from generate_series(1, $1::int) k
         cross join lateral (select 1 + (k - 1) / 10 as pn) p
         cross join lateral (select p.pn, case when ${VARIANT_PRODUCT('p.pn')} then ((k - 1) % 10 % $3::int)::int end as vi) v
         cross join lateral (select v.pn, v.vi, pg_temp.unitsub(v.pn, v.vi, k) as si) x`,
      [size.units, opts.endDay, VARIANTS.length, SUB_VARIANTS.length],
    );

    // ---- the product read models (order and reporting)
    await step(
      'order products',
      `insert into ordering.products (id, name, brand, image, type, price, damage_charges, variants, updated_at)
       select p.id, p.name, p.brand, p.image, p.type, p.price, p.damage_charges, ${ORDER_VARIANTS('p.id')}, p.updated_at
         from catalog.products p where p.id = any(select pg_temp.u('product', i) from generate_series(1, $1::int) i)`,
      [P],
    );
    await step(
      'reporting products',
      `insert into reporting.products (id, brand, name, version) select id, brand, name, 1 from catalog.products where id = any(select pg_temp.u('product', i) from generate_series(1, $1::int) i)`,
      [P],
    );

    // ---- customers: identity's accounts and the order service's read model
    await step(
      'customers',
      `insert into identity.users (id, id_number, username, password_hash, first_name, last_name, birth_date, gender, contact_number, email, address, city, state, zipcode, image, status, user_type, created_at, updated_at, email_verified_at)
       select pg_temp.u('customer', i), 'YR-' || lpad(i::text, 8, '0'), 'scale' || i, $2, (${sqlList(['Maria', 'Jose', 'Ana', 'Juan', 'Rosa', 'Pedro', 'Liza', 'Mark'])})[1 + pg_temp.h('first', i) % 8],
              (${sqlList(['Santos', 'Reyes', 'Cruz', 'Bautista', 'Garcia', 'Mendoza', 'Torres', 'Flores'])})[1 + pg_temp.h('last', i) % 8] || ' ' || i,
              date '1950-01-01' + (pg_temp.h('born', i) % 18000)::int, case when i % 2 = 0 then 'FEMALE' else 'MALE' end, '09' || lpad((i % 1000000000)::text, 9, '0'),
              'scale' || i || '@example.com', 'B' || (i % 900 + 1), (${sqlList(['Manila', 'Quezon City', 'Makati', 'Pasig', 'Taguig'])})[1 + i % 5], 'Metro Manila', lpad((1000 + i % 800)::text, 4, '0'), '',
              'ACTIVE', 'CUSTOMER', $3::date - 400, $3::date - 400, $3::date - 400
         from generate_series(1, $1::int) i`,
      [C, opts.passwordHash, opts.endDay],
    );
    await step(
      'order customers',
      `insert into ordering.customers (id, id_number, username, first_name, middle_name, last_name, suffix, email, contact_number, user_type, status, updated_at)
       select id, id_number, username, first_name, middle_name, last_name, suffix, email, contact_number, user_type, status, updated_at from identity.users where id_number like 'YR-%'`,
    );

    // ---- orders: placed evenly over the year, status by age
    await c.query(`create temporary table scale_orders as
      select i, pg_temp.u('order', i) as id, t, type, customer_no, status, pay_status, lines, long_days,
             to_char(t at time zone 'Asia/Manila', 'YYYYMMDD') as day,
             -- when it was (or would be) delivered: two days after it was placed, or half its age if younger
             t + least(interval '2 days', a.age / 2) as delivered
        from (select i, ${yearEnd('$2')} - interval '365 days' + (i - 1)::double precision / $1 * interval '365 days' as t,
                     case when pg_temp.h('type', i) % 2 = 0 then 'RENT' else 'BUY' end as type,
                     case when i % 1000 = 0 then 1 else 1 + pg_temp.h('customer', i) % $3 end as customer_no,
                     1 + pg_temp.h('lines', i) % 2 as lines,
                     case when pg_temp.h('type', i) % 2 = 0 and $4::int > 0 then ${LONG_DAYS('i')} end as long_days
                from generate_series(1, $1::int) i) o
        cross join lateral (select (${yearEnd('$2')} - o.t) as age) a
        cross join lateral (select case
             when pg_temp.h('cancel', i) % 50 = 0 and a.age > interval '1 day' then 'CANCELLED'
             when o.type = 'BUY' and a.age > interval '14 days' then 'DELIVERED'
             when o.type = 'RENT' and a.age > make_interval(days => coalesce(o.long_days, 30) + 12) then 'COMPLETED'
             when o.type = 'BUY' then (${sqlList(PURCHASE_FLOW)})[1 + pg_temp.h('status', i) % ${PURCHASE_FLOW.length}]
             else (${sqlList(RENTAL_FLOW)})[1 + pg_temp.h('status', i) % ${RENTAL_FLOW.length}] end as status) s
        cross join lateral (select case
             when s.status = 'CANCELLED' and ${CANCELLED_PAID('i')} then case when ${REFUND_WAITS('i')} then 'REFUND_DUE' else 'REFUNDED' end
             when s.status = 'CANCELLED' then 'CANCELLED'
             when s.status in ('PENDING', 'FOR_PAYMENT') then 'PENDING'
             when o.type = 'BUY' or s.status = 'COMPLETED' then 'PAID'
             when s.status = 'FOR_FULL_PAYMENT' then 'FOR_FULL_PAYMENT'
             else 'INITIAL_PAYMENT' end as pay_status) p`, [O, opts.endDay, C, cycleProducts]);
    await c.query('create temporary table scale_lines as ' +
      `select o.id as order_id, o.i, n, pg_temp.u('line', o.i * 2 + n) as id, x.pn, pr.id as product_id, pr.name, pr.brand, pr.image,
              -- a product in variants: one of them (and of its sub-variants, if it has them), at its price and damage fee (contracts levelPrice, levelDamageCharges)
              v.vi, v.id as variant_id, v.name as variant_name, v.price as variant_price, sv.si, sv.id as sub_variant_id, sv.name as sub_variant_name, sv.price as sub_variant_price,
              coalesce(sv.price, v.price, pr.price) as price, coalesce(sv.damage_charges, v.damage_charges, pr.damage_charges) as damage_charges,
              1 + pg_temp.h('quantity', o.i * 2 + n) % 2 as quantity,
              case when o.type = 'RENT' then coalesce(o.long_days, 1 + pg_temp.h('days', o.i * 2 + n) % 30) end as days,
              case when o.type = 'RENT' then pr.rental_terms end as rental_terms,
              -- a rental's deposit, as its terms ask (the generator writes fixed amounts per unit: contracts rental-money lineDepositCents)
              case when o.type = 'RENT' and pr.rental_terms -> 'deposit' ->> 'kind' = 'FIXED'
                   then (1 + pg_temp.h('quantity', o.i * 2 + n) % 2) * (pr.rental_terms -> 'deposit' ->> 'amount')::numeric else 0 end as deposit
         from scale_orders o cross join generate_series(1, 2) n
         -- (the product's choice computed once a line, then joined: a filter on it would compute it for each candidate row)
         cross join lateral (select pg_temp.h('product', o.i * 2 + n) as hp) hh
         left join scale_cycle_products cp on o.long_days is not null and cp.k = hh.hp % $2::int
         cross join lateral (select case when o.long_days is not null then cp.pn else case when o.type = 'RENT' then 1 else 2 end + 2 * (hh.hp % ($1::int / 2)) end as pn) x
         join catalog.products pr on pr.id = pg_temp.u('product', x.pn)
         left join lateral (select cv.id, cv.name, cv.price, cv.damage_charges, cv.position as vi from catalog.variants cv
                             where cv.product_id = pr.id and cv.position = pg_temp.h('variant', o.i * 2 + n) % ${VARIANTS.length}) v on true
         left join lateral (select csv.id, csv.name, csv.price, csv.damage_charges, csv.position as si from catalog.sub_variants csv
                             where csv.variant_id = v.id and csv.position = pg_temp.h('sub-variant', o.i * 2 + n) % ${SUB_VARIANTS.length}) sv on true
        where n <= o.lines`, [P, Math.max(1, cycleProducts)]);
    await c.query('create temporary table scale_totals as select order_id, sum(quantity * price * coalesce(days, 1)) as total, sum(quantity * price) as first_day, sum(deposit) as deposit from scale_lines group by order_id');
    await c.query('analyze scale_orders; analyze scale_lines; analyze scale_totals');
    // Rent-to-own rentals bought out (issue 29, contracts rental-money `orderBuyOut`): while DELIVERED,
    // three days after it paid cycle m (half its cycles, rounded up; within the year), for each line its sale price
    // less the share of its rent paid (its days the m cycles cover) credited, rounded half up to the
    // cent (`shareCents`). Its rent ends there: no later cycle, no return, no full payment.
    // (One grouped pass over the lines: a sum per order would read them all for each.)
    await c.query(`create temporary table scale_bought as
      select o.id as order_id, o.i, d.m, (d.delivered_on + ${CYCLE_DAYS} * (d.m - 1) + 3 + time '10:00') at time zone 'Asia/Manila' as at,
             sum(greatest(0, (l.rental_terms -> 'rentToOwn' ->> 'salePrice')::numeric * l.quantity * 100
                             - floor((least(l.days, ${CYCLE_DAYS} * d.m) * l.price * l.quantity * 100 * (l.rental_terms -> 'rentToOwn' ->> 'creditPercent')::int * 100 + 5000) / 10000)))
               / 100 as amount
        from scale_orders o
        cross join lateral (select ((o.long_days + ${CYCLE_DAYS} - 1) / ${CYCLE_DAYS} + 1) / 2 as m, (o.delivered at time zone 'Asia/Manila')::date as delivered_on) d
        join scale_lines l on l.order_id = o.id
       where o.long_days is not null and o.status = 'COMPLETED' and ${BOUGHT_OUT('o.i')} and d.delivered_on + ${CYCLE_DAYS} * (d.m - 1) + 3 <= $1::date
       group by o.id, o.i, d.m, d.delivered_on
      having bool_and(jsonb_typeof(l.rental_terms -> 'rentToOwn') is not distinct from 'object')`, [opts.endDay]);
    await c.query('analyze scale_bought');
    // A long rental's billing cycles (contracts rental-money `billingCycles`, `cycleDue`): 30 days each
    // from its delivery day, each due on its first day; every line runs its days, so a cycle's rent is
    // its days at the rental's rent of a day (the first payment's), cycle 1 less that first day. The
    // cycles due while it was out are paid: on the day due (cycle 1 an hour after the delivery), up to
    // the year's end day, or for a rental back, before the day its full payment was asked for (a rental
    // bought out, up to its cycle m); but one rental in five still out has not paid its last cycle due
    // yet (its cycles show it DUE).
    await c.query(`create temporary table scale_cycles as
      select x.order_id, x.i, x.n, x.amount, x.at from (
      select o.id as order_id, o.i, o.status, n, max(n) over (partition by o.id) as last_due, (t.first_day * case when n = 1 then ${CYCLE_DAYS} - 1 else least(${CYCLE_DAYS}, o.long_days - ${CYCLE_DAYS} * (n - 1)) end)::numeric(12,2) as amount,
             case when n = 1 then o.delivered + least(interval '1 hour', (coalesce(d.asked, ${yearEnd('$1')}) - o.delivered) / 2)
                  else (d.delivered_on + ${CYCLE_DAYS} * (n - 1) + time '09:00') at time zone 'Asia/Manila' end as at
        from scale_orders o join scale_totals t on t.order_id = o.id left join scale_bought bo on bo.order_id = o.id
        cross join lateral (select (o.delivered at time zone 'Asia/Manila')::date as delivered_on,
                                   case when o.status = any(${sqlList(RETURNED)}) then ${ASKED('o.t', 'o.long_days', '$1')} end as asked) d
        cross join generate_series(1, (o.long_days + ${CYCLE_DAYS} - 1) / ${CYCLE_DAYS}) n
       where o.long_days is not null and o.status = any(${sqlList([...OUT, ...RETURNED])}) and n <= coalesce(bo.m, n)
         and d.delivered_on + ${CYCLE_DAYS} * (n - 1) <= coalesce(case when bo.order_id is null then (d.asked at time zone 'Asia/Manila')::date - 1 end, $1::date)) x
       where not (x.status = any(${sqlList(OUT)}) and x.n = x.last_due and pg_temp.h('cycle-unpaid', x.i) % 5 = 0)`, [opts.endDay]);
    await c.query(`create temporary table scale_cycled as select order_id, count(*)::int as cycles, sum(amount) as paid from scale_cycles group by order_id`);
    await c.query('analyze scale_cycles; analyze scale_cycled');
    // ---- dated rentals (issue 25): each line of a rental under way or back books `quantity` units of its leaf
    // (its product, variant or sub-variant), as the catalog books them at checkout: units free from the day it
    // was placed, the leaf's first (by serial code) first. A unit is free again once back and through its
    // turnaround (the product's turnaround days after its return day: cleaned, inspected and put away that day);
    // a unit on a rental under way, or bought out, is not free again within the year. The leaf's lines take
    // units in the order they were placed, and a line that finds fewer free than its quantity waits unbooked,
    // as a line past the leaf's units did (all leaves at once: a recursive query walks each leaf's lines,
    // carrying each unit's first free day).
    //
    // A rental back (FOR_FULL_PAYMENT, COMPLETED) was picked up at nine on the day its earliest line fell due
    // (its kept due date), or as many days later as it came back late (LATE), but before its full payment was
    // asked for; its units were back (RETURNED, OK) two hours later, then cleaned, inspected against their
    // product's checklist and put away, each an hour later (or sooner, within the day and the year) — but for a
    // unit marked DAMAGED or LOST at the return, charged its line's damage or lost fee at the full payment
    // (scale_back), and free again only the day after its mend put it back in service (MEND: repaired, or found
    // and put away; never when scrapped or written off). A rental bought out (rent-to-own) has its
    // units SOLD to its customer at the buy-out, and its bookings end that day.
    await c.query(`create temporary table scale_rentals as
      select w.*, case w.mend when 'repaired' then greatest(w.free_from, (w.mend_at at time zone 'Asia/Manila')::date + 1)
                              when 'found' then greatest(w.free_from, ((w.mend_at + interval '3 hours') at time zone 'Asia/Manila')::date + 1)
                              else 'infinity'::date end as mark_free
        from (select x.*, ${MEND('x').trigger} as mend, ${MEND('x').at} as mend_at, dense_rank() over (order by x.pn, x.vi, x.si) as leaf_no, row_number() over (partition by x.pn, x.vi, x.si order by x.i, x.n) as seq,
             pg_temp.leafunits(x.vi, x.si) as units,
             case when x.kind = 'BACK' then x.back_on + x.turnaround else 'infinity'::date end as free_from,
             least(interval '1 hour', (least(((x.back_on + 1)::timestamp at time zone 'Asia/Manila'), ${yearEnd('$1')}) - x.returned) / 4) as gap
        from (select y.*, (y.returned at time zone 'Asia/Manila')::date as back_on
        from (select z.*, z.picked + least(interval '2 hours', (z.asked - z.picked) / 2) as returned
        from (select l.id as line_id, l.order_id, l.n, o.i, l.pn, l.vi, l.si, l.product_id, coalesce(l.sub_variant_id, l.variant_id, l.product_id) as leaf_id, l.days, l.quantity,
                     o.status, o.t, o.delivered, o.t + (o.delivered - o.t) / 2 as packed, pr.turnaround_days as turnaround, pr.inspection_checklist as checklist,
                     case when o.status = any(${sqlList(BOOKED)}) then 'UNDER_WAY' when bo.order_id is not null then 'OWNED' else 'BACK' end as kind,
                     (o.t at time zone 'Asia/Manila')::date as placed_on, (o.delivered at time zone 'Asia/Manila')::date as delivered_on, bo.at as owned_at, a.asked,
                     case when a.asked is not null
                          then least((((o.delivered at time zone 'Asia/Manila')::date + (min(l.days) over (partition by l.order_id))::int + (${LATE('o.i')})::int) + time '09:00') at time zone 'Asia/Manila',
                                     a.asked - least(interval '4 hours', (a.asked - o.delivered) / 4)) end as picked,
                     -- one line in twenty of a rental back has its first unit come back DAMAGED (one of those in four LOST), charged the line's fee
                     case when a.asked is not null and pg_temp.h('damaged', o.i * 2 + l.n) % 20 = 0 then case when pg_temp.h('lost', o.i * 2 + l.n) % 4 = 0 then '${LOST_MARK}' else '${DAMAGED_MARK}' end end as mark,
                     l.damage_charges as fee
                from scale_lines l join scale_orders o on o.id = l.order_id join catalog.products pr on pr.id = l.product_id
                left join scale_bought bo on bo.order_id = o.id
                -- a rental back (not bought out): when its full payment was asked for, as scale_back has it
                cross join lateral (select case when o.status = any(${sqlList(RETURNED)}) and bo.order_id is null then ${ASKED('o.t', 'o.long_days', '$1')} end as asked) a
               where o.type = 'RENT' and o.status = any(${sqlList([...BOOKED, ...RETURNED])})) z) y) x) w`, [opts.endDay]);
    await c.query('alter table scale_rentals add primary key (leaf_no, seq); analyze scale_rentals');
    // (Each step of the walk looks up each leaf's next line by its key: a hash of all the lines for each step would read them all each time.)
    await c.query('set enable_hashjoin = off; set enable_mergejoin = off');
    await step(
      'units chosen for rentals',
      `create temporary table scale_got as
       with recursive walk(leaf_no, seq, free, got) as (
         select leaf_no, 0::bigint, array_fill('-infinity'::date, array[units]), null::int[] from scale_rentals where seq = 1
         union all
         select w.leaf_no, r.seq,
                case when g.n = r.quantity then (select array_agg(case when j = any(g.js) then case when r.mark is not null and j = g.js[1] then r.mark_free else r.free_from end else w.free[j] end order by j)
                                                   from generate_subscripts(w.free, 1) j) else w.free end,
                case when g.n = r.quantity then g.js end
           from walk w join scale_rentals r on r.leaf_no = w.leaf_no and r.seq = w.seq + 1
          cross join lateral (select count(*)::int as n, array_agg(f.j order by f.j) as js
                                from (select j from generate_subscripts(w.free, 1) j where w.free[j] <= r.placed_on order by j limit r.quantity) f) g)
       select leaf_no, seq, got from walk where got is not null`,
    );
    await c.query('reset enable_hashjoin; reset enable_mergejoin');
    await c.query(`create temporary table scale_booked as
      select r.*, u.j, (u.pos - 1)::int as position, pg_temp.vunit(r.pn, r.vi, r.si, u.j) as unit, case when u.pos = 1 then r.mark end as unit_mark,
             -- packed: a rental under way from TO_SHIP on, every rental back or bought out
             r.kind <> 'UNDER_WAY' or r.status = any(${sqlList(PACKED)}) as out
        from scale_got g join scale_rentals r on r.leaf_no = g.leaf_no and r.seq = g.seq
       cross join unnest(g.got) with ordinality u(j, pos)`);
    await c.query('analyze scale_booked');
    // What became of each unit marked at the return, step by step within the year (MEND, MEND_STEPS): each
    // step a move of the stock-item table, its custody entry and the status it leaves the unit in.
    await c.query(`create temporary table scale_mends as
      select b.line_id, b.position, b.unit, b.i, h.k, h.trigger, h.at, mv.kind, mv.to_status as status,
             case h.trigger ${Object.entries(REPAIR_OUTCOME).map(([t, o]) => `when '${t}' then '${o}'`).join(' ')} end as outcome
        from scale_booked b
       cross join lateral (values ${MEND_STEPS.map((m) => `(${m.k}, '${m.trigger}', ${m.at('b')}, ${m.when('b')})`).join(', ')}) h(k, trigger, at, happened)
        join (select distinct trigger, kind, to_status from ${MOVES_SQL}) mv on mv.trigger = h.trigger
       where b.unit_mark is not null and h.happened and h.at < ${yearEnd('$1')}`, [opts.endDay]);
    await c.query('create index on scale_mends (line_id, position, k); analyze scale_mends');
    {
      const [share] = (await c.query(`select count(*) filter (where r.kind <> 'UNDER_WAY')::int as back, count(g.seq) filter (where r.kind <> 'UNDER_WAY')::int as booked
        from scale_rentals r left join scale_got g on g.leaf_no = r.leaf_no and g.seq = r.seq`)).rows as Array<{ back: number; booked: number }>;
      log(`  scale: finished rentals' lines with units: ${share!.booked} of ${share!.back} (${((100 * share!.booked) / Math.max(1, share!.back)).toFixed(1)} %)`);
    }
    // Rentals back (their full payment asked for): when, the late fees counted for those that came back
    // late, what staff waived of them, the damage or lost fees of their units marked so at the return
    // (contracts `returnChargeCents`), and the deposit settled against the charges (contracts
    // `returnSettlement`: the deposit pays the charges first, the rest is refunded, what it does not
    // cover is added to the balance, due FULL_PAYMENT_DUE_DAYS after the request).
    await c.query(`create temporary table scale_back as
      select z.*, z.charges - z.applied as shortfall, z.total - z.first_day - z.cycles_paid + (z.charges - z.applied) as balance
        from (select y.*, y.late_fees + y.damage as extra, y.late_fees + y.damage as charges, least(y.deposit, y.late_fees + y.damage) as applied,
                     y.deposit - least(y.deposit, y.late_fees + y.damage) as refund
        from (select x.*, x.counted - x.waived as late_fees, (x.asked at time zone 'Asia/Manila')::date + $2::int as due
        from (select o.id as order_id, o.i, o.t, a.asked, t.total::numeric(12,2), t.first_day::numeric(12,2), t.deposit::numeric(12,2), coalesce(f.counted, 0)::numeric(12,2) as counted,
                     coalesce(cy.paid, 0)::numeric(12,2) as cycles_paid, coalesce(dm.damage, 0)::numeric(12,2) as damage,
                     (case when f.counted > 0 and pg_temp.h('waive', o.i) % 10 = 0 then round(f.counted / 2, 2) else 0 end)::numeric(12,2) as waived
                from scale_orders o join scale_totals t on t.order_id = o.id left join scale_cycled cy on cy.order_id = o.id
                cross join lateral (select ${ASKED('o.t', 'o.long_days', '$1')} as asked) a
                left join (select l.order_id, sum(${LINE_LATE_FEES('l.rental_terms', 'l.quantity', LATE('l.i'))}) as counted
                             from scale_lines l where l.rental_terms is not null group by l.order_id) f on f.order_id = o.id
                left join (select b.order_id, sum(b.fee) as damage from scale_booked b where b.unit_mark is not null group by b.order_id) dm on dm.order_id = o.id
               where o.type = 'RENT' and o.status = any(${sqlList(RETURNED)}) and not exists (select 1 from scale_bought bo where bo.order_id = o.id)) x) y) z`, [opts.endDay, FULL_PAYMENT_DUE_DAYS]);
    await c.query('analyze scale_back');
    await step(
      'orders',
      `insert into ordering.orders (id, order_number, customer_id, type, status, total_amount, partial_payment, delivery_address, delivery_city, delivery_state, delivery_zipcode, created_at, updated_at, delivered_at,
              deposit, extra_charge, full_payment_due, late_fees, deposit_applied, deposit_refund, billing, due_on)
       select o.id, 'ORD-' || o.day || '-' || ${paddedNumberSql('o.i')}, pg_temp.u('customer', o.customer_no), o.type, o.status, t.total,
              case when o.type = 'RENT' then t.first_day end, 'B' || (o.customer_no % 900 + 1), 'Manila', 'Metro Manila', '1000',
              o.t, o.t + interval '1 hour', case when o.status in ('DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP', 'FOR_FULL_PAYMENT', 'COMPLETED') then o.delivered end,
              t.deposit, b.extra, b.due, b.late_fees, b.applied, b.refund, case when o.long_days is not null then 'CYCLES' else 'UPFRONT' end,
              -- the rental's due date kept on it (ordering 0024): its earliest line's, once delivered
              case when o.status in ('DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP', 'FOR_FULL_PAYMENT', 'COMPLETED') then (o.delivered at time zone 'Asia/Manila')::date + ld.days::int end
         from scale_orders o join scale_totals t on t.order_id = o.id left join scale_back b on b.order_id = o.id
         left join (select order_id, min(days) as days from scale_lines where days is not null group by order_id) ld on ld.order_id = o.id`,
    );
    await step(
      'late fees waived',
      `insert into ordering.order_late_fee_waivers (id, order_id, amount, reason, by_id, by_name, created_at)
       select pg_temp.u('waiver', b.i), b.order_id, b.waived, 'Customer was in hospital', pg_temp.u('staff', 1), 'Scale Accountant', b.asked - interval '2 hours'
         from scale_back b where b.waived > 0 order by b.asked`,
    );
    await step(
      'order lines',
      `insert into ordering.order_lines (id, order_id, position, product_id, product_name, product_image, variant_id, variant_name, variant_price, sub_variant_id, sub_variant_name, sub_variant_price,
              quantity, no_of_rental_days, unit_price, damage_charges,
              line_total, rental_terms, deposit)
       select id, order_id, n, product_id, name, image, variant_id, variant_name, variant_price, sub_variant_id, sub_variant_name, sub_variant_price, quantity, days, price, damage_charges, quantity * price * coalesce(days, 1), rental_terms, deposit from scale_lines`,
    );
    await step(
      'order tracker',
      `insert into ordering.order_tracker (id, order_id, title, status, created_at)
       select pg_temp.u('placed', i), id, 'Order placed', 'PENDING', t from scale_orders
       union all
       select pg_temp.u('tracked', i), id, 'Status: ' || status, status, t + interval '1 hour' from scale_orders where status <> 'PENDING'`,
    );

    // ---- payments: one per order; records for what was taken; the order service's mirror
    await c.query(`create temporary table scale_paid as
      select o.id as order_id, o.i, o.t, o.type, o.pay_status, o.long_days, t.total, t.first_day, t.deposit, b.extra, b.balance as asked_balance,
             -- a rental's deposit is taken (and held) with its first payment, then its cycles' rent; in full, what its deposit did not cover of the charges too
             -- (bought out: its first payment, the cycles it paid and the buy-out)
             case when bo.order_id is not null then t.first_day + t.deposit + coalesce(cy.paid, 0) + bo.amount
                  -- cancelled while its first payment was taken: that payment (a purchase's whole, a rental's first day and deposit)
                  when o.pay_status = any(${sqlList(OWED_BACK)}) then case when o.type = 'BUY' then t.total else t.first_day + t.deposit end
                  when o.pay_status = 'PAID' then t.total + t.deposit + coalesce(b.shortfall, 0) when o.pay_status in ('INITIAL_PAYMENT', 'FOR_FULL_PAYMENT') then t.first_day + t.deposit + coalesce(cy.paid, 0)
                  else 0 end as paid,
             case when o.pay_status = any(${sqlList(['PAID', 'INITIAL_PAYMENT', 'FOR_FULL_PAYMENT', ...OWED_BACK])}) then t.deposit else 0 end as held,
             ${FIRST_PAID('o.t', 'o.pay_status')} as first_at,
             coalesce(cy.cycles, 0) as cycles, case when o.type = 'RENT' and o.status = any(${sqlList([...OUT, ...RETURNED])}) then (o.delivered at time zone 'Asia/Manila')::date end as delivered_on,
             b.late_fees, b.applied, b.refund, b.due, bo.amount as bought, bo.at as bought_at
        from scale_orders o join scale_totals t on t.order_id = o.id left join scale_back b on b.order_id = o.id left join scale_cycled cy on cy.order_id = o.id
        left join scale_bought bo on bo.order_id = o.id`);
    await step(
      'payments',
      `insert into payment.payments (id, order_id, order_number, order_type, order_status, customer_id, customer_name, lines, status, type, total_order_payment, total_partial_payment,
              overall_total, balance, amount_paid, version, created_at, updated_at, due_date, deposit, deposit_held, extra_charge, late_fees, deposit_applied, deposit_refund,
              billing, delivered_on, last_cycle, owned)
       select pg_temp.u('payment', p.i), p.order_id, o.order_number, p.type, o.status, o.customer_id, cu.first_name || ' ' || cu.last_name,
              (select jsonb_agg(jsonb_build_object('productName', l.product_name, 'variantName', l.variant_name, 'subVariantName', l.sub_variant_name, 'quantity', l.quantity, 'noOfRentalDays', l.no_of_rental_days,
                      'unitPrice', l.unit_price::text, 'lineTotal', l.line_total::text, 'deposit', l.deposit::text, 'rentToOwn', l.rental_terms -> 'rentToOwn') order by l.position)
                 from ordering.order_lines l where l.order_id = o.id),
              p.pay_status, case when p.bought is not null then 'BUYOUT' when p.pay_status = 'PAID' or (p.type = 'BUY' and p.paid > 0) then 'FULL' when p.cycles > 0 then 'CYCLE' when p.paid > 0 then 'PARTIAL' end,
              p.total, case when p.type = 'RENT' then p.first_day end,
              -- the full payment's amount once it is asked for (none until paid; 0 while a rental's first payment is all: payment.rules);
              -- bought out, what was paid (the rent ends there)
              -- owed back, as it was when taken (a purchase's full payment: its total; a rental's first: 0)
              case when p.bought is not null then p.paid - p.held when p.pay_status in ('PAID', 'FOR_FULL_PAYMENT') then p.total + coalesce(p.extra, 0) when p.pay_status = 'INITIAL_PAYMENT' then 0
                   when p.pay_status = any(${sqlList(OWED_BACK)}) then case when p.type = 'BUY' then p.total else 0 end end,
              -- the balance: the total and the charges less what counts against them (payment.rules creditedCents); nothing once bought out
              case when p.bought is not null then 0 else p.total + coalesce(p.extra, 0) - (p.paid - p.held + coalesce(p.applied, 0)) end, p.paid, 1, p.t, p.t + interval '1 hour',
              p.due, p.deposit, p.held, p.extra, p.late_fees, p.applied, p.refund, case when p.long_days is not null then 'CYCLES' else 'UPFRONT' end, p.delivered_on, p.cycles,
              p.bought is not null
         from scale_paid p join ordering.orders o on o.id = p.order_id join ordering.customers cu on cu.id = o.customer_id`,
    );
    await step(
      'payment records',
      `insert into payment.payment_records (id, payment_id, type, invoice_number, receipt_number, amount, accommodated_by, accommodated_by_name, total_partial_payment, overall_total, balance, created_at, deposit,
              extra_charge, due_date, cycle)
       select pg_temp.u('record-partial', p.i), pg_temp.u('payment', p.i), 'PARTIAL', 'INV-Y-' || p.i, 'OR-Y-' || p.i, p.first_day + p.held, pg_temp.u('staff', 1), 'Scale Accountant', p.first_day, 0, p.total - p.first_day,
              p.first_at, p.held, null, null, null
         from scale_paid p where p.type = 'RENT' and p.paid > 0
       union all
       -- a long rental's cycles (CYCLE, its number; the balance the rent still owed after it)
       select pg_temp.u('record-cycle:' || c.n, c.i), pg_temp.u('payment', c.i), 'CYCLE', 'INV-YC-' || c.i || '-' || c.n, 'OR-YC-' || c.i || '-' || c.n, c.amount, pg_temp.u('staff', 1), 'Scale Accountant',
              p.first_day, 0, p.total - p.first_day - sum(c.amount) over (partition by c.order_id order by c.n), c.at, 0, null::numeric, null::date, c.n
         from scale_cycles c join scale_paid p on p.order_id = c.order_id
       union all
       select pg_temp.u('record-full', p.i), pg_temp.u('payment', p.i), 'FULL', 'INV-YF-' || p.i, 'OR-YF-' || p.i, case when p.type = 'RENT' then p.asked_balance else p.total end,
              pg_temp.u('staff', 1), 'Scale Accountant', case when p.type = 'RENT' then p.first_day end, p.total + coalesce(p.extra, 0), 0,
              case when p.type = 'RENT' then ${FULLY_PAID('p.t', 'p.long_days', '$1')} else p.first_at end, 0, p.extra, p.due, null
         from scale_paid p where (p.pay_status = 'PAID' and p.bought is null) or (p.type = 'BUY' and p.paid > 0)
       union all
       -- a rent-to-own rental bought out (BUYOUT: what it has paid is the overall total, nothing owed after it)
       select pg_temp.u('record-buyout', p.i), pg_temp.u('payment', p.i), 'BUYOUT', 'INV-YB-' || p.i, 'OR-YB-' || p.i, p.bought, pg_temp.u('staff', 1), 'Scale Accountant', p.first_day,
              p.paid - p.held, 0, p.bought_at, 0, null, null, null
         from scale_paid p where p.bought is not null
       order by 12, 1`,
      [opts.endDay],
    );
    // The mirror is written by the payment's confirmation: only payments that took money have one.
    await step(
      'order payment mirrors',
      `insert into ordering.order_payments (order_id, payment_id, status, status_rank, total_partial_payment, extra_charge, overall_total, balance, due_date, updated_at, order_type, refund_due)
       select order_id, id, status, ($1::jsonb ->> status::text)::int, total_partial_payment, extra_charge, overall_total, balance, due_date, updated_at, order_type,
              -- what dme.payment.refund_due said is owed back (kept once paid back)
              case when status = any(${sqlList(OWED_BACK)}) then amount_paid end
         from payment.payments where amount_paid > 0 and id = any(select pg_temp.u('payment', i) from scale_orders)`,
      [JSON.stringify(PAYMENT_RANK)],
    );
    await step(
      'order payment records',
      `insert into ordering.order_payment_records (id, order_id, payment_id, type, invoice_number, receipt_number, amount, created_at, payment_record_id, cycle)
       select pg_temp.u('mirror', r.seq), p.order_id, p.id, r.type, r.invoice_number, r.receipt_number, r.amount, r.created_at, r.id, r.cycle
         from payment.payment_records r join payment.payments p on p.id = r.payment_id where p.id = any(select pg_temp.u('payment', i) from scale_orders)`,
    );
    // What is left of a deposit settled at the return is owed back: refunded an hour after the
    // rental's full payment, still due while that is. What a cancelled order's payment took is owed
    // back from the cancellation (payment order-feed). Numbered as the service numbers them.
    await c.query(`create temporary table scale_refunds as
      select x.*, row_number() over (order by x.asked, x.i) as n from (
      select pg_temp.u('refund', p.i) as id, pg_temp.u('payment', p.i) as payment_id, p.order_id, p.i, 'DEPOSIT' as kind, p.refund as amount, b.asked,
             case when p.pay_status = 'PAID' then ${REFUNDED(FULLY_PAID('p.t', 'p.long_days', '$1'), '$1')} end as refunded_at
        from scale_paid p join scale_back b on b.order_id = p.order_id
       where p.refund > 0
      union all
      select pg_temp.u('refund', p.i), pg_temp.u('payment', p.i), p.order_id, p.i, 'CANCELLED', p.paid, p.t + interval '1 hour',
             case when p.pay_status = 'REFUNDED' then ${CANCEL_REFUNDED('p.t', '$1')} end
        from scale_paid p where p.pay_status = any(${sqlList(OWED_BACK)})) x`, [opts.endDay]);
    await step(
      'refunds (deposits, cancellations)',
      `insert into payment.payment_refunds (id, number, payment_id, kind, amount, status, method, refunded_by, refunded_by_name, refunded_at, created_at)
       select f.id, 'RF-' || to_char(f.asked at time zone 'Asia/Manila', 'YYYYMMDD') || '-' || ${paddedNumberSql('f.n')}, f.payment_id, f.kind, f.amount,
              case when f.refunded_at is not null then 'REFUNDED' else 'DUE' end, case when f.refunded_at is not null then 'CASH' end,
              case when f.refunded_at is not null then pg_temp.u('staff', 1) end, case when f.refunded_at is not null then 'Scale Accountant' end, f.refunded_at, f.asked
         from scale_refunds f order by f.n`,
    );
    await c.query(`select setval('payment.refund_number_seq', greatest((select count(*) from scale_refunds), 1), (select count(*) from scale_refunds) > 0)`);
    await step(
      'order refunds (paid back)',
      `insert into ordering.order_refunds (refund_id, order_id, number, kind, amount, method, refunded_at)
       select f.id, p.order_id, f.number, f.kind, f.amount, f.method, f.refunded_at from payment.payment_refunds f join payment.payments p on p.id = f.payment_id
        where f.status = 'REFUNDED' and f.id = any(select id from scale_refunds)`,
    );

    // A rental under way's bookings run from the day after it was placed for its days; a rental back's as the
    // catalog leaves them: moved to its delivery day when delivered, due its days later, then cut at the return
    // to the return day plus the turnaround if that is sooner (catalog cutBookingAtReturn); a rental bought out's
    // end on the buy-out's day, no turnaround after it (endBookingsOwned). Each stays ACTIVE, as the catalog keeps it.
    await step(
      'bookings',
      `insert into catalog.bookings (id, kind, order_id, order_number, customer_name, customer_id, stock_item_id, leaf_id, product_id, period, due_date, status, created_at, updated_at)
       select pg_temp.u('booking-' || b.line_id, b.position), 'RENTAL', b.order_id, o.order_number, cu.first_name || ' ' || cu.last_name, o.customer_id,
              pg_temp.u('unit', b.unit), b.leaf_id, b.product_id, p.period, p.due, 'ACTIVE', b.t, p.updated
         from scale_booked b join ordering.orders o on o.id = b.order_id join ordering.customers cu on cu.id = o.customer_id
         cross join lateral (select b.delivered_on + b.days::int as due, (b.owned_at at time zone 'Asia/Manila')::date as owned_on) d
         cross join lateral (select case b.kind when 'UNDER_WAY' then daterange(b.placed_on + 1, b.placed_on + 1 + b.days::int)
                                                when 'BACK' then daterange(b.delivered_on, least(d.due, b.back_on) + b.turnaround)
                                                else daterange(b.delivered_on, least(d.due + b.turnaround, d.owned_on + 1)) end as period,
                                    case b.kind when 'UNDER_WAY' then b.placed_on + b.days::int when 'BACK' then least(d.due, b.back_on) else least(d.due, d.owned_on) end as due,
                                    case b.kind when 'UNDER_WAY' then b.t when 'BACK' then b.returned else b.owned_at end as updated) p
        order by b.t, b.line_id, b.position`,
    );
    await step(
      'serials packed',
      `insert into ordering.order_line_serials (id, order_id, line_id, position, serial_code, stock_item_id, warehouse_bin, created_at, return_status, returned_at)
       select pg_temp.u('serial-' || b.line_id, b.position), b.order_id, b.line_id, b.position, su.serial_code, su.id, wb.name, b.packed,
              case when b.kind = 'BACK' then coalesce(b.unit_mark, 'OK') end, case when b.kind = 'BACK' then b.returned end
         from scale_booked b join catalog.stock_items su on su.id = pg_temp.u('unit', b.unit) left join catalog.warehouse_bins wb on wb.id = su.warehouse_bin_id
        where b.out
        order by b.i, b.n, b.position`,
    );
    // Each unit as its last rental packed left it: RENTED to a rental under way, back on the shelf (AVAILABLE,
    // since put away) after a rental back, or as the last step of its mend left it when marked DAMAGED or LOST
    // at the return (scale_mends: in repair, repaired, scrapped, found and put away, written off, or still as
    // marked), SOLD to a rental bought out; it keeps the order it was last packed for.
    await step(
      'units as their last rental left them',
      `update catalog.stock_items su set status = coalesce(lm.status, f.status), inventory_type = $1::jsonb ->> coalesce(lm.status, f.status), order_id = f.order_id,
              status_since = coalesce(lm.at, f.since), updated_at = coalesce(lm.at, f.since)
         from (select distinct on (b.unit) b.unit, b.order_id, b.line_id, b.position,
                      case b.kind when 'UNDER_WAY' then 'RENTED' when 'BACK' then coalesce(${RETURNED_STATUS('b.unit_mark')}, 'AVAILABLE') else 'SOLD' end as status,
                      case b.kind when 'UNDER_WAY' then b.packed when 'BACK' then case when b.unit_mark is null then b.returned + 3 * b.gap else b.returned end else b.owned_at end as since
                 from scale_booked b where b.out order by b.unit, b.i desc, b.n desc) f
         left join lateral (select m.status, m.at from scale_mends m where m.line_id = f.line_id and m.position = f.position order by m.k desc limit 1) lm on true
        where su.id = pg_temp.u('unit', f.unit)`,
      [JSON.stringify(STOCK_STATUS_INVENTORY)],
    );

    // ---- the units' chains of custody (issue 26), as the catalog writes them: every order placed is
    // remembered (its number and customer name the entries); every unit's chain starts STOCKED; a
    // rental's booked units are RESERVED when it was placed, then packed, out for delivery, delivered to its
    // customer and, once it is FOR_PICK_UP, picked up by the driver, as far as it has gone; a rental back's
    // units then RETURNED (OK) from its customer, cleaned, inspected (every point of the checklist passed) and
    // put away, or RETURNED marked DAMAGED or LOST (then mended: custody: mends); a rental bought out's units BOUGHT_OUT by
    // its customer.
    await step(
      'custody orders',
      `insert into catalog.custody_orders (order_id, order_number, order_type, customer_id, customer_name)
       select o.id, o.order_number, o.type, o.customer_id, cu.first_name || ' ' || cu.last_name
         from scale_orders s join ordering.orders o on o.id = s.id join ordering.customers cu on cu.id = o.customer_id order by s.i`,
    );
    await step(
      'custody: units stocked',
      `insert into catalog.custody_events (id, stock_item_id, serial_code, kind, at, by_user_id, by_name, status, bin_id, bin_name)
       select pg_temp.u('custody-stocked', k), su.id, su.serial_code, 'STOCKED', su.created_at, pg_temp.u('staff', 2), 'Scale Warehouse', 'AVAILABLE', su.warehouse_bin_id, wb.name
         from generate_series(1, $1::int) k join catalog.stock_items su on su.id = pg_temp.u('unit', k) left join catalog.warehouse_bins wb on wb.id = su.warehouse_bin_id
        order by k`,
      [size.units],
    );
    await step(
      'custody: rentals',
      `insert into catalog.custody_events (id, stock_item_id, serial_code, kind, at, by_user_id, by_name, status, bin_id, bin_name, order_id, order_number, party, condition, checklist, source_event_id)
       select pg_temp.u('custody-' || h.kind || '-' || b.line_id, b.position), su.id, su.serial_code, h.kind, h.at, h.by_user_id, h.by_name, h.status, su.warehouse_bin_id, wb.name,
              case when h.of_order then b.order_id end, case when h.of_order then co.order_number end,
              case h.party when 'driver' then 'Scale Driver' when 'customer' then co.customer_name end, h.condition,
              case when h.kind = 'INSPECTED' then (select coalesce(jsonb_agg(jsonb_build_object('point', p.point, 'ok', true) order by p.n), '[]'::jsonb)
                                                     from jsonb_array_elements_text(b.checklist) with ordinality p(point, n)) end,
              h.source_event_id
         from scale_booked b
         join catalog.stock_items su on su.id = pg_temp.u('unit', b.unit)
         left join catalog.warehouse_bins wb on wb.id = su.warehouse_bin_id
         join catalog.custody_orders co on co.order_id = b.order_id
         cross join lateral (values
           ('RESERVED', b.t, null::uuid, null::text, null::text, 'customer', true, null::text, pg_temp.u('event-placed', b.i), true),
           ('PACKED', b.packed, pg_temp.u('staff', 2), 'Scale Warehouse', 'RENTED', null, true, null, null, b.out),
           ('OUT_FOR_DELIVERY', b.delivered - (b.delivered - b.t) / 4, pg_temp.u('staff', 3), 'Scale Driver', null, 'driver', true, null, null, b.kind <> 'UNDER_WAY' or b.status = any(${sqlList(TAKEN)})),
           ('DELIVERED', b.delivered, pg_temp.u('staff', 3), 'Scale Driver', null, 'customer', true, null, null, b.kind <> 'UNDER_WAY' or b.status = any(${sqlList(OUT)})),
           ('PICKED_UP', coalesce(b.picked, b.delivered + ((${since('$1', '0')}) - b.delivered) / 2), pg_temp.u('staff', 3), 'Scale Driver', null, 'driver', true, null, null,
            b.kind = 'BACK' or b.status = 'FOR_PICK_UP'),
           ('RETURNED', b.returned, pg_temp.u('staff', 2), 'Scale Warehouse', ${RETURNED_STATUS("coalesce(b.unit_mark, 'OK')")}, 'customer', true, coalesce(b.unit_mark, 'OK'), null, b.kind = 'BACK'),
           ('CLEANED', b.returned + b.gap, pg_temp.u('staff', 2), 'Scale Warehouse', 'CLEANED', null, false, null, null, b.kind = 'BACK' and b.unit_mark is null),
           ('INSPECTED', b.returned + 2 * b.gap, pg_temp.u('staff', 2), 'Scale Warehouse', 'INSPECTED', null, false, 'PASSED', null, b.kind = 'BACK' and b.unit_mark is null),
           ('PUT_AWAY', b.returned + 3 * b.gap, pg_temp.u('staff', 2), 'Scale Warehouse', 'AVAILABLE', null, false, null, null, b.kind = 'BACK' and b.unit_mark is null),
           ('BOUGHT_OUT', b.owned_at, null, null, 'SOLD', 'customer', true, null, null, b.kind = 'OWNED')
         ) h(kind, at, by_user_id, by_name, status, party, of_order, condition, source_event_id, happened)
        where h.happened
        order by h.at, su.serial_code`,
      [opts.endDay],
    );
    // A unit marked at the return, mended within the year as scale_mends has it: staff's steps on the unit's page
    // (units.service takeStep), not of the order: the repair's fault, outcome and cost on its work order, a note
    // where the step asks one, the inspection's checklist all passed.
    await step(
      'custody: mends',
      `insert into catalog.custody_events (id, stock_item_id, serial_code, kind, at, by_user_id, by_name, status, bin_id, bin_name, condition, note, checklist)
       select pg_temp.u('custody-mend-' || m.trigger || '-' || m.line_id, m.position), su.id, su.serial_code, m.kind, m.at, pg_temp.u('staff', 2), 'Scale Warehouse', m.status,
              su.warehouse_bin_id, wb.name,
              coalesce(m.outcome, case when m.trigger = 'inspectedOk' then 'PASSED' end),
              case m.trigger when 'repairOpened' then 'Came back damaged from a rental' when 'scrapped' then 'Beyond repair' when 'writtenOff' then 'Not found within 30 days' else '' end,
              case when m.trigger = 'inspectedOk' then (select coalesce(jsonb_agg(jsonb_build_object('point', p.point, 'ok', true) order by p.n), '[]'::jsonb)
                                                        from jsonb_array_elements_text(pr.inspection_checklist) with ordinality p(point, n)) end
         from scale_mends m join catalog.stock_items su on su.id = pg_temp.u('unit', m.unit) join catalog.products pr on pr.id = su.product_id
         left join catalog.warehouse_bins wb on wb.id = su.warehouse_bin_id
        order by m.at, su.serial_code`,
    );
    await step(
      'repair work orders',
      `insert into catalog.repair_orders (id, stock_item_id, fault, parts, cost, technician, outcome, opened_at, opened_by, closed_at, closed_by)
       select pg_temp.u('repair-' || o.line_id, o.position), pg_temp.u('unit', o.unit), 'Came back damaged from a rental',
              case when c.outcome = 'REPAIRED' then 'Wheel assembly' else '' end, case when c.outcome = 'REPAIRED' then (200 + pg_temp.h('repair-cost', o.i) % 1800)::numeric(12,2) end,
              'Scale Technician', c.outcome, o.at, 'Scale Warehouse', c.at, case when c.at is not null then 'Scale Warehouse' end
         from scale_mends o left join scale_mends c on c.line_id = o.line_id and c.position = o.position and c.k = 2
        where o.trigger = 'repairOpened'
        order by o.at`,
    );

    // ---- reporting's read model
    await step(
      'reporting orders',
      `insert into reporting.orders (id, order_number, customer_id, customer_name, type, total_amount, partial_payment, placed_at, status, status_at, payment_status, first_paid_at, full_paid_at,
              full_asked_at, full_due_date, full_balance, extra_charge, late_fees, late_fees_waived, deposit, deposit_applied, deposit_refund)
       select o.id, o.order_number, o.customer_id, cu.first_name || ' ' || cu.last_name, o.type, o.total_amount, o.partial_payment, o.created_at, o.status, o.updated_at, p.status,
              (select min(r.created_at) from payment.payment_records r where r.payment_id = p.id),
              (select r.created_at from payment.payment_records r where r.payment_id = p.id and r.type = 'FULL'),
              -- rentals back, as their full payment's request said (the status event's figures)
              b.asked, b.due, b.balance, b.extra, b.late_fees, b.waived, o.deposit, o.deposit_applied, o.deposit_refund
         from ordering.orders o join payment.payments p on p.order_id = o.id join ordering.customers cu on cu.id = o.customer_id left join scale_back b on b.order_id = o.id`,
    );
    await step(
      'reporting lines',
      `insert into reporting.order_lines (order_id, line_no, product_id, variant_id, sub_variant_id, product_name, variant_name, sub_variant_name, quantity, no_of_rental_days, unit_price, line_total, first_day)
       select order_id, n, product_id, variant_id, sub_variant_id, name, variant_name, sub_variant_name, quantity, days, price, quantity * price * coalesce(days, 1),
              case when days is not null then quantity * price end from scale_lines`,
    );
    await step(
      'reporting payments',
      `insert into reporting.payments (payment_id, type, order_id, order_number, order_type, amount, balance_after, status_after, invoice_number, receipt_number, confirmed_at, accommodated_by, version, deposit,
              cycle)
       select p.id, r.type, p.order_id, p.order_number, p.order_type, r.amount, r.balance, case when r.type in ('FULL', 'BUYOUT') then 'PAID' else 'INITIAL_PAYMENT' end,
              r.invoice_number, r.receipt_number, r.created_at, r.accommodated_by, 1, r.deposit, coalesce(r.cycle, 0)
         from payment.payment_records r join payment.payments p on p.id = r.payment_id where p.id = any(select pg_temp.u('payment', i) from scale_orders)`,
    );
    await step(
      'reporting refunds',
      `insert into reporting.refunds (refund_id, payment_id, order_id, order_number, number, kind, method, amount, refunded_at)
       select f.id, p.id, p.order_id, p.order_number, f.number, f.kind, f.method, f.amount, f.refunded_at from payment.payment_refunds f join payment.payments p on p.id = f.payment_id
        where f.status = 'REFUNDED' and f.id = any(select id from scale_refunds)`,
    );
    // ---- the events' history: what a shop running a year holds of it. The publishers' outboxes keep
    // their published events for a week and the consumers' inboxes their handled ids for two
    // (platform housekeeping, PURGE_DEFAULTS); older ones are gone. Each event as its service writes
    // it: the envelope around data that reads as its contract (checkYear reads them back).
    await c.query(`create function pg_temp.iso(t timestamptz) returns text language sql immutable as
      $$ select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$`);
    await c.query(
      `create temporary table scale_events as
       select pg_temp.u('event-placed', s.i) as id, 'ordering' as publisher, 'dme.order.placed' as subject, s.t as at, o.id as aggregate_id, 1 as version,
              jsonb_build_object('orderId', o.id, 'orderNumber', o.order_number, 'customerId', o.customer_id, 'type', o.type, 'typeOfOrder', null,
                'totalAmount', o.total_amount::text, 'partialPayment', o.partial_payment::text, 'deposit', o.deposit::text, 'billing', o.billing,
                'customer', jsonb_build_object('name', cu.first_name || ' ' || cu.last_name, 'email', cu.email, 'contactNumber', cu.contact_number),
                'delivery', jsonb_build_object('address', o.delivery_address, 'city', o.delivery_city, 'state', o.delivery_state, 'zipcode', o.delivery_zipcode),
                'createdAt', pg_temp.iso(o.created_at),
                'lines', (select jsonb_agg(jsonb_build_object('productId', l.product_id, 'variantId', l.variant_id, 'subVariantId', l.sub_variant_id, 'productName', l.product_name, 'variantName', l.variant_name,
                            'subVariantName', l.sub_variant_name, 'quantity', l.quantity, 'noOfRentalDays', l.no_of_rental_days, 'startDate', null, 'unitPrice', l.unit_price::text,
                            'lineTotal', l.line_total::text, 'deposit', l.deposit::text, 'rentToOwn', l.rental_terms -> 'rentToOwn') order by l.position) from ordering.order_lines l where l.order_id = o.id)) as data
         from scale_orders s join ordering.orders o on o.id = s.id join ordering.customers cu on cu.id = o.customer_id
        where s.t > ${since('$1', '$2')}
       union all
       select pg_temp.u('event-status', s.i), 'ordering', 'dme.order.status_changed', s.t + interval '1 hour', o.id, 2,
              jsonb_build_object('orderId', o.id, 'orderNumber', o.order_number, 'customerId', o.customer_id, 'type', o.type, 'from', 'PENDING', 'to', o.status, 'by', null,
                'byName', null, 'driverId', null,
                -- a request for the full payment carries its figures (reporting keeps them, not recomputes them)
                'extraCharge', b.extra::text, 'fullPaymentDue', b.due::text, 'balance', b.balance::text, 'lateFees', b.late_fees::text, 'depositApplied', b.applied::text,
                'depositRefund', b.refund::text, 'lateFeesWaived', b.waived::text)
         from scale_orders s join ordering.orders o on o.id = s.id left join scale_back b on b.order_id = o.id and o.status = 'FOR_FULL_PAYMENT'
        where s.status <> 'PENDING' and s.t + interval '1 hour' > ${since('$1', '$2')}
       union all
       select pg_temp.u('event-paid:' || r.id, 0), 'payment', 'dme.payment.confirmed', r.created_at, p.id,
              case r.type when 'PARTIAL' then 2 when 'CYCLE' then 2 + r.cycle else 2 + (p.order_type = 'RENT')::int + p.last_cycle end,
              jsonb_build_object('paymentId', p.id, 'orderId', p.order_id, 'orderNumber', p.order_number, 'customerId', p.customer_id, 'orderType', p.order_type, 'type', r.type,
                'status', case when r.type in ('FULL', 'BUYOUT') then 'PAID' else 'INITIAL_PAYMENT' end, 'amount', r.amount::text, 'invoiceNumber', r.invoice_number, 'receiptNumber', r.receipt_number,
                'note', '', 'accommodatedBy', r.accommodated_by, 'confirmedAt', pg_temp.iso(r.created_at), 'totalPartialPayment', r.total_partial_payment::text, 'extraCharge', null,
                'overallTotal', r.overall_total::text, 'balance', r.balance::text, 'dueDate', null, 'recordId', r.id, 'deposit', r.deposit::text, 'cycle', r.cycle, 'owned', r.type = 'BUYOUT')
         from payment.payment_records r join payment.payments p on p.id = r.payment_id
        where r.created_at > ${since('$1', '$2')} and p.id = any(select pg_temp.u('payment', i) from scale_orders)
       union all
       select pg_temp.u('event-refunded:' || f.id, 0), 'payment', 'dme.payment.refund_recorded', f.refunded_at, p.id, 4,
              jsonb_build_object('paymentId', p.id, 'orderId', p.order_id, 'orderNumber', p.order_number, 'customerId', p.customer_id, 'orderType', p.order_type,
                'refundId', f.id, 'number', f.number, 'kind', f.kind, 'amount', f.amount::text, 'method', f.method, 'status', p.status, 'refundedAt', pg_temp.iso(f.refunded_at))
         from payment.payment_refunds f join payment.payments p on p.id = f.payment_id
        where f.status = 'REFUNDED' and f.refunded_at > ${since('$1', '$2')} and f.id = any(select id from scale_refunds)
       union all
       -- a payment taken while its order was being cancelled, owed back from the cancellation
       select pg_temp.u('event-refund-due', s.i), 'payment', 'dme.payment.refund_due', s.t + interval '1 hour', p.id, 3,
              jsonb_build_object('paymentId', p.id, 'orderId', p.order_id, 'orderNumber', p.order_number, 'customerId', p.customer_id, 'orderType', p.order_type,
                'status', 'REFUND_DUE', 'amount', p.amount_paid::text)
         from scale_orders s join payment.payments p on p.order_id = s.id
        where s.pay_status = any(${sqlList(OWED_BACK)}) and s.t + interval '1 hour' > ${since('$1', '$2')}`,
      [opts.endDay, INBOX_DAYS],
    );
    for (const publisher of ['ordering', 'payment']) {
      await step(
        `${publisher} outbox (published, the last ${OUTBOX_DAYS} days)`,
        `insert into ${publisher}.outbox (id, subject, payload, created_at, published_at)
         select id, subject, jsonb_build_object('id', id, 'type', subject, 'occurredAt', pg_temp.iso(at), 'source', case publisher when 'ordering' then 'order' else publisher end,
                  'aggregateId', aggregate_id, 'data', data, 'version', version), at, at + interval '20 milliseconds'
           from scale_events where publisher = $1 and at > ${since('$2', '$3')} order by at, id`,
        [publisher, opts.endDay, OUTBOX_DAYS],
      );
    }
    for (const [prefix, { consumers }] of Object.entries(CONSUMERS)) {
      for (const [schema, durable] of consumers) {
        await step(
          `${schema} inbox, ${durable} (the last ${INBOX_DAYS} days)`,
          `insert into ${schema}.inbox (consumer, event_id, processed_at) select $1, id, at + interval '100 milliseconds' from scale_events where subject like $2 || '%' order by at, id`,
          [durable, prefix],
        );
      }
    }

    // Vacuumed and analysed, as autovacuum leaves a year-old database: the visibility map set (index-only
    // scans answer from the index), the planner's statistics current.
    for (const t of ['catalog.products', 'catalog.stock_items', 'catalog.stock_levels', 'catalog.bookings', 'catalog.custody_orders', 'catalog.custody_events', 'catalog.repair_orders', 'ordering.order_line_serials', 'identity.users', 'ordering.customers', 'ordering.products', 'ordering.orders', 'ordering.order_lines',
      'ordering.order_tracker', 'ordering.order_payments', 'ordering.order_payment_records', 'ordering.order_refunds', 'ordering.order_late_fee_waivers', 'payment.payments', 'payment.payment_records', 'payment.payment_refunds', 'reporting.refunds', 'reporting.orders', 'reporting.order_lines',
      'reporting.payments', 'reporting.products', 'ordering.outbox', 'payment.outbox']) await step(`vacuum ${t}`, `vacuum (analyze) ${t}`);
    return size;
  } finally {
    await c.end();
  }
}

/**
 * What must hold of a generated year, as the replicas suite checks a burst (e2e/replicas/lib/invariants.ts):
 * each order once with its lines summing to its total; exactly one payment per order, its records
 * summing to what it took and its balance the rest, mirrored in the order service with the same
 * status and balance; reporting's read model holding each order, line and record with the same
 * figures; the stock ledger counting exactly the units stocked; every published event handled by
 * each consumer of its subject, saying what its service holds and reading as its contract; every
 * order remembered by the catalog, every unit's chain of custody starting with its stocking and a
 * unit out on a rental last handed over on that rental; packed serials the units out on their
 * order, as many as each line's quantity; deposits as the lines' terms ask, held from the first
 * payment and settled at the return, each refund as the payment, the order and reporting hold it;
 * a payment taken for an order cancelled meanwhile owed back whole, by one refund of its kind;
 * late fees within what the lines' terms allow, as the order, its payment, its waivers and
 * reporting hold them, paid from the deposit first; billing by cycles as the lines ask, each cycle
 * paid once for the rent of its days, after its day and before the full payment; the staff lists'
 * kept counts counting the rows.
 * Answers the problems found.
 */
export async function checkYear(databaseUrl: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const problems: string[] = [];
  const none = async (label: string, text: string) => {
    const rows = (await c.query(text)).rows as Array<Record<string, unknown>>;
    if (rows.length) problems.push(`${rows.length} ${label}: ${rows.slice(0, 3).map((r) => JSON.stringify(r)).join('; ')}`);
  };
  try {
    // The staff lists' totals (kept by each table's triggers, platform kept-counts) count the rows written.
    for (const [schema, counts] of [['identity', USER_COUNTS], ['ordering', ORDER_COUNTS], ['ordering', ORDER_PAYMENT_COUNTS], ['payment', PAYMENT_COUNTS]] as const) {
      await none(`${counts.counts} not the count of their rows`, keptCountsDriftSql(schema, counts));
    }
    await none('orders whose lines do not sum to their total', `select o.order_number, o.total_amount, sum(l.line_total) from ordering.orders o left join ordering.order_lines l on l.order_id = o.id group by o.id having o.total_amount is distinct from sum(l.line_total)`);
    await none('orders without exactly one payment', `select o.order_number, count(p.id) from ordering.orders o left join payment.payments p on p.order_id = o.id group by o.id having count(p.id) <> 1`);
    await none('payments whose records do not sum to what they took', `select p.order_number, p.amount_paid, sum(r.amount) from payment.payments p left join payment.payment_records r on r.payment_id = p.id group by p.id having p.amount_paid is distinct from coalesce(sum(r.amount), 0)`);
    // What was paid counts against the total and the charges less the deposit held (it is the customer's), plus what of it was taken for charges.
    // The overall total is the full payment's: none before any payment, 0 while a rental's first payment (and cycles) are all, then the total and the charges.
    // A rental bought out (owned) owes nothing more: its overall total is what it paid.
    await none('payments whose balance is not the rest', `select order_number from payment.payments
      where (not owned and balance <> total_order_payment + coalesce(extra_charge, 0) - (amount_paid - deposit_held + coalesce(deposit_applied, 0)))
         or (not owned and overall_total is distinct from case when status in ('PAID', 'FOR_FULL_PAYMENT') then total_order_payment + coalesce(extra_charge, 0) when status = 'INITIAL_PAYMENT' then 0
                                                               when status = any(${sqlList(OWED_BACK)}) then case when order_type = 'BUY' then total_order_payment else 0 end end)
         or (owned and (balance <> 0 or status <> 'PAID' or overall_total <> amount_paid - deposit_held))
         or total_order_payment <> (select total_amount from ordering.orders o where o.id = order_id)`);
    // Rent-to-own (issue 29): a buy-out only of a rental whose every line is rent-to-own, after its last cycle paid and instead of its full payment,
    // for each line's sale price less the share its terms credit of the rent its paid cycles cover (rounded half up to the cent).
    await none('buy-outs not as the lines\' rent-to-own terms price them', `select p.order_number from payment.payments p
        join payment.payment_records r on r.payment_id = p.id and r.type = 'BUYOUT'
        cross join lateral (select sum(greatest(0, (x."rentToOwn" ->> 'salePrice')::numeric * x.quantity * 100
                                   - floor((least(x."noOfRentalDays", greatest(1, ${CYCLE_DAYS} * p.last_cycle)) * x."unitPrice" * x.quantity * 100 * (x."rentToOwn" ->> 'creditPercent')::int * 100 + 5000) / 10000))) / 100 as price,
                                   bool_and(jsonb_typeof(x."rentToOwn") = 'object') as every
                              from jsonb_to_recordset(p.lines) x(quantity int, "noOfRentalDays" int, "unitPrice" numeric, "rentToOwn" jsonb) where x."noOfRentalDays" is not null) b
       where not p.owned or not b.every or r.amount <> b.price or p.order_status <> 'COMPLETED'
          or exists (select 1 from payment.payment_records f where f.payment_id = p.id and (f.type = 'FULL' or (f.type = 'CYCLE' and f.created_at > r.created_at)))
      union all
      select p.order_number from payment.payments p where p.owned and not exists (select 1 from payment.payment_records r where r.payment_id = p.id and r.type = 'BUYOUT')
        and p.last_cycle < (select min((x."rentToOwn" ->> 'afterCycles')::int) from jsonb_to_recordset(p.lines) x("rentToOwn" jsonb))`);
    // Billing cycles (issue 29): an order is billed per 30-day cycle when a rental line on cycle terms runs more than 30 days
    // (rental-money orderBilling), its payment alike; a rental delivered keeps its delivery day (its cycles count from it).
    await none('orders not billed as their lines ask, or their payment otherwise', `select o.order_number from ordering.orders o join payment.payments p on p.order_id = o.id
      where o.billing <> case when exists (select 1 from ordering.order_lines l where l.order_id = o.id and l.rental_terms ->> 'billing' = 'CYCLES' and l.no_of_rental_days > ${CYCLE_DAYS})
                              then 'CYCLES' else 'UPFRONT' end
         or p.billing <> o.billing or p.delivered_on is distinct from case when o.type = 'RENT' and o.delivered_at is not null then (o.delivered_at at time zone 'Asia/Manila')::date end`);
    // A rental's due date kept on it (ordering 0024): its earliest line's (contracts lineDueDate), once delivered.
    await none("orders whose kept due date is not their earliest line's", `select o.order_number, o.due_on from ordering.orders o
      where o.due_on is distinct from (select min((o.delivered_at at time zone 'Asia/Manila')::date + l.no_of_rental_days)
                                         from ordering.order_lines l where l.order_id = o.id and l.no_of_rental_days is not null)`);
    // Each cycle taken once, from the first on (the last one paid the payment's last cycle), for the rent of its days on the lines
    // (cycle 1 less the first payment's first day), taken on or after the day it was due, while the rental was out (before its full payment).
    await none('cycle payments not as the lines\' cycles ask', `select p.order_number, r.cycle from payment.payments p join payment.payment_records r on r.payment_id = p.id and r.type = 'CYCLE'
        cross join lateral (select sum(x.quantity * x."unitPrice" * greatest(0, least(x."noOfRentalDays", ${CYCLE_DAYS} * r.cycle) - ${CYCLE_DAYS} * (r.cycle - 1))) as rent
                              from jsonb_to_recordset(p.lines) x(quantity int, "noOfRentalDays" int, "unitPrice" numeric)) c
       where p.billing <> 'CYCLES' or r.cycle > p.last_cycle or r.amount <> c.rent - case when r.cycle = 1 then p.total_partial_payment else 0 end
          or (r.created_at at time zone 'Asia/Manila')::date < p.delivered_on + ${CYCLE_DAYS} * (r.cycle - 1)
          or r.created_at > (select f.created_at from payment.payment_records f where f.payment_id = p.id and f.type = 'FULL')
      union all
      select p.order_number, p.last_cycle from payment.payments p where p.last_cycle <> (select count(*) from payment.payment_records r where r.payment_id = p.id and r.type = 'CYCLE')`);
    // Late fees (issue 29): the order, its payment and reporting hold the same figures; what reporting says was waived is the waivers
    // the order keeps; the deposit pays the charges first.
    await none('late fees or charges not as the order, its payment, its waivers and reporting hold them, or a deposit not paying the charges first', `select o.order_number
        from ordering.orders o join payment.payments p on p.order_id = o.id join reporting.orders r on r.id = o.id
        left join lateral (select sum(w.amount) as waived from ordering.order_late_fee_waivers w where w.order_id = o.id) w on true
       where p.late_fees is distinct from o.late_fees or p.extra_charge is distinct from o.extra_charge or r.late_fees is distinct from o.late_fees
          or r.extra_charge is distinct from o.extra_charge or r.deposit_applied is distinct from o.deposit_applied
          or r.late_fees_waived is distinct from case when o.late_fees is not null then coalesce(w.waived, 0) end or (o.late_fees is null and w.waived is not null)
          or o.extra_charge < o.late_fees or o.deposit_applied <> least(o.deposit, o.extra_charge)`);
    // Counted late fees (charged and waived) are at most what the lines' terms cap them at, and none without a late fee in the terms.
    await none('late fees beyond what the lines\' terms allow', `select o.order_number from ordering.orders o
        left join lateral (select sum(w.amount) as waived from ordering.order_late_fee_waivers w where w.order_id = o.id) w on true
       where coalesce(o.late_fees, 0) + coalesce(w.waived, 0) > (select coalesce(sum(l.quantity * case when (l.rental_terms ->> 'lateFeePerDay')::numeric > 0
                then coalesce((l.rental_terms -> 'lateFeeCap' ->> 'amount')::numeric, 'infinity'::numeric) else 0 end), 0) from ordering.order_lines l where l.order_id = o.id)`);
    await none('deposits not as their lines\' terms ask, not held from the first payment, or not settled as the order says', `select o.order_number from ordering.orders o join payment.payments p on p.order_id = o.id
      where o.deposit <> (select coalesce(sum(l.deposit), 0) from ordering.order_lines l where l.order_id = o.id) or p.deposit <> o.deposit
         or p.deposit_held <> case when p.amount_paid > 0 then p.deposit else 0 end
         or p.deposit_refund is distinct from o.deposit_refund or p.deposit_applied is distinct from o.deposit_applied or p.deposit_refund <> p.deposit_held - coalesce(p.deposit_applied, 0)
         or exists (select 1 from ordering.order_lines l where l.order_id = o.id and l.deposit <> case when l.rental_terms -> 'deposit' ->> 'kind' = 'FIXED' then l.quantity * (l.rental_terms -> 'deposit' ->> 'amount')::numeric else 0 end)`);
    await none('deposits to refund without their refund, or refunds not as the payment, the order and reporting hold them', `select p.order_number from payment.payments p
      left join payment.payment_refunds f on f.payment_id = p.id and f.kind = 'DEPOSIT' where (coalesce(p.deposit_refund, 0) > 0) <> (f.id is not null) or f.amount <> p.deposit_refund
      union all
      select f.number from payment.payment_refunds f join payment.payments p on p.id = f.payment_id left join ordering.order_refunds o on o.refund_id = f.id left join reporting.refunds r on r.refund_id = f.id
      where (f.status = 'REFUNDED') <> (o.refund_id is not null) or (f.status = 'REFUNDED') <> (r.refund_id is not null) or o.amount <> f.amount or r.amount <> f.amount
         or o.order_id <> p.order_id or r.order_id <> p.order_id or r.refunded_at <> f.refunded_at or o.number <> f.number`);
    // A payment taken while its order was being cancelled is owed back whole: one refund of kind CANCELLED of all it took, paid back
    // when the payment is REFUNDED; the order's mirror shows what is owed back (dme.payment.refund_due).
    await none('payments owed back without one refund of all they took, or refunds of cancellations otherwise', `select p.order_number, p.status from payment.payments p
      left join payment.payment_refunds f on f.payment_id = p.id and f.kind = 'CANCELLED' left join ordering.order_payments m on m.order_id = p.order_id
      where (p.status = any(${sqlList(OWED_BACK)})) <> (f.id is not null) or f.amount <> p.amount_paid or (f.status = 'REFUNDED') <> (p.status = 'REFUNDED')
         or m.refund_due is distinct from case when p.status = any(${sqlList(OWED_BACK)}) then p.amount_paid end`);
    // (A rental on cycles may owe nothing while not PAID: its cycles paid its rent; the full payment at its return is then 0.00.)
    // (A rental owes nothing more before its return when its cycles paid it, or its first day was all of it: a day's rental.)
    await none('payments PAID with a balance, or unpaid with money taken', `select order_number, status, balance, amount_paid from payment.payments
      where (status = 'PAID' and balance <> 0)
         or (status <> 'PAID' and balance = 0 and status <> all(${sqlList(OWED_BACK)})
             and not (order_type = 'RENT' and status in ('INITIAL_PAYMENT', 'FOR_FULL_PAYMENT') and (billing = 'CYCLES' or total_partial_payment = total_order_payment)))
         or (status in ('PENDING', 'CANCELLED') and amount_paid <> 0)`);
    await none('payments that took money not mirrored in the order service (or mirrored without any)', `select p.order_number from payment.payments p left join ordering.order_payments m on m.order_id = p.order_id and m.payment_id = p.id
      where (p.amount_paid > 0) <> (m.order_id is not null) or m.status <> p.status or m.balance <> p.balance or m.order_type <> p.order_type`);
    await none('payment records not mirrored on the order', `select r.id from payment.payment_records r join payment.payments p on p.id = r.payment_id
      left join ordering.order_payment_records m on m.payment_record_id = r.id and m.order_id = p.order_id and m.amount = r.amount and m.cycle is not distinct from r.cycle where m.id is null`);
    await none('orders whose payment status does not follow their status', `select o.order_number, o.type, o.status, p.status from ordering.orders o join payment.payments p on p.order_id = o.id
      where (o.status = 'CANCELLED') <> (p.status = any(${sqlList(['CANCELLED', ...OWED_BACK])})) or (o.status in ('PENDING', 'FOR_PAYMENT')) <> (p.status in ('PENDING', 'CANCELLED') and o.status <> 'CANCELLED')
         or (o.type = 'BUY' and o.status not in ('PENDING', 'FOR_PAYMENT', 'CANCELLED') and p.status <> 'PAID') or (o.type = 'RENT' and (o.status = 'COMPLETED') <> (p.status = 'PAID'))`);
    await none('orders of customers who do not exist', `select o.order_number from ordering.orders o where not exists (select 1 from identity.users u where u.id = o.customer_id and u.deleted_at is null) or not exists (select 1 from ordering.customers cu where cu.id = o.customer_id)`);
    // A line of a product in variants names one of its variants, at the variant's price and fee (contracts levelPrice).
    await none('lines of products the catalog does not have, or not at their variant\'s price', `select l.order_id, l.product_id from ordering.order_lines l join ordering.orders o on o.id = l.order_id
      left join catalog.products p on p.id = l.product_id left join catalog.variants v on v.id = l.variant_id left join catalog.sub_variants sv on sv.id = l.sub_variant_id
      where p.id is null or p.type <> case o.type when 'RENT' then 'FOR_RENT' else 'FOR_SALE' end
         or (l.variant_id is not null and (v.id is null or v.product_id <> p.id or v.name <> l.variant_name or v.price is distinct from l.variant_price))
         or (l.variant_id is null and exists (select 1 from catalog.variants x where x.product_id = p.id))
         or l.unit_price <> coalesce(sv.price, v.price, p.price) or l.damage_charges <> coalesce(sv.damage_charges, v.damage_charges, p.damage_charges)`);
    // A line of a variant with sub-variants names one of them, by its name and price.
    await none('lines that name a sub-variant their variant does not have, or none where it has some', `select l.order_id, l.product_id from ordering.order_lines l
      left join catalog.sub_variants sv on sv.id = l.sub_variant_id
      where (l.sub_variant_id is not null and (sv.id is null or sv.variant_id is distinct from l.variant_id or sv.name <> l.sub_variant_name or sv.price is distinct from l.sub_variant_price))
         or (l.sub_variant_id is null and exists (select 1 from catalog.sub_variants x where x.variant_id = l.variant_id))`);
    await none('products the order service knows otherwise than the catalog (price, variants), or whose price range is not their variants\'', `select p.name from catalog.products p
      left join ordering.products op on op.id = p.id
      left join lateral (select min(x.price) as lo, max(x.price) as hi, count(*) as n from (${PICKABLE_PRICES('p')}) x) r on true
      where op.id is null or op.price <> p.price or op.variants <> ${ORDER_VARIANTS('p.id')}
         or p.price_min <> case when r.n > 0 then r.lo else p.price end or p.price_max <> case when r.n > 0 then r.hi else p.price end`);
    await none('stock batches not counting their units, or holding units of another leaf', `select b.id from catalog.stock_batches b left join catalog.stock_items su on su.batch_id = b.id
      group by b.id having count(su.id) <> b.quantity
         or bool_or(su.product_id <> b.product_id or su.variant_id is distinct from b.variant_id or su.sub_variant_id is distinct from b.sub_variant_id)`);
    await none('orders missing from reporting or different there', `select o.order_number from ordering.orders o join payment.payments p on p.order_id = o.id left join reporting.orders r on r.id = o.id
      where r.id is null or r.total_amount <> o.total_amount or r.status <> o.status or r.payment_status <> p.status or r.partial_payment is distinct from o.partial_payment
         or r.deposit <> o.deposit or r.deposit_refund is distinct from o.deposit_refund or r.full_due_date is distinct from o.full_payment_due`);
    await none('rentals asked for their full payment in reporting that are not back (or back and not asked), or owing another balance', `select o.order_number from reporting.orders o
      where (o.full_asked_at is not null) <> (o.type = 'RENT' and o.status in ('COMPLETED', 'FOR_FULL_PAYMENT')
                                              and not exists (select 1 from reporting.payments y where y.order_id = o.id and y.type = 'BUYOUT'))
         or o.full_balance <> o.total_amount - o.partial_payment - coalesce((select sum(y.amount) from reporting.payments y where y.order_id = o.id and y.type = 'CYCLE'), 0)
                              + coalesce(o.extra_charge, 0) - coalesce(o.deposit_applied, 0)
         or o.full_asked_at < o.placed_at or o.full_asked_at > o.full_paid_at`);
    await none('order lines missing from reporting or different there', `select l.order_id, l.position from ordering.order_lines l left join reporting.order_lines r on r.order_id = l.order_id and r.line_no = l.position
      where r.order_id is null or r.line_total <> l.line_total or r.quantity <> l.quantity or r.variant_id is distinct from l.variant_id or r.sub_variant_id is distinct from l.sub_variant_id`);
    await none('payment records missing from reporting or different there', `select r.id from payment.payment_records r join payment.payments p on p.id = r.payment_id
      left join reporting.payments x on x.payment_id = p.id and x.type = r.type and x.cycle = coalesce(r.cycle, 0) where x.payment_id is null or x.amount <> r.amount or x.confirmed_at <> r.created_at or x.deposit <> r.deposit`);
    await none('stock levels that do not count the units', `select l.leaf_id, l.quantity, l.available, count(s.id) from catalog.stock_levels l
      left join catalog.stock_items s on coalesce(s.sub_variant_id, s.variant_id, s.product_id) = l.leaf_id
      group by l.leaf_id, l.quantity, l.available having l.quantity <> count(s.id) or l.available <> count(s.id) filter (where s.status = 'AVAILABLE')`);
    // A rental under way's booking runs its line's days; a rental back's (or bought out's) runs from its delivery day, due
    // within its line's days of it, then its turnaround (one day after its due day when bought out or cut short).
    await none('bookings of orders that are not rentals under way or back, or of another product\'s unit, or not for their line\'s days', `select b.id from catalog.bookings b left join ordering.orders o on o.id = b.order_id
      join catalog.stock_items su on su.id = b.stock_item_id join catalog.products p on p.id = b.product_id
      where b.status = 'ACTIVE' and (o.id is null or o.type <> 'RENT' or o.status <> all(${sqlList([...BOOKED, ...RETURNED])}) or su.product_id <> b.product_id
         or b.leaf_id <> coalesce(su.sub_variant_id, su.variant_id, su.product_id)
         or not exists (select 1 from ordering.order_lines l where l.order_id = o.id and l.product_id = b.product_id and coalesce(l.sub_variant_id, l.variant_id, l.product_id) = b.leaf_id
                        and case when o.status = any(${sqlList(BOOKED)}) then upper(b.period) - lower(b.period) = l.no_of_rental_days
                                 else lower(b.period) = (o.delivered_at at time zone 'Asia/Manila')::date and b.due_date between lower(b.period) and lower(b.period) + l.no_of_rental_days
                                      and upper(b.period) - b.due_date between 1 and greatest(1, p.turnaround_days) end))`);
    // A unit keeps the order it was last packed for: RENTED while that rental is out, back on the shelf (AVAILABLE) once it is
    // back, or DAMAGED or LOST as it was marked at the return, SOLD when it was bought out.
    await none('units RENTED to an order that does not have them out (or out without being RENTED)', `select su.serial_code, su.status, o.status from catalog.stock_items su
      left join ordering.orders o on o.id = su.order_id
      left join catalog.bookings b on b.stock_item_id = su.id and b.order_id = su.order_id and b.status = 'ACTIVE'
      where (su.status = 'RENTED' and (su.order_id is null or o.status <> all(${sqlList(PACKED)}) or b.id is null))
         or (su.status <> 'RENTED' and su.order_id is not null
             and (o.type is distinct from 'RENT' or o.status <> all(${sqlList(RETURNED)}) or b.id is null
                  or su.status <> case when exists (select 1 from payment.payment_records r join payment.payments y on y.id = r.payment_id where y.order_id = o.id and r.type = 'BUYOUT')
                                       then 'SOLD'
                                       -- marked at the return: where its mend has it (the chain's rules below hold it to the stock-item table)
                                       when exists (select 1 from ordering.order_line_serials s where s.stock_item_id = su.id and s.order_id = su.order_id
                                                      and s.return_status = any(${sqlList(CHARGED_MARKS)})) then su.status
                                       else 'AVAILABLE' end))`);
    // A rental back is charged its late fees and the damage or lost fee of each of its units marked so at the return.
    await none('rentals back charged otherwise than their late fees and the fees of their units marked DAMAGED or LOST', `select o.order_number, o.extra_charge, o.late_fees from ordering.orders o
      where o.extra_charge is distinct from o.late_fees + coalesce((select sum(l.damage_charges) from ordering.order_line_serials s join ordering.order_lines l on l.id = s.line_id
                                                                      where s.order_id = o.id and s.return_status = any(${sqlList(CHARGED_MARKS)})), 0)`);
    await none('packed serials that are not a unit out on their order, of their line\'s variant', `select s.serial_code from ordering.order_line_serials s left join catalog.stock_items su on su.id = s.stock_item_id
      join ordering.order_lines l on l.id = s.line_id
      where (s.return_status is null and (su.id is null or su.serial_code <> s.serial_code or su.order_id is distinct from s.order_id or su.status not in ('RENTED', 'SOLD')))
         or su.product_id <> l.product_id or su.variant_id is distinct from l.variant_id or su.sub_variant_id is distinct from l.sub_variant_id`);
    await none('units out on an order that did not pack them', `select su.serial_code from catalog.stock_items su
      where su.status = 'RENTED' and not exists (select 1 from ordering.order_line_serials s where s.stock_item_id = su.id and s.order_id = su.order_id and s.return_status is null)`);
    // A line is packed whole or not at all; a rental packed (or back) has as many units packed of each leaf as it has booked
    // (a line past the leaf's free units waits unbooked and unpacked).
    await none('lines packed with another number of units than their quantity', `select l.order_id, l.position, l.quantity, count(s.id) from ordering.order_lines l
      join ordering.order_line_serials s on s.line_id = l.id
      group by l.id having count(s.id) <> l.quantity or array_agg(s.position order by s.position) <> array(select generate_series(0, l.quantity - 1))
      union all
      select o.id, null, x.booked, x.packed from ordering.orders o
       cross join lateral (select (select count(*) from catalog.bookings b where b.order_id = o.id and b.status = 'ACTIVE') as booked,
                                  (select count(*) from ordering.order_line_serials s where s.order_id = o.id) as packed) x
      where o.type = 'RENT' and o.status = any(${sqlList([...PACKED, ...RETURNED])}) and x.booked <> x.packed`);
    await none('published events a consumer of their subject has not recorded as handled', Object.entries(CONSUMERS).flatMap(([prefix, { publisher, consumers }]) =>
      consumers.map(([schema, durable]) => `select e.subject, e.id, '${durable}' as consumer from ${publisher}.outbox e
        where e.subject like '${prefix}%' and e.published_at is not null and not exists (select 1 from ${schema}.inbox i where i.consumer = '${durable}' and i.event_id = e.id)`)).join(' union all '));
    await none('events that do not say what their service holds', `select e.subject, e.id from ordering.outbox e left join ordering.orders o on o.id = (e.payload ->> 'aggregateId')::uuid
      where e.subject in ('dme.order.placed', 'dme.order.status_changed') and (o.id is null or e.payload -> 'data' ->> 'orderNumber' <> o.order_number
         or (e.subject = 'dme.order.placed' and e.payload -> 'data' ->> 'totalAmount' <> o.total_amount::text))
      union all
      select e.subject, e.id from payment.outbox e left join payment.payment_records r on r.id = (e.payload -> 'data' ->> 'recordId')::uuid
      where e.subject = 'dme.payment.confirmed' and (r.id is null or e.payload -> 'data' ->> 'amount' <> r.amount::text)
      union all
      select e.subject, e.id from payment.outbox e left join payment.payment_refunds f on f.id = (e.payload -> 'data' ->> 'refundId')::uuid
      where e.subject = 'dme.payment.refund_recorded' and (f.id is null or f.status <> 'REFUNDED' or e.payload -> 'data' ->> 'amount' <> f.amount::text
         or e.payload -> 'data' ->> 'number' <> f.number)
      union all
      select e.subject, e.id from payment.outbox e left join payment.payments p on p.id = (e.payload ->> 'aggregateId')::uuid
      where e.subject = 'dme.payment.refund_due' and (p.id is null or p.status <> all(${sqlList(OWED_BACK)}) or e.payload -> 'data' ->> 'amount' <> p.amount_paid::text)`);
    // Nothing happened after the year's end (its newest order is placed within a day of it).
    await none('payments taken, refunds paid back or orders delivered after the year\'s end', `select 'record' as what, r.id from payment.payment_records r
        where r.created_at > (select max(created_at) + interval '1 day' from ordering.orders)
      union all select 'refund', f.id from payment.payment_refunds f where f.refunded_at > (select max(created_at) + interval '1 day' from ordering.orders)
      union all select 'delivery', o.id from ordering.orders o where o.delivered_at > (select max(created_at) + interval '1 day' from ordering.orders)`);
    // Each event reads as its contract, as a consumer reads it (a sample of each outbox).
    for (const publisher of ['ordering', 'payment']) {
      const rows = (await c.query(`select id, subject, payload from ${publisher}.outbox order by seq limit 2000`)).rows as Array<{ id: string; subject: string; payload: unknown }>;
      const unread = rows.filter((r) => {
        const envelope = EventEnvelope.safeParse(r.payload);
        const schema = EVENT_DATA[r.subject as EventType] as (typeof EVENT_DATA)[EventType] | undefined;
        return !envelope.success || envelope.data.id !== r.id || envelope.data.type !== r.subject || !schema?.safeParse(envelope.data.data).success;
      });
      if (unread.length) problems.push(`${unread.length} events in ${publisher}'s outbox that do not read as their contract: ${unread.slice(0, 3).map((r) => r.id).join('; ')}`);
    }
    await none('orders the catalog does not remember (for the units\' histories), or remembers otherwise', `select o.order_number from ordering.orders o left join catalog.custody_orders co on co.order_id = o.id
      where co.order_id is null or co.order_number <> o.order_number or co.order_type <> o.type or co.customer_id is distinct from o.customer_id`);
    await none('units whose chain of custody does not start with their stocking', `select su.serial_code from catalog.stock_items su
      where (select ce.kind from catalog.custody_events ce where ce.stock_item_id = su.id order by ce.at, ce.seq limit 1) is distinct from 'STOCKED'`);
    await none('custody entries that are not their unit\'s, or name an order the catalog does not know', `select ce.id from catalog.custody_events ce
      left join catalog.stock_items su on su.id = ce.stock_item_id left join catalog.custody_orders co on co.order_id = ce.order_id
      where su.serial_code is distinct from ce.serial_code or (ce.order_id is not null and (co.order_id is null or co.order_number is distinct from ce.order_number))`);
    await none('units RENTED whose last custody entry is not of their order (packed, out for delivery, delivered, picked up)', `select su.serial_code, x.kind from catalog.stock_items su
      cross join lateral (select ce.kind, ce.order_id from catalog.custody_events ce where ce.stock_item_id = su.id order by ce.at desc, ce.seq desc limit 1) x
      where su.status = 'RENTED' and (x.order_id is distinct from su.order_id or x.kind not in ('PACKED', 'OUT_FOR_DELIVERY', 'DELIVERED', 'PICKED_UP'))`);
    // A unit back from its rental (or bought out) was last moved into the status it is in: its put-away, its mark at the return, its buy-out,
    // or the last step of its mend (a repair opened or closed, found and put away, written off).
    await none('units back from their rental whose chain does not end with a move into their status, reservations since aside', `select su.serial_code, su.status, x.kind from catalog.stock_items su
      cross join lateral (select ce.kind, ce.status from catalog.custody_events ce where ce.stock_item_id = su.id and ce.kind <> 'RESERVED' order by ce.at desc, ce.seq desc limit 1) x
      where su.order_id is not null and su.status <> 'RENTED'
        and (x.status is distinct from su.status or not exists (select 1 from ${MOVES_SQL} where mv.to_status = su.status and mv.kind = x.kind))`);
    // Every move in a unit's chain is a row of the stock-item table (contracts STOCK_ITEM_MOVES): from the status before it, with its custody entry.
    await none('units whose chain of custody makes a move the stock-item table does not have', `select x.serial_code, x.before, x.kind, x.status from
      (select ce.serial_code, ce.kind, ce.status, lag(ce.status) over (partition by ce.stock_item_id order by ce.at, ce.seq) as before
         from catalog.custody_events ce where ce.status is not null) x
      where x.before is not null and not exists (select 1 from ${MOVES_SQL} where mv.from_status = x.before and mv.to_status = x.status and mv.kind = x.kind)`);
    // The mark a serial came back with is its unit's return entry's, for that order.
    await none('serials back whose mark is not their return entry\'s', `select s.serial_code, s.return_status from ordering.order_line_serials s
      where s.return_status is not null and not exists (select 1 from catalog.custody_events ce where ce.stock_item_id = s.stock_item_id and ce.order_id = s.order_id
                                                          and ce.kind = 'RETURNED' and ce.condition = s.return_status)`);
    // A unit in repair has one open work order; a closed one closed with its unit's chain (repaired or scrapped then), opened with it.
    await none('repair work orders not as their unit\'s chain has them', `select su.serial_code, su.status from catalog.stock_items su
      where (su.status = '${stockMoveTarget('repairOpened')}') <> exists (select 1 from catalog.repair_orders r where r.stock_item_id = su.id and r.closed_at is null)
      union all
      select su.serial_code, r.outcome from catalog.repair_orders r join catalog.stock_items su on su.id = r.stock_item_id
      where not exists (select 1 from catalog.custody_events ce where ce.stock_item_id = r.stock_item_id and ce.kind = '${CUSTODY_OF_TRIGGER.repairOpened}' and ce.at = r.opened_at)
         or (r.closed_at is not null and not exists (select 1 from catalog.custody_events ce where ce.stock_item_id = r.stock_item_id and ce.kind = r.outcome and ce.condition = r.outcome and ce.at = r.closed_at))`);
    await none('products with units but no stock level', `select s.product_id from catalog.stock_items s left join catalog.stock_levels l on l.product_id = s.product_id where l.product_id is null group by s.product_id`);
  } finally {
    await c.end();
  }
  return problems;
}
