import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, ORDER_MESSAGES, ReserveLineReply, type Order, type PlaceOrderInput } from '@dme/contracts';
import {
  callRpc,
  eventEnvelope,
  HttpProblem,
  IDEMPOTENCY_TABLE,
  outboxInsertFrom,
  previousAnswer,
  qualified,
  requestHash,
  requireKey,
  runSteps,
  settleFailure,
  holdClaim,
  sql,
  step,
  type NatsConnection,
  type Principal,
  type StoredAnswer,
} from '@dme/platform';
import { z } from 'zod';
import { SOURCE } from '../../events';
import type { CheckoutStore } from './checkout.store';
import { linesOf, priceLines } from './lines';
import { checkoutOrderId } from './order-id';
import { orderAnswer, orderWrite } from './placed';

/** The catalog's answer to a reservation (built once: zod compiles a schema on its first use). */
const ReserveReply = z.object({ lines: z.array(ReserveLineReply) });

/** Idempotency-Key texts of checkout. */
const ORDER_IDEMPOTENCY = {
  missing: ORDER_MESSAGES.idempotencyMissing,
  mismatch: ORDER_MESSAGES.idempotencyMismatch,
  inProgress: ORDER_MESSAGES.idempotencyInProgress,
};

export interface Rpc {
  nc: NatsConnection;
  subjects: { reserve: string };
}

/**
 * Places an order. The same Idempotency-Key and body give the same answer and one order; the
 * same key with another body is 422. Stock is reserved in the catalog, all lines or none, and
 * the price snapshot comes back with it; every total is computed here.
 *
 * Three round trips for an order: (1) claim the key and read the cart and the customer in one
 * statement; (2) the reservation (NATS request/reply to the catalog); (3) one statement that
 * writes the order, its lines and tracker entry, empties the cart lines, records the
 * `dme.order.placed` event and stores the idempotent answer (data-modifying CTEs: all or
 * nothing). Both statements are taken in batches with the checkouts waiting at the same time
 * (checkout.store.ts): under load one statement and one commit serve many orders. The answer is
 * built from what was written, not read back. The reservation and the write are steps (platform
 * runSteps), the reservation with its undo: stock reserved for an order that is then not written
 * is released through the outbox (`dme.order.checkout_abandoned`), retried until the catalog has it.
 *
 * The order id is derived from the customer, the key and the lines (order-id.ts, issue 30), not
 * random: a checkout retried after its process died mid-request (the key taken over after its
 * lease) asks the catalog with the order id of the first attempt, and the catalog answers the
 * reservation it holds for that id instead of holding the units again. An id the key has been
 * spent on (an order written, an attempt abandoned) is not used again: the next derived one is.
 */
export async function placeOrder(
  em: EntityManager,
  store: CheckoutStore,
  rpc: Rpc,
  who: Principal,
  key: string | undefined,
  body: PlaceOrderInput,
): Promise<StoredAnswer> {
  const idemKey = requireKey(key, ORDER_IDEMPOTENCY);
  const hash = requestHash(body);
  const fromCart = body.typeOfOrder !== 'BULK';
  const first = await store.claim({ customerId: who.userId, key: idemKey, hash, cart: fromCart ? { type: body.type, ids: body.cartItemIDs ?? null } : null });
  const token = first.token;
  if (!token) return previousAnswer(em, { owner: who.userId, key: idemKey, hash }, ORDER_IDEMPOTENCY);

  const attempt = { customerId: who.userId, key: idemKey, token };
  const release = holdClaim(em, { owner: who.userId, key: idemKey }, token);
  try {
    const { lines, cartIds } = linesOf(body, first.cart);
    // Derived, not random (issue 30): a retry of this checkout reserves under the same id.
    const orderId = checkoutOrderId(who.userId, idemKey, lines, first.usedOrderIds);
    const ctx: { reply: ReserveLineReply[]; order?: Order } = { reply: [] };
    await runSteps(ctx, [
      step(
        'reserve the stock',
        async (c) => {
          c.reply = ReserveReply.parse(await callRpc(rpc.nc, rpc.subjects.reserve, { orderId, orderType: body.type, lines })).lines;
        },
        () => abandonCheckout(em, orderId, attempt),
        // Stock the catalog may have held without its answer reaching us (a timeout) is given back
        // too; a definite refusal of the reservation (4xx) held nothing.
        (err) => !(err instanceof HttpProblem && err.status < 500),
      ),
      step('write the order', async (c) => {
        const placed = { orderId, who, body, customer: first.customer, ...priceLines(lines, c.reply, body.type), now: new Date() };
        const order = orderAnswer(placed);
        order.orderNumber = await store.write(orderWrite(placed, order, { cartIds, key: idemKey, token }));
        c.order = order;
      }),
    ]);
    return { status: 201, body: { order: ctx.order } };
  } catch (err) {
    // A definite answer (4xx) is stored for the same key and body; otherwise the key is freed.
    await settleFailure(em, who.userId, idemKey, token, err, '/api/orders');
    throw err;
  } finally {
    release();
  }
}

/**
 * Stock was reserved for an order that was not written: the catalog releases it when it sees
 * `dme.order.checkout_abandoned`, which the outbox relay publishes (and retries) like any event.
 * If even this row cannot be written (the database is gone), the reservation lapses after its
 * hold time in the catalog.
 *
 * Only while this request still holds its claim of the key (the claim row locked for the
 * statement): the order id is the key's, so a claimant whose lease ran out and was taken over must
 * not release what the request that took the key over reserves (or has written an order with)
 * under the same id. With the event, the id is recorded as spent by the key (checkout_attempts):
 * the next checkout with the key takes another id, so the release, whenever it reaches the
 * catalog, cannot take back the units of a later attempt.
 */
export async function abandonCheckout(em: EntityManager, orderId: string, attempt: { customerId: string; key: string; token: string }): Promise<void> {
  const event = eventEnvelope(SOURCE, { type: EVENTS.order.checkoutAbandoned, aggregateId: orderId, data: { orderId } });
  const text = `with held as materialized (
       select owner_id, key from ${qualified(em, IDEMPOTENCY_TABLE)}
        where owner_id = $4::uuid and key = $5 and state = 'IN_PROGRESS' and created_at = $6::timestamptz
          for update
     ), spent as (
       insert into ${qualified(em, 'checkout_attempts')} (order_id, customer_id, key, outcome)
       select $7::uuid, owner_id, key, 'ABANDONED' from held
       on conflict (order_id) do nothing
     )
     ${outboxInsertFrom(em, 'select $1::uuid, $2::varchar, $3::jsonb from held')}`;
  const values = [event.id, event.type, JSON.stringify(event), attempt.customerId, attempt.key, attempt.token, orderId];
  for (let n = 0; n < 3; n++) {
    try {
      await sql(em, text, values);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100 * (n + 1)));
    }
  }
}
