import { randomUUID } from 'node:crypto';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { EVENT_STREAM, type EventEnvelope } from '@dme/contracts';
import { connectNats, createLogger, createOrm, ensureEventStream, IDENTITY_HEADERS, migrate, type NatsConnection, type Orm, type RunningConsumer } from '@dme/platform';
import { createTestDatabase, listen, serviceClient, TEST_INTERNAL_TOKEN, testNatsUrl, type Caller, type Json, type TestServer } from '@dme/testing';
import { createApp, entities, migrations, orderEventHandler, PaymentEnv, startOrderConsumer } from '../app';

export interface PaymentHarness {
  orm: Orm;
  nc: NatsConnection;
  api: ReturnType<typeof serviceClient>;
  /** GET as the gateway would, the body as bytes (PDFs), or as a problem when it is one. */
  download: (path: string, as: Caller) => Promise<{ status: number; headers: Headers; bytes: ArrayBuffer; problem: Json }>;
  /** A fresh caller of a role, with a username (accommodatedByName). */
  as: (userType: Caller['userType']) => Caller & { username: string };
  accounting: Caller & { username: string };
  /** Runs the consumer's handler on these events in one transaction (as a batch of the consumer would). */
  feed: (...events: EventEnvelope[]) => Promise<void>;
  /** Publishes envelopes to the real event stream, as the order service's outbox relay does. */
  publish: (...events: EventEnvelope[]) => Promise<void>;
  /** Starts the real consumer of order events under a durable name private to this run (new events only). */
  startConsumer: () => Promise<string>;
  close: () => Promise<void>;
}

/** The payment service on a fresh database, booted in-process, with NATS for its consumer. */
export async function startPayments(): Promise<PaymentHarness> {
  const run = randomUUID().slice(0, 8);
  const logger = createLogger('payment-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const db = await createTestDatabase('payment');
  const orm = await createOrm({ url: db.url, schema: 'payment', entities, migrations, poolMax: 20 });
  await migrate(orm, 'payment', db.url);
  const nc = await connectNats(testNatsUrl(), `payment-test-${run}`);
  await ensureEventStream(nc);
  const config = PaymentEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN });
  const server: TestServer = await listen(createApp({ orm, config, logger }));
  const handle = orderEventHandler(logger);
  const consumers: RunningConsumer[] = [];
  const durables: string[] = [];
  const as = (userType: Caller['userType']) => ({ userId: randomUUID(), userType, username: `${userType.toLowerCase()}_${randomUUID().slice(0, 4)}` });
  return {
    orm,
    nc,
    api: serviceClient(server.url),
    async download(path, who) {
      const res = await fetch(`${server.url}${path}`, {
        headers: {
          [IDENTITY_HEADERS.internalToken]: TEST_INTERNAL_TOKEN,
          [IDENTITY_HEADERS.userId]: who.userId,
          [IDENTITY_HEADERS.userType]: who.userType,
          [IDENTITY_HEADERS.username]: who.username ?? 'tester',
        },
      });
      const bytes = await res.arrayBuffer();
      const problem = res.headers.get('content-type')?.includes('json') ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined;
      return { status: res.status, headers: res.headers, bytes, problem };
    },
    as,
    accounting: as('ACCOUNTING_ADMIN'),
    feed: (...events) => orm.em.fork().transactional((tem) => handle(tem, events)),
    async publish(...events) {
      const js = jetstream(nc);
      for (const e of events) await js.publish(e.type, JSON.stringify(e), { msgID: e.id });
    },
    async startConsumer() {
      const durable = `payment-orders-test-${run}-${durables.length}`;
      // Created here first, delivering only what is published from now on (startConsumer keeps an
      // existing durable as it is): the stream's history belongs to other runs.
      const jsm = await jetstreamManager(nc);
      await jsm.consumers.add(EVENT_STREAM, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.New,
        ack_wait: nanos(30_000),
        max_deliver: -1,
        filter_subject: 'dme.order.>',
      });
      durables.push(durable);
      consumers.push(await startOrderConsumer({ nc, em: orm.em, logger, durable }));
      return durable;
    },
    async close() {
      await Promise.allSettled(consumers.map((c) => c.stop()));
      const jsm = await jetstreamManager(nc);
      for (const d of durables) await jsm.consumers.delete(EVENT_STREAM, d).catch(() => undefined);
      await server.close();
      await nc.drain();
      await orm.close();
      await db.drop();
    },
  };
}

export { daysChangedEvent, placedEvent, purchase, rental, rentalToFullPayment, statusEvent, type PlacedData } from '@dme/testing/order-events';

/** POST /api/payments/:id/confirm with a fresh Idempotency-Key unless one is given. */
export function confirmAs(h: PaymentHarness, who: Caller, paymentId: string, body: Record<string, unknown> = { invoiceNumber: 'INV-1001', receiptNumber: 'OR-5001', note: '' }, key: string = randomUUID()) {
  return h.api.post(`/api/payments/${paymentId}/confirm`, body, { as: who, headers: { 'idempotency-key': key } });
}

/** The payment id of an order (straight from the table). */
export async function paymentIdOf(h: PaymentHarness, orderId: string): Promise<string> {
  const [row] = await h.orm.em.fork().execute<Array<{ id: string }>>('select id from payment.payments where order_id = ?', [orderId]);
  if (!row) throw new Error(`no payment for order ${orderId}`);
  return row.id;
}
