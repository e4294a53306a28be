import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createLogger, createOrm, migrate, pgBlobStore, type NatsConnection, type Orm } from '@dme/platform';
import { createTestDatabase, listen, serviceClient, TEST_INTERNAL_TOKEN, TINY_PNG, type Caller, type TestServer } from '@dme/testing';
import { CatalogEnv, createApp, entities, migrations } from '../app';
import { MicroCache } from '../modules/products/card-cache';
import type { CardCache } from '../modules/products/product.routes';
import type { CatalogConfig } from '../config';

export interface CatalogHarness {
  orm: Orm;
  server: TestServer;
  api: ReturnType<typeof serviceClient>;
  staff: Caller;
  admin: Caller;
  customer: Caller;
  accounting: Caller;
  config: CatalogConfig;
  /** The shop list's micro-cache of this catalog process. */
  cards: CardCache;
  close: () => Promise<void>;
}

export const IMAGE = '/api/uploads/0123456789abcdef0123456789abcdef.png';

/** A catalog service on its own fresh database, booted in-process. */
export async function startCatalog(opts: { nc?: NatsConnection; cacheSubject?: string } = {}): Promise<CatalogHarness> {
  const db = await createTestDatabase('catalog');
  const dir = await mkdtemp(join(tmpdir(), 'catalog-'));
  const config = CatalogEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, UPLOAD_DIR: dir });
  const orm = await createOrm({ url: db.url, schema: 'catalog', entities, migrations, poolMax: 20 });
  await migrate(orm, 'catalog', db.url);
  await pgBlobStore(orm.em).put(IMAGE.slice('/api/uploads/'.length), 'image/png', TINY_PNG);
  const cards: CardCache = new MicroCache();
  const server = await listen(createApp({ orm, config, cards, ...opts, logger: createLogger('catalog-test', process.env.TEST_LOG_LEVEL ?? 'silent') }));
  const as = (userType: Caller['userType']): Caller => ({ userId: randomUUID(), userType });
  return {
    orm,
    server,
    api: serviceClient(server.url),
    staff: as('WAREHOUSE_STAFF'),
    admin: as('SUPERADMIN'),
    customer: as('CUSTOMER'),
    accounting: as('ACCOUNTING_ADMIN'),
    config,
    cards,
    close: async () => {
      await server.close();
      await orm.close();
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function wheelchair(overrides: Record<string, unknown> = {}) {
  return {
    brand: 'Drive Medical',
    name: `Wheelchair ${randomUUID().slice(0, 6)}`,
    description: 'Lightweight folding wheelchair.',
    type: 'FOR_RENT',
    image: IMAGE,
    price: '15.00',
    damageCharges: '120.00',
    variants: [
      {
        name: 'Standard',
        subVariants: [
          { name: '16 in', price: '15.00', damageCharges: '120.00' },
          { name: '18 in', price: '16.50', damageCharges: '120.00' },
        ],
      },
      {
        name: 'Heavy-duty',
        subVariants: [
          { name: '20 in', price: '22.00', damageCharges: '180.00' },
          { name: '22 in', price: '24.00', damageCharges: '180.00' },
        ],
      },
    ],
    ...overrides,
  };
}

export function simpleProduct(overrides: Record<string, unknown> = {}) {
  return {
    brand: 'Omron',
    name: `Thermometer ${randomUUID().slice(0, 6)}`,
    description: 'Digital thermometer.',
    type: 'FOR_SALE',
    image: IMAGE,
    price: '12.99',
    damageCharges: '0.00',
    ...overrides,
  };
}
