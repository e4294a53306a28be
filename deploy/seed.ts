/**
 * One-shot seed job of a deployment (compose service `seed`, Kubernetes Job `dme-seed`): creates
 * the first superadmin (ADMIN_USERNAME + ADMIN_PASSWORD) and, only with SEED_DEMO=true, the demo
 * accounts and catalog. Idempotent: existing usernames and products are left alone, so running it
 * again (every `docker compose up`, a re-applied Job) changes nothing.
 *
 * Services migrate their own schemas at start; this job migrates the two it writes to (identity,
 * catalog) with the same code and the same advisory lock, so it may run before, after or while the
 * services start.
 */
import { z } from 'zod';
import { createOrm, loadConfigOrExit, migrate } from '@dme/platform';
import { migrations as identityMigrations, SessionEntity, UserEntity } from '@dme/identity';
import { entities as catalogEntities, migrations as catalogMigrations } from '@dme/catalog';
import { DEFAULT_DEMO_PASSWORD, seed } from '../scripts/lib/seed';

const SeedEnv = z
  .object({
    DATABASE_URL: z.string().url({ error: 'must be a postgres:// URL' }),
    SEED_DEMO: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
    DEMO_PASSWORD: z.string().min(8).default(DEFAULT_DEMO_PASSWORD),
    ADMIN_USERNAME: z.string().min(1).optional(),
    ADMIN_PASSWORD: z.string().min(12, { error: 'must be at least 12 characters' }).optional(),
  })
  .refine((c) => Boolean(c.ADMIN_USERNAME) === Boolean(c.ADMIN_PASSWORD), {
    error: 'set both ADMIN_USERNAME and ADMIN_PASSWORD, or neither',
    path: ['ADMIN_PASSWORD'],
  });

const config = loadConfigOrExit(SeedEnv);

async function migrated(schema: string, entities: Parameters<typeof createOrm>[0]['entities'], migrations: Parameters<typeof createOrm>[0]['migrations']): Promise<void> {
  const orm = await createOrm({ url: config.DATABASE_URL, schema, entities, migrations, poolMax: 1 });
  try {
    await migrate(orm, schema, config.DATABASE_URL);
  } finally {
    await orm.close();
  }
}

try {
  await migrated('identity', [UserEntity, SessionEntity], identityMigrations);
  await migrated('catalog', catalogEntities, catalogMigrations);
  const admin = config.ADMIN_USERNAME && config.ADMIN_PASSWORD ? { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD } : undefined;
  if (!admin && !config.SEED_DEMO) console.log('seed: neither ADMIN_USERNAME/ADMIN_PASSWORD nor SEED_DEMO=true given; nothing to seed');
  const created = await seed({ databaseUrl: config.DATABASE_URL, demo: config.SEED_DEMO, demoPassword: config.DEMO_PASSWORD, ...(admin ? { admin } : {}) });
  console.log(created.length ? `seed: created ${created.join(', ')}` : 'seed: nothing new (already seeded)');
  process.exit(0);
} catch (err) {
  console.error(`seed failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
