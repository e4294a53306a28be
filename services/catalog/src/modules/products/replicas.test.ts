import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectNats, createLogger, type NatsConnection } from '@dme/platform';
import { listen, serviceClient, testNatsUrl, type TestServer } from '@dme/testing';
import { createApp } from '../../app';
import { simpleProduct, startCatalog, type CatalogHarness } from '../../test/harness';
import { MicroCache } from './card-cache';
import type { CardCache } from './product.routes';

/**
 * Two catalog replicas on one database (issue 14): a write through one clears the shop list cache
 * of the other, through NATS. The caches keep answers for a minute here, so only that message can
 * make a replica show the change within the test's few seconds; a third replica without NATS shows
 * what the cache would otherwise keep.
 */
const LONG = 60_000;
const subject = `test.cache.${randomUUID()}`;
let a: CatalogHarness;
let ncA: NatsConnection;
let ncB: NatsConnection;
let b: TestServer;
let lonely: TestServer;
let binId: string;

beforeAll(async () => {
  ncA = await connectNats(testNatsUrl(), 'catalog-replica-a');
  ncB = await connectNats(testNatsUrl(), 'catalog-replica-b');
  a = await startCatalog({ nc: ncA, cacheSubject: subject });
  a.cards.setTtl(LONG);
  const config = { ...a.config, PRODUCT_LIST_CACHE_MS: LONG };
  const logger = createLogger('catalog-test', 'silent');
  const replica = (nc: NatsConnection | undefined) => listen(createApp({ orm: a.orm, config, logger, nc, cacheSubject: subject, cards: new MicroCache() as CardCache }));
  b = await replica(ncB);
  lonely = await replica(undefined);
  // Both subscriptions are in place before the first write (a round trip to the server flushes them).
  await Promise.all([ncA.flush(), ncB.flush()]);
  binId = (await a.api.post('/api/warehouse-bins', { name: 'Replicas', description: 'bin' }, { as: a.staff })).body.bin.id;
});

afterAll(async () => {
  await Promise.all([b?.close(), lonely?.close()]);
  await a?.close();
  await Promise.all([ncA?.close(), ncB?.close()]);
});

type Card = { id: string; name: string; availableQuantity: number };
const listOn = async (url: string, search: string) =>
  ((await serviceClient(url).get(`/api/products?search=${encodeURIComponent(search)}&limit=10`, { as: a.customer })).body as { items: Card[] }).items;

describe('the shop list cache across catalog replicas (issue 14)', () => {
  it('a product created through replica A is listed by replica B at once, though B had cached the list', async () => {
    const name = `Replica Walker ${randomUUID().slice(0, 6)}`;
    expect(await listOn(b.url, name)).toEqual([]);
    expect(await listOn(lonely.url, name)).toEqual([]);

    const created = await a.api.post('/api/products', simpleProduct({ name }), { as: a.staff });
    expect(created.status).toBe(201);

    await expect.poll(async () => (await listOn(b.url, name)).map((c) => c.name), { timeout: 5000 }).toEqual([name]);
    // Without the message the cached (empty) list would still be served for the next minute.
    expect(await listOn(lonely.url, name)).toEqual([]);
  });

  it('stock added through replica B changes the availability replica A lists', async () => {
    const name = `Replica Bed ${randomUUID().slice(0, 6)}`;
    const id = (await a.api.post('/api/products', simpleProduct({ name }), { as: a.staff })).body.product.id as string;
    await expect.poll(async () => (await listOn(a.server.url, name))[0]?.availableQuantity, { timeout: 5000 }).toBe(0);

    const added = await serviceClient(b.url).post('/api/stocks', { productID: id, warehouseBinID: binId, quantity: 3 }, { as: a.staff });
    expect(added.status).toBe(201);
    await expect.poll(async () => (await listOn(a.server.url, name))[0]?.availableQuantity, { timeout: 5000 }).toBe(3);
  });
});
