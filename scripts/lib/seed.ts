import { createOrm } from '@dme/platform';
import { SessionEntity, UserEntity, migrations as identityMigrations } from '@dme/identity';
import { DEMO_ACCOUNTS, seedAccounts, type SeedAccount } from '@dme/identity/seed';
import { entities as catalogEntities, migrations as catalogMigrations } from '@dme/catalog';
import { seedCatalog } from '@dme/catalog/seed';
import { avatarFor, seedImage } from './stack';
import { createHash } from 'node:crypto';
import { productSvg } from './art/products';
import { productArtPng } from './art/render';

export const DEFAULT_DEMO_PASSWORD = 'demo-pass-2026';

export interface SeedOptions {
  databaseUrl: string;
  uploadDir: string;
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
      created.push(...(await seedAccounts(orm.em.fork(), list, password, (u) => avatarFor(opts.uploadDir, u))));
    }
    if (opts.demo) created.push(...(await seedDemoCatalog(opts)));
    return created;
  } finally {
    await orm.close();
  }
}

/** The demo catalog (bins, products, stock), through the catalog service's domain functions. */
async function seedDemoCatalog(opts: SeedOptions): Promise<string[]> {
  const orm = await createOrm({ url: opts.databaseUrl, schema: 'catalog', entities: catalogEntities, migrations: catalogMigrations, poolMax: 2 });
  try {
    return await seedCatalog(orm.em.fork(), {
      // The key carries a hash of the drawing, so a changed illustration is written as a new file
      // instead of an old picture (same key) being reused from the upload directory.
      imageFor: (key, shape) => {
        const art = createHash('sha256').update(productSvg(shape)).digest('hex').slice(0, 12);
        return seedImage(opts.uploadDir, `${key}:art:${art}`, () => productArtPng(shape));
      },
    });
  } finally {
    await orm.close();
  }
}
