import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { EVENTS, type EventEnvelope, type EventType } from '@dme/contracts';
import { connectNats, createLogger, createOrm, ensureEventStream, migrate, startConsumer, type NatsConnection, type Orm } from '@dme/platform';
import { createTestDatabase, eventually, testNatsUrl } from '@dme/testing';
import { migrations } from '../../app';
import { applyCatalogEvent, applyIdentityEvent } from './readmodels';
import { leafOf, productsById } from './products';
import { listCart } from '../cart/cart.service';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;

beforeAll(async () => {
  db = await createTestDatabase('readmodels');
  orm = await createOrm({ url: db.url, schema: 'ordering', entities: [], migrations });
  await migrate(orm, 'ordering', db.url);
});

afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

function event(type: EventType, aggregateId: string, version: number, data: unknown): EventEnvelope {
  return { id: randomUUID(), type, occurredAt: new Date().toISOString(), source: 'test', aggregateId, data, version };
}

const snapshot = (productId: string, name: string, price = '10.00') => ({
  productId,
  name,
  brand: 'Omron',
  type: 'FOR_SALE',
  image: '/api/uploads/x.png',
  price,
  damageCharges: '0.00',
  variants: [],
});
const created = (id: string, v: number, name: string, price?: string) => event(EVENTS.catalog.productCreated, id, v, snapshot(id, name, price));
const updated = (id: string, v: number, name: string, price?: string) => event(EVENTS.catalog.productUpdated, id, v, snapshot(id, name, price));
const archived = (id: string, v: number) => event(EVENTS.catalog.productArchived, id, v, { productId: id });
const deleted = (id: string, v: number) => event(EVENTS.catalog.productDeleted, id, v, { productId: id });

async function applyCatalog(...events: EventEnvelope[]): Promise<void> {
  for (const e of events) await orm.em.fork().transactional((tem) => applyCatalogEvent(tem, e));
}
async function applyIdentity(...events: EventEnvelope[]): Promise<void> {
  for (const e of events) await orm.em.fork().transactional((tem) => applyIdentityEvent(tem, e));
}

async function productRow(id: string) {
  const [row] = await orm.em.fork().execute<Array<{ name: string; price: string; version: number; archived: boolean; deleted: boolean }>>(
    'select name, price, version, archived, deleted from ordering.products where id = ?',
    [id],
  );
  return row;
}

describe('products read model: only newer versions apply', () => {
  it('given version 2 then version 1 of the same product, it keeps version 2', async () => {
    const id = randomUUID();
    await applyCatalog(created(id, 1, 'v1', '10.00'), updated(id, 2, 'v2', '20.00'), updated(id, 1, 'v1 again', '10.00'));
    expect(await productRow(id)).toMatchObject({ name: 'v2', price: '20.00', version: 2, deleted: false });
    // Created (v1) redelivered after the update: still v2.
    await applyCatalog(created(id, 1, 'v1', '10.00'));
    expect(await productRow(id)).toMatchObject({ name: 'v2', version: 2 });
    // A newer one applies.
    await applyCatalog(updated(id, 3, 'v3', '30.00'));
    expect(await productRow(id)).toMatchObject({ name: 'v3', price: '30.00', version: 3 });
  });

  it('version 2 arriving before version 1 (a retried delivery): version 2 stays', async () => {
    const id = randomUUID();
    await applyCatalog(updated(id, 2, 'v2'), created(id, 1, 'v1'));
    expect(await productRow(id)).toMatchObject({ name: 'v2', version: 2 });
  });

  it('a delete then an older update: the product stays deleted (a tombstone), and reads as unknown', async () => {
    const id = randomUUID();
    await applyCatalog(created(id, 1, 'v1'), updated(id, 2, 'v2'), deleted(id, 3), updated(id, 2, 'v2 again'), created(id, 1, 'v1 again'));
    expect(await productRow(id)).toMatchObject({ deleted: true, version: 3 });
    const known = await productsById(orm.em.fork(), [id]);
    expect(known.has(id)).toBe(false);
    expect(leafOf(known.get(id), null, null)).toMatchObject({ ok: false, problem: 'unknown' });
  });

  it('a delete that arrives before the creation leaves a tombstone the creation cannot undo', async () => {
    const id = randomUUID();
    await applyCatalog(deleted(id, 2), created(id, 1, 'v1'));
    expect(await productRow(id)).toMatchObject({ deleted: true, version: 2 });
    expect((await productsById(orm.em.fork(), [id])).has(id)).toBe(false);
  });

  it('archiving is final: an older update keeps it archived, and an archive before the creation sticks', async () => {
    const a = randomUUID();
    await applyCatalog(created(a, 1, 'v1'), archived(a, 3), updated(a, 2, 'v2'));
    expect(await productRow(a)).toMatchObject({ archived: true, name: 'v2', version: 2 });
    const b = randomUUID();
    await applyCatalog(archived(b, 2), created(b, 1, 'v1'));
    expect(await productRow(b)).toMatchObject({ archived: true, name: 'v1', version: 1 });
    const p = (await productsById(orm.em.fork(), [b])).get(b);
    expect(leafOf(p, null, null)).toMatchObject({ ok: false, problem: 'unknown' });
  });

  it('a cart line whose product was deleted shows as no longer available', async () => {
    const id = randomUUID();
    const customer = randomUUID();
    await applyCatalog(created(id, 1, 'Thermometer'));
    await orm.em
      .fork()
      .execute(`insert into ordering.cart_items (id, customer_id, type, product_id, quantity) values (?, ?, 'BUY', ?, 2)`, [randomUUID(), customer, id]);
    expect((await listCart(orm.em.fork(), customer, 'BUY')).items[0]).toMatchObject({ name: 'Thermometer', available: true, lineTotal: '20.00' });
    await applyCatalog(deleted(id, 2), updated(id, 1, 'Thermometer'));
    const cart = await listCart(orm.em.fork(), customer, 'BUY');
    expect(cart.items[0]).toMatchObject({ name: 'Product no longer available', available: false, lineTotal: '0.00' });
    expect(cart.total).toBe('0.00');
  });
});

describe('customers read model: only newer versions apply', () => {
  const user = (id: string, firstName: string, status = 'ACTIVE') => ({
    id,
    idNumber: 'C-0001',
    username: `u_${id.slice(0, 6)}`,
    firstName,
    middleName: '',
    lastName: 'Santos',
    suffix: '',
    email: 'maria@example.com',
    contactNumber: '+63 917 555 0101',
    userType: 'CUSTOMER',
    status,
  });
  const registered = (id: string, v: number, name: string) => event(EVENTS.identity.userRegistered, id, v, user(id, name));
  const userUpdated = (id: string, v: number, name: string, status?: string) => event(EVENTS.identity.userUpdated, id, v, user(id, name, status));
  const statusChanged = (id: string, v: number, status: string) =>
    event(EVENTS.identity.userStatusChanged, id, v, { userId: id, status, previousStatus: status === 'ACTIVE' ? 'DEACTIVATED' : 'ACTIVE', changedBy: null });
  const userDeleted = (id: string, v: number) => event(EVENTS.identity.userDeleted, id, v, { userId: id, deletedBy: null });
  const row = async (id: string) =>
    (
      await orm.em
        .fork()
        .execute<Array<{ first_name: string; status: string; deleted: boolean; version: number; status_version: number }>>(
          'select first_name, status, deleted, version, status_version from ordering.customers where id = ?',
          [id],
        )
    )[0];

  it('an older update after a newer one is ignored', async () => {
    const id = randomUUID();
    await applyIdentity(registered(id, 1, 'Maria'), userUpdated(id, 3, 'Mariana'), userUpdated(id, 2, 'Mari'));
    expect(await row(id)).toMatchObject({ first_name: 'Mariana', version: 3 });
  });

  it('a status change that arrives before the registration: names from the registration, status from the change', async () => {
    const id = randomUUID();
    await applyIdentity(statusChanged(id, 2, 'DEACTIVATED'), registered(id, 1, 'Maria'));
    expect(await row(id)).toMatchObject({ first_name: 'Maria', status: 'DEACTIVATED', version: 1, status_version: 2 });
    // An older status change after a newer update is ignored; a newer one applies.
    await applyIdentity(userUpdated(id, 4, 'Maria', 'ACTIVE'), statusChanged(id, 3, 'DEACTIVATED'));
    expect(await row(id)).toMatchObject({ status: 'ACTIVE', status_version: 4 });
    await applyIdentity(statusChanged(id, 5, 'DEACTIVATED'));
    expect(await row(id)).toMatchObject({ status: 'DEACTIVATED', version: 4, status_version: 5 });
  });

  it('a deleted customer stays deleted when an older update arrives', async () => {
    const id = randomUUID();
    await applyIdentity(registered(id, 1, 'Maria'), userDeleted(id, 3), userUpdated(id, 2, 'Mari', 'ACTIVE'));
    expect(await row(id)).toMatchObject({ deleted: true, status: 'DEACTIVATED', first_name: 'Mari', status_version: 3 });
  });
});

describe('through a real JetStream consumer', () => {
  let nc: NatsConnection;
  const run = randomUUID().slice(0, 8);
  const stream = `T_RM_${run}`;
  const prefix = `trm${run}`;

  beforeAll(async () => {
    nc = await connectNats(testNatsUrl(), 'readmodels-test');
    await ensureEventStream(nc, stream, [`${prefix}.>`]);
  });
  afterAll(async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(stream).catch(() => undefined);
    await jsm.streams.delete(`T_RM_DLQ_${run}`).catch(() => undefined);
    await nc?.drain();
  });

  it('version 2 published, then version 1 redelivered under another message id: the model keeps version 2', async () => {
    const id = randomUUID();
    const consumer = await startConsumer({
      nc,
      em: orm.em,
      logger: createLogger('readmodels-test', 'silent'),
      durable: `rm_${run}`,
      stream,
      subjects: [`${prefix}.>`],
      deadLetter: { stream: `T_RM_DLQ_${run}`, prefix: `trmdlq${run}` },
      handle: applyCatalogEvent,
    });
    const js = jetstream(nc);
    const v1 = created(id, 1, 'v1');
    await js.publish(`${prefix}.created`, JSON.stringify(v1), { msgID: v1.id });
    const v2 = updated(id, 2, 'v2');
    await js.publish(`${prefix}.updated`, JSON.stringify(v2), { msgID: v2.id });
    const v1Again = updated(id, 1, 'v1 late');
    await js.publish(`${prefix}.updated`, JSON.stringify(v1Again), { msgID: v1Again.id });
    // Done once the late version 1 has been handled (recorded in the inbox with its effect, if any):
    // a product's events are handled one after another, other products' beside them, so another
    // product's event handled tells nothing about this one's (it raced them on a busy machine).
    await eventually(async () => {
      const [row] = await orm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from ordering.inbox where event_id = ?', [v1Again.id]);
      return row!.n === 1;
    }, 10_000);
    expect(await productRow(id)).toMatchObject({ name: 'v2', version: 2 });
    await consumer.stop();
  });
});
