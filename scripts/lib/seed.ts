import { createOrm, pgBlobStore, type BlobStore, type Orm } from '@dme/platform';
import { SessionEntity, UserEntity, migrations as identityMigrations } from '@dme/identity';
import { DEMO_ACCOUNTS, seedAccounts, type SeedAccount } from '@dme/identity/seed';
import { entities as catalogEntities, migrations as catalogMigrations } from '@dme/catalog';
import { DEMO_PRODUCTS, seedCatalog } from '@dme/catalog/seed';
import { avatarFor, seedImage } from './stack';
import { createHash } from 'node:crypto';
import { productSvg } from './art/products';
import { productArtPng } from './art/render';

export const DEFAULT_DEMO_PASSWORD = 'demo-pass-2026';

export interface SeedOptions {
  databaseUrl: string;
  demo: boolean;
  demoPassword: string;
  /** A first superadmin for a real installation (when demo accounts are off). */
  admin?: { username: string; password: string };
}

/**
 * Seeds what the product needs to be used: the demo accounts (unless turned off) and/or a first
 * superadmin. Idempotent: existing usernames are left alone. Runs after the services migrated.
 */
export async function seed(opts: SeedOptions): Promise<string[]> {
  // Pictures go into the catalog's upload store (the catalog service migrated it at its start).
  const catalogOrm = await createOrm({ url: opts.databaseUrl, schema: 'catalog', entities: catalogEntities, migrations: catalogMigrations, poolMax: 2 });
  const blobs = pgBlobStore(catalogOrm.em);
  const orm = await createOrm({
    url: opts.databaseUrl,
    schema: 'identity',
    entities: [UserEntity, SessionEntity],
    migrations: identityMigrations,
    poolMax: 2,
  });
  try {
    const accounts: Array<{ list: SeedAccount[]; password: string }> = [];
    if (opts.demo) accounts.push({ list: DEMO_ACCOUNTS, password: opts.demoPassword });
    if (opts.admin) {
      accounts.push({
        list: [{ username: opts.admin.username, userType: 'SUPERADMIN', firstName: 'Shop', lastName: 'Administrator', position: 'Administrator', gender: 'FEMALE', birthDate: '1980-01-01' }],
        password: opts.admin.password,
      });
    }
    const created: string[] = [];
    for (const { list, password } of accounts) {
      const avatars = new Map<string, string>();
      for (const a of list) avatars.set(a.username, await avatarFor(blobs, a.username));
      created.push(...(await seedAccounts(orm.em.fork(), list, password, (u) => avatars.get(u)!)));
    }
    if (opts.demo) created.push(...(await seedDemoCatalog(catalogOrm, blobs)));
    return created;
  } finally {
    await orm.close();
    await catalogOrm.close();
  }
}

/** The demo catalog (bins, products, stock), through the catalog service's domain functions. */
async function seedDemoCatalog(orm: Orm, blobs: BlobStore): Promise<string[]> {
  // The key carries a hash of the drawing (and of how it is encoded: `palette`), so a changed
  // illustration is stored under a new name instead of an old picture (same key) being reused.
  const images = new Map<string, string>();
  for (const p of DEMO_PRODUCTS) {
    const art = createHash('sha256').update(productSvg(p.shape)).digest('hex').slice(0, 12);
    images.set(`product:${p.name}`, await seedImage(blobs, `product:${p.name}:art:${art}:palette`, () => productArtPng(p.shape)));
  }
  return seedCatalog(orm.em.fork(), { imageFor: (key) => images.get(key)! });
}
