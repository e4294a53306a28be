import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connectNats,
  createLogger,
  createOrm,
  ensureEventStream,
  migrate,
  OutboxRelay,
  type NatsConnection,
  type Orm,
  type RunningConsumer,
} from '@dme/platform';
import { createTestDatabase, eventually, listen, serviceClient, TEST_INTERNAL_TOKEN, testNatsUrl, TINY_PNG, type Caller, type Json, type TestServer } from '@dme/testing';
import { startCatalogService } from '@dme/testing/catalog';
import { createApp, migrations, OrderEnv, startReadModelConsumers } from '../app';

export const IMAGE = '/api/uploads/0123456789abcdef0123456789abcdef.png';

export interface OrderHarness {
  nc: NatsConnection;
  catalogOrm: Orm;
  orderOrm: Orm;
  catalog: ReturnType<typeof serviceClient>;
  order: ReturnType<typeof serviceClient>;
  staff: Caller;
  customer: () => Caller;
  /** Creates a product in the catalog and waits until the order service knows it. */
  product: (body: Record<string, unknown>) => Promise<Json>;
  addStock: (body: Record<string, unknown>) => Promise<void>;
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
  const subjects = { reserve: `rpc.test.${run}.reserve`, release: `rpc.test.${run}.release` };
  const logger = createLogger('order-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const db = await createTestDatabase('order');
  const dir = await mkdtemp(join(tmpdir(), 'order-'));
  await writeFile(join(dir, IMAGE.slice('/api/uploads/'.length)), TINY_PNG);
  const nc = await connectNats(testNatsUrl(), `order-test-${run}`);
  await ensureEventStream(nc);

  const catalogService = await startCatalogService({ databaseUrl: db.url, nc, logger, uploadDir: dir, subjects, durable: `catalog-orders-${run}` });
  const catalogOrm = catalogService.orm;
  const orderOrm = await createOrm({ url: db.url, schema: 'ordering', entities: [], migrations, poolMax: 20 });
  await migrate(orderOrm, 'ordering', db.url);

  const orderRelay = new OutboxRelay({ em: orderOrm.em, nc, logger, intervalMs: 50 });
  orderRelay.start();
  const consumers: RunningConsumer[] = await startReadModelConsumers({ nc, em: orderOrm.em, logger, durablePrefix: `order-${run}` });

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
    catalogOrm,
    orderOrm,
    catalog,
    order,
    staff,
    binId,
    customer: () => ({ userId: randomUUID(), userType: 'CUSTOMER' }),
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
    },
    async available(productId) {
      return (await catalog.get(`/api/admin/products/${productId}`, { as: staff })).body.product;
    },
    async close() {
      await Promise.allSettled(consumers.map((c) => c.stop()));
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
export function place(h: OrderHarness, as: Caller, body: Record<string, unknown>, key: string = randomUUID()) {
  return h.order.post('/api/orders', { ...ADDRESS, ...body }, { as, headers: { 'idempotency-key': key } });
}
