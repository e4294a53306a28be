import { handoverBody } from '@dme/testing/handover';
import type { HandoverLeg, HandoverRequest } from '@dme/contracts';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { centsToString, EVENTS, toCents, type EventData, type EventEnvelope, type EventInput } from '@dme/contracts';
import {
  connectNats,
  createLogger,
  createOrm,
  ensureEventStream,
  eventEnvelope,
  migrate,
  OutboxRelay,
  pgBlobStore,
  type NatsConnection,
  type Orm,
  type RunningConsumer,
} from '@dme/platform';
import { createTestDatabase, eventually, listen, serviceClient, TEST_INTERNAL_TOKEN, testNatsUrl, TINY_PNG, type Caller, type Json, type TestServer } from '@dme/testing';
import { startCatalogService } from '@dme/testing/catalog';
import { ledger, nonZero, recount, type LeafCounts } from '@dme/testing/ledger';
import { createApp, migrations, OrderEnv, startPaymentConsumer, startReadModelConsumers } from '../app';

export const IMAGE = '/api/uploads/0123456789abcdef0123456789abcdef.png';

export interface OrderHarness {
  nc: NatsConnection;
  /** The request/reply subjects of this run (the catalog's reservation responder answers on `reserve`). */
  subjects: { reserve: string; release: string };
  catalogOrm: Orm;
  orderOrm: Orm;
  catalog: ReturnType<typeof serviceClient>;
  order: ReturnType<typeof serviceClient>;
  /** The order service's base URL (for binary answers, read with fetch). */
  orderUrl: string;
  staff: Caller;
  customer: () => Caller;
  /** A new caller of any role. */
  as: (userType: Caller['userType']) => Caller;
  /** The order service's consumer of payment events (durable: stopping it keeps its place). */
  payments: { stop: () => Promise<void>; start: () => Promise<void> };
  /** Publishes an event on JetStream as its service would (message id = event id). */
  publish: (event: EventEnvelope) => Promise<void>;
  /** Creates a product in the catalog and waits until the order service knows it. */
  product: (body: Record<string, unknown>) => Promise<Json>;
  /** Adds stock in the catalog; answers the new items' serial codes. */
  addStock: (body: Record<string, unknown>) => Promise<string[]>;
  binId: string;
  available: (productId: string) => Promise<Json>;
  close: () => Promise<void>;
}

/**
 * The catalog and the order service, each on its own schema of one fresh database, talking over a
 * real NATS (reservation by request/reply on subjects private to this run, events through the
 * outbox and JetStream), booted in-process.
 */
export async function startOrdering(): Promise<OrderHarness> {
  const run = randomUUID().slice(0, 8);
  const subjects = { reserve: `rpc.test.${run}.reserve`, release: `rpc.test.${run}.release`, assignSerials: `rpc.test.${run}.assign-serials`, checkSerial: `rpc.test.${run}.check-serial`, returnSerial: `rpc.test.${run}.return-serial`, availability: `rpc.test.${run}.availability`, extendBookings: `rpc.test.${run}.extend-bookings`, endBookingsEarly: `rpc.test.${run}.end-bookings-early` };
  const logger = createLogger('order-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const db = await createTestDatabase('order');
  const dir = await mkdtemp(join(tmpdir(), 'order-'));
  const nc = await connectNats(testNatsUrl(), `order-test-${run}`);
  await ensureEventStream(nc);

  const catalogService = await startCatalogService({ databaseUrl: db.url, nc, logger, uploadDir: dir, subjects, durable: `catalog-orders-${run}` });
  const catalogOrm = catalogService.orm;
  await pgBlobStore(catalogOrm.em).put(IMAGE.slice('/api/uploads/'.length), 'image/png', TINY_PNG);
  const orderOrm = await createOrm({ url: db.url, schema: 'ordering', entities: [], migrations, poolMax: 20 });
  await migrate(orderOrm, 'ordering', db.url);

  const orderRelay = new OutboxRelay({ em: orderOrm.em, nc, logger, intervalMs: 50 });
  orderRelay.start();
  const consumers: RunningConsumer[] = await startReadModelConsumers({ nc, em: orderOrm.em, logger, durablePrefix: `order-${run}` });
  const startPayments = () => startPaymentConsumer({ nc, em: orderOrm.em, logger, durablePrefix: `order-${run}` });
  let payments: RunningConsumer | undefined = await startPayments();

  const servers: TestServer[] = [
    catalogService.server,
    await listen(
      createApp({
        orm: orderOrm,
        logger,
        nc,
        rpcSubjects: subjects,
        config: OrderEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN }),
        afterCommit: () => orderRelay.kick(),
      }),
    ),
  ];
  const catalog = serviceClient(servers[0]!.url);
  const order = serviceClient(servers[1]!.url);
  const staff: Caller = { userId: randomUUID(), userType: 'WAREHOUSE_STAFF' };
  const binId = (await catalog.post('/api/warehouse-bins', { name: `Bin ${run}`, description: 'test' }, { as: staff })).body.bin.id;

  return {
    nc,
    subjects,
    catalogOrm,
    orderOrm,
    catalog,
    order,
    orderUrl: servers[1]!.url,
    staff,
    binId,
    customer: () => ({ userId: randomUUID(), userType: 'CUSTOMER' }),
    as: (userType) => ({ userId: randomUUID(), userType }),
    payments: {
      async stop() {
        await payments?.stop();
        payments = undefined;
      },
      async start() {
        payments ??= await startPayments();
      },
    },
    async publish(event) {
      await jetstream(nc).publish(event.type, JSON.stringify(event), { msgID: event.id });
    },
    async product(body) {
      const res = await catalog.post('/api/products', { image: IMAGE, description: 'x', damageCharges: '100.00', ...body }, { as: staff });
      if (res.status !== 201) throw new Error(`product: ${res.status} ${res.text}`);
      const id = res.body.product.id;
      await eventually(async () => {
        const rows = await orderOrm.em.fork().execute('select 1 from ordering.products where id = ?', [id]);
        return rows.length > 0;
      }, 10_000);
      return res.body.product;
    },
    async addStock(body) {
      const res = await catalog.post('/api/stocks', { warehouseBinID: binId, ...body }, { as: staff });
      if (res.status !== 201) throw new Error(`stock: ${res.status} ${res.text}`);
      return res.body.items.map((i: { serialCode: string }) => i.serialCode);
    },
    async available(productId) {
      return (await catalog.get(`/api/admin/products/${productId}`, { as: staff })).body.product;
    },
    async close() {
      await Promise.allSettled([...consumers, ...(payments ? [payments] : [])].map((c) => c.stop()));
      await orderRelay.stop();
      await servers[1]!.close();
      await catalogService.close();
      await nc.drain();
      await orderOrm.close();
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export const ADDRESS = {
  deliveryAddress: '12 Rizal St',
  deliveryCity: 'Makati',
  deliveryState: 'Metro Manila',
  deliveryZipcode: '121000',
  note: '',
};

/** Places an order as the customer, with a fresh Idempotency-Key unless one is given. */
/**
 * A hand-over at the door by `as` (issue 28): every unit packed for the order, signed; `over`
 * changes any field (an outcome, a missing signature…). The serials are read from the order's detail.
 */
export async function handOver(h: OrderHarness, as: Caller, order: Json, leg: HandoverLeg = 'DELIVERY', over: Partial<HandoverRequest> = {}) {
  const packed = (await h.order.get(`/api/orders/${order.id}`, { as: h.staff })).body.order;
  return h.order.post(`/api/driver/orders/${order.id}/handover`, handoverBody(packed, leg, over), { as });
}

export function place(h: OrderHarness, as: Caller, body: Record<string, unknown>, key: string = randomUUID()) {
  return h.order.post('/api/orders', { ...ADDRESS, ...body }, { as, headers: { 'idempotency-key': key } });
}

/**
 * `dme.payment.confirmed` for an order, as the payment service publishes it: a rental's first
 * payment (PARTIAL, the first day) or full payment, or a purchase's payment (FULL).
 */
export function paymentConfirmed(
  order: Json,
  kind: 'first' | 'full' = 'first',
  overrides: Partial<EventInput<typeof EVENTS.payment.confirmed>> = {},
): EventEnvelope<EventData<typeof EVENTS.payment.confirmed>> {
  const rent = order.type === 'RENT';
  const partial = kind === 'first' && rent;
  const data: EventInput<typeof EVENTS.payment.confirmed> = {
    paymentId: randomUUID(),
    orderId: order.id,
    orderNumber: order.orderNumber,
    customerId: order.customerID,
    orderType: order.type,
    type: partial ? 'PARTIAL' : 'FULL',
    status: partial ? 'INITIAL_PAYMENT' : 'PAID',
    // A rental's first payment takes its deposit with it (issue 29), as the payment service does.
    amount: partial ? centsToString(toCents(order.partialPayment) + toCents(order.payment?.deposit ?? '0')) : order.totalAmount,
    deposit: partial ? (order.payment?.deposit ?? '0.00') : '0.00',
    invoiceNumber: `INV-${randomUUID().slice(0, 6)}`,
    receiptNumber: `OR-${randomUUID().slice(0, 6)}`,
    note: '',
    accommodatedBy: randomUUID(),
    confirmedAt: new Date().toISOString(),
    totalPartialPayment: rent ? order.partialPayment : null,
    extraCharge: null,
    overallTotal: partial ? '0.00' : order.totalAmount,
    balance: partial ? centsToString(toCents(order.totalAmount) - toCents(order.partialPayment)) : '0.00',
    dueDate: null,
    ...overrides,
  };
  return eventEnvelope('payment', { type: EVENTS.payment.confirmed, aggregateId: data.paymentId, data });
}

/**
 * Takes a placed order to PREPARING as the shop runs it: staff confirm it (PENDING → FOR_PAYMENT),
 * the payment service confirms its first payment (an event), the order service moves it.
 */
export async function toPreparing(h: OrderHarness, order: Json): Promise<Json> {
  const confirmed = await h.order.post(`/api/orders/${order.id}/transitions`, { to: 'FOR_PAYMENT' }, { as: h.staff });
  if (confirmed.status !== 200) throw new Error(`FOR_PAYMENT: ${confirmed.status} ${confirmed.text}`);
  await h.publish(paymentConfirmed(confirmed.body.order));
  return eventually(async () => {
    const res = await h.order.get(`/api/orders/${order.id}`, { as: h.staff });
    return res.body.order.status === 'PREPARING' ? res.body.order : undefined;
  }, 10_000);
}

/**
 * The catalog's stock ledger of some products, and a recount of the same numbers from the facts
 * (stock items per leaf and status; units active reservations hold), leaves with all zeros left
 * out: the two must always be equal (the catalog's own tests use the same helpers).
 */
export async function ledgerAndRecount(h: OrderHarness, productIds: string[]): Promise<{ ledger: Record<string, LeafCounts>; recount: Record<string, LeafCounts> }> {
  const em = h.catalogOrm.em.fork();
  const [l, r] = await Promise.all([ledger(em, productIds), recount(em.fork(), productIds)]);
  return { ledger: nonZero(l), recount: nonZero(r) };
}

/**
 * The packing tests' stock (fulfilment.test.ts, packing.test.ts): a chair with a Standard variant
 * (4 units) and a Heavy one with sub-variants 20 in (2) and 22 in (1), a cane (1), and a rental of
 * 2 Standard for 3 days and 1 Heavy / 20 in for 5 days by `customer`, taken to PREPARING.
 */
export async function chairRentalPreparing(h: OrderHarness, customer: Caller): Promise<{
  chair: Json;
  cane: Json;
  std: string[];
  h20: string[];
  h22: string[];
  canes: string[];
  order: Json;
}> {
  const chair = await h.product({
    brand: 'Drive',
    name: `Chair ${randomUUID().slice(0, 6)}`,
    type: 'FOR_RENT',
    price: '15.00',
    variants: [
      { name: 'Standard', price: '15.00', damageCharges: '250.00' },
      { name: 'Heavy', subVariants: [{ name: '20 in', price: '22.50', damageCharges: '350.00' }, { name: '22 in', price: '24.00', damageCharges: '350.00' }] },
    ],
  });
  const cane = await h.product({ brand: 'Drive', name: `Cane ${randomUUID().slice(0, 6)}`, type: 'FOR_RENT', price: '5.00' });
  const [standard, heavy] = chair.variants;
  const std = await h.addStock({ productID: chair.id, productVariantID: standard.id, quantity: 4 });
  const h20 = await h.addStock({ productID: chair.id, productVariantID: heavy.id, productSubVariantID: heavy.subVariants[0].id, quantity: 2 });
  const h22 = await h.addStock({ productID: chair.id, productVariantID: heavy.id, productSubVariantID: heavy.subVariants[1].id, quantity: 1 });
  const canes = await h.addStock({ productID: cane.id, quantity: 1 });
  const placed = await place(h, customer, {
    type: 'RENT',
    typeOfOrder: 'BULK',
    lines: [
      { productID: chair.id, productVariantID: standard.id, quantity: 2, noOfRentalDays: 3 },
      { productID: chair.id, productVariantID: heavy.id, productSubVariantID: heavy.subVariants[0].id, quantity: 1, noOfRentalDays: 5 },
    ],
  });
  if (placed.status !== 201) throw new Error(`the chair rental was not placed: ${placed.status} ${JSON.stringify(placed.body)}`);
  return { chair, cane, std, h20, h22, canes, order: await toPreparing(h, placed.body.order) };
}
