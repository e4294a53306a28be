import type { EntityManager } from '@mikro-orm/postgresql';
import { ClaimLostError, claimKeys, IDEMPOTENCY_TABLE, MicroBatcher, outboxInsertFrom, paddedNumberSql, qualified, sql, type Settled } from '@dme/platform';

/** A cart line as the claim reads it. */
export interface CartLineRow {
  id: string;
  product_id: string;
  variant_id: string | null;
  sub_variant_id: string | null;
  quantity: number;
  no_of_rental_days: number | null;
  /** A rental line's first day (YYYY-MM-DD), null when not chosen (today). */
  start_date: string | null;
}

export interface Claim {
  customerId: string;
  key: string;
  hash: string;
  /** The cart lines to read (an order from the cart), or null (a bulk order). */
  cart: { type: string; ids: string[] | null } | null;
}

export interface Claimed {
  /** This request's claim token when it holds the key now; null when another request has it. */
  token: string | null;
  customer: Record<string, string> | null;
  cart: CartLineRow[] | null;
  /**
   * The order ids this customer's key has been spent on already (an order written, an attempt
   * abandoned: checkout_attempts), read with the claim; the checkout takes the next derived id.
   */
  usedOrderIds: string[];
}

/** One order to write, with everything it is written with (rows as the tables take them). */
export interface OrderWrite {
  id: string;
  /** The Manila date of the order, YYYYMMDD, for its number. */
  day: string;
  customerId: string;
  type: string;
  typeOfOrder: string | null;
  totalAmount: string;
  partialPayment: string | null;
  deposit: string;
  /** How its rent is billed (issue 29). */
  billing: string;
  deliveryAddress: string;
  deliveryCity: string;
  deliveryState: string;
  deliveryZipcode: string;
  note: string;
  createdAt: Date;
  lines: Array<Record<string, unknown>>;
  trackerId: string;
  trackerTitle: string;
  cartIds: string[];
  event: { id: string; type: string; payload: unknown };
  /** The stored idempotent answer (its order number is filled in by the write). */
  answer: unknown;
  key: string;
  /** The claim's token: the order is written only while the claim is still this request's. */
  token: string;
}

/**
 * The two statements of a checkout that are the order service's own, each taken in batches
 * (MicroBatcher: the requests that wait while one batch is in the database go together):
 * claiming the idempotency key (with the customer and, for a cart order, the cart lines read in
 * the same snapshot), and writing the order with its lines, tracker entry, cart lines removed,
 * outbox event, the order id recorded as spent by its key (checkout_attempts) and stored answer
 * (the key's answer, stored in the platform's idempotency table in the same statement as the order). Under load one statement and one commit serve many checkouts.
 */
export interface CheckoutStore {
  claim(claim: Claim): Promise<Claimed>;
  /** Writes the order; answers its order number. */
  write(order: OrderWrite): Promise<string>;
}

export function checkoutStore(em: EntityManager): CheckoutStore {
  const claims = new MicroBatcher<Claim, Claimed>((items) => claimMany(em, items));
  const writes = new MicroBatcher<OrderWrite, string>((items) => writeMany(em, items));
  return { claim: (c) => claims.add(c), write: (w) => writes.add(w) };
}

/**
 * Claims keys (the platform's claimKeys: one statement for the batch; a key asked for twice in one
 * batch is held by the first request), then reads the customers, the order ids each key has been
 * spent on (issue 30) and, for cart orders, the cart lines in one more statement (after the claim:
 * an abandonment recorded by an earlier claimant of the key is committed before the key is free).
 */
export async function claimMany(em: EntityManager, items: Claim[]): Promise<Array<Settled<Claimed>>> {
  const tokens = await claimKeys(em, items.map((c) => ({ owner: c.customerId, key: c.key, hash: c.hash })));
  const rows = items.map((c, i) => ({ i, customer_id: c.customerId, key: c.key, cart_type: c.cart?.type ?? null, cart_ids: c.cart?.ids ?? null }));
  const found = await sql<{ i: number; customer: Record<string, string> | null; cart: CartLineRow[] | null; used: string[] }>(
    em,
    `select r.i,
            (select row_to_json(c) from ${qualified(em, 'customers')} c where c.id = r.customer_id) as customer,
            array(select a.order_id::text from ${qualified(em, 'checkout_attempts')} a where a.customer_id = r.customer_id and a.key = r.key) as used,
            case when r.cart_type is null then null else (
              select coalesce(json_agg(json_build_object('id', ci.id, 'product_id', ci.product_id, 'variant_id', ci.variant_id,
                       'sub_variant_id', ci.sub_variant_id, 'quantity', ci.quantity, 'no_of_rental_days', ci.no_of_rental_days, 'start_date', to_char(ci.start_date, 'YYYY-MM-DD'))
                       order by ci.created_at, ci.id), '[]'::json)
                from ${qualified(em, 'cart_items')} ci
               where ci.customer_id = r.customer_id and ci.type = r.cart_type and (r.cart_ids is null or ci.id = any(r.cart_ids))
            ) end as cart
       from jsonb_to_recordset($1::jsonb) as r(i int, customer_id uuid, key text, cart_type text, cart_ids uuid[])
      order by r.i`,
    [JSON.stringify(rows)],
  );
  return found.map((f) => ({ ok: true, value: { token: tokens[f.i] ?? null, customer: f.customer, cart: f.cart, usedOrderIds: f.used } }));
}

/**
 * Writes orders in one statement (data-modifying CTEs: all or nothing): the orders, numbered in
 * the order they came; their lines and first tracker entries; the cart lines they were made of;
 * each one's `dme.order.placed` in the outbox, its id recorded as spent by its key (a retry after
 * the stored answer expired takes another id) and its stored idempotent answer, both with the
 * order number filled in. Only orders whose key is still claimed with their token are written
 * (the claim's row locked for the statement): one whose lease ran out and was taken over by a
 * retry is not, and fails alone.
 * $3: the batch's customers, so the keys and cart lines are read by key: PostgreSQL guesses the
 * batch's JSON at 100 rows and for that many hashed every idempotency key (a sequential scan on
 * each write, as the catalog's reservation did: batchKeys there).
 * $4 and $5: each order's customer and key, side by side. The claimed keys are read by both, one
 * probe of the key table's primary key an order (an unnest of the two arrays drives the join):
 * read by customer alone, a batch read every key its customers had sent that day (hundreds each in
 * the checkout bench: 5 of a 12 ms write).
 */
export async function writeMany(em: EntityManager, items: OrderWrite[]): Promise<Array<Settled<string>>> {
  const written = await sql<{ id: string; order_number: string }>(em, ...writeOrdersStatement(em, items));
  const numbers = new Map(written.map((w) => [w.id, w.order_number]));
  return items.map((w) => {
    const n = numbers.get(w.id);
    return n ? { ok: true, value: n } : { ok: false, error: new ClaimLostError(w.key) };
  });
}

/** writeMany's statement with its parameters (its plan is tested: plans.test.ts). */
export function writeOrdersStatement(em: EntityManager, items: OrderWrite[]): [string, unknown[]] {
  const t = (name: string) => qualified(em, name);
  const orders = items.map((w, i) => ({
    i,
    id: w.id,
    day: w.day,
    customer_id: w.customerId,
    type: w.type,
    type_of_order: w.typeOfOrder,
    total_amount: w.totalAmount,
    partial_payment: w.partialPayment,
    deposit: w.deposit,
    billing: w.billing,
    delivery_address: w.deliveryAddress,
    delivery_city: w.deliveryCity,
    delivery_state: w.deliveryState,
    delivery_zipcode: w.deliveryZipcode,
    note: w.note,
    created_at: w.createdAt.toISOString(),
    tracker_id: w.trackerId,
    title: w.trackerTitle,
    cart_ids: w.cartIds,
    event_id: w.event.id,
    subject: w.event.type,
    event: w.event.payload,
    answer: w.answer,
    key: w.key,
    token: w.token,
  }));
  const lines = items.flatMap((w) => w.lines.map((l) => ({ ...l, order_id: w.id })));
  return [
    `with req as materialized (
       select * from jsonb_to_recordset($1::jsonb) as r(i int, id uuid, day text, customer_id uuid, type text, type_of_order text,
         total_amount numeric, partial_payment numeric, deposit numeric, billing text, delivery_address text, delivery_city text, delivery_state text, delivery_zipcode text,
         note text, created_at timestamptz, tracker_id uuid, title text, cart_ids uuid[], event_id uuid, subject text, event jsonb, answer jsonb, key text,
         token timestamptz)
     ), owned as materialized (
       select r.* from unnest($4::uuid[], $5::text[]) as asked(owner_id, key)
         join ${t(IDEMPOTENCY_TABLE)} k on k.owner_id = asked.owner_id and k.key = asked.key
         join req r on r.customer_id = k.owner_id and r.key = k.key
        where k.state = 'IN_PROGRESS' and k.created_at = r.token
          for update of k
     ), numbered as materialized (
       select r.*, nextval('${t('order_number_seq')}') as seq from (select * from owned order by i) r
     ), o as (
       insert into ${t('orders')} (id, order_number, customer_id, type, type_of_order, status, total_amount, partial_payment, deposit, billing,
         delivery_address, delivery_city, delivery_state, delivery_zipcode, note, created_at, updated_at)
       select r.id, 'ORD-' || r.day || '-' || ${paddedNumberSql('r.seq')}, r.customer_id, r.type, r.type_of_order, 'PENDING',
              r.total_amount, r.partial_payment, r.deposit, r.billing, r.delivery_address, r.delivery_city, r.delivery_state, r.delivery_zipcode, r.note, r.created_at, r.created_at
         from numbered r order by r.i
       returning id, order_number
     ), l as (
       insert into ${t('order_lines')} (id, order_id, position, product_id, product_name, product_image, variant_id, variant_name,
         variant_price, sub_variant_id, sub_variant_name, sub_variant_price, quantity, no_of_rental_days, start_date, unit_price, damage_charges, line_total,
         rental_terms, deposit)
       select x.id, x.order_id, x.position, x.product_id, x.product_name, x.product_image, x.variant_id, x.variant_name, x.variant_price,
         x.sub_variant_id, x.sub_variant_name, x.sub_variant_price, x.quantity, x.no_of_rental_days, x.start_date, x.unit_price, x.damage_charges, x.line_total,
         x.rental_terms, coalesce(x.deposit, 0)
       from jsonb_to_recordset($2::jsonb) as x(id uuid, order_id uuid, position int, product_id uuid, product_name text, product_image text, variant_id uuid,
         variant_name text, variant_price numeric, sub_variant_id uuid, sub_variant_name text, sub_variant_price numeric, quantity int,
         no_of_rental_days int, start_date date, unit_price numeric, damage_charges numeric, line_total numeric, rental_terms jsonb, deposit numeric)
       where x.order_id in (select id from owned)
     ), t as (
       insert into ${t('order_tracker')} (id, order_id, title, status, created_at) select r.tracker_id, r.id, r.title, 'PENDING', r.created_at from owned r
     ), c as (
       delete from ${t('cart_items')} ci using owned r where ci.customer_id = r.customer_id and ci.id = any(r.cart_ids) and ci.customer_id = any($3::uuid[])
     ), e as (
       ${outboxInsertFrom(em, `select r.event_id, r.subject, jsonb_set(r.event, '{data,orderNumber}', to_jsonb(o.order_number)) from owned r join o on o.id = r.id order by r.i`)}
     ), spent as (
       insert into ${t('checkout_attempts')} (order_id, customer_id, key, outcome)
       select r.id, r.customer_id, r.key, 'PLACED' from owned r join o on o.id = r.id
       on conflict (order_id) do nothing
     ), k as (
       update ${t(IDEMPOTENCY_TABLE)} k set state = 'DONE', response_status = 201,
              response_body = jsonb_set(r.answer, '{order,orderNumber}', to_jsonb(o.order_number))
         from owned r join o on o.id = r.id
        where k.owner_id = r.customer_id and k.key = r.key and k.owner_id = any($3::uuid[])
     )
     select id, order_number from o`,
    [JSON.stringify(orders), JSON.stringify(lines), [...new Set(items.map((w) => w.customerId))], items.map((w) => w.customerId), items.map((w) => w.key)],
  ];
}
