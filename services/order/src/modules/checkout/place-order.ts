import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, ORDER_MESSAGES, ReserveLineReply, type Order, type PlaceOrderInput } from '@dme/contracts';
import {
  callRpc,
  eventEnvelope,
  HttpProblem,
  outboxInsert,
  previousAnswer,
  requestHash,
  requireKey,
  runSteps,
  settleFailure,
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

  const orderId = randomUUID();
  try {
    const { lines, cartIds } = linesOf(body, first.cart);
    const ctx: { reply: ReserveLineReply[]; order?: Order } = { reply: [] };
    await runSteps(ctx, [
      step(
        'reserve the stock',
        async (c) => {
          c.reply = ReserveReply.parse(await callRpc(rpc.nc, rpc.subjects.reserve, { orderId, orderType: body.type, lines })).lines;
        },
        () => abandonCheckout(em, orderId),
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
  }
}

/**
 * Stock was reserved for an order that was not written: the catalog releases it when it sees
 * `dme.order.checkout_abandoned`, which the outbox relay publishes (and retries) like any event.
 * If even this row cannot be written (the database is gone), the reservation lapses after its
 * hold time in the catalog.
 */
async function abandonCheckout(em: EntityManager, orderId: string): Promise<void> {
  const event = eventEnvelope(SOURCE, { type: EVENTS.order.checkoutAbandoned, aggregateId: orderId, data: { orderId } });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const row = outboxInsert(em, event);
      await sql(em, row.text, row.values);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
    }
  }
}
