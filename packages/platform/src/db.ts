import { MikroORM, type EntitySchema, type Options } from '@mikro-orm/postgresql';
import { Migrator, Migration } from '@mikro-orm/migrations';
import pg from 'pg';
import type { Logger } from './logger';
import { ConsumerFailuresMigration, InboxEntity, OutboxEntity, PlatformTablesMigration } from './outbox-tables';

export { MikroORM, Migration };
export type Orm = MikroORM;

/**
 * The statements that create a database-wide extension in `public` from a service's migration.
 * Services migrate side by side at start (each its own schema, under its own lock), and two
 * `create extension if not exists` at once race (the loser fails on pg_extension's unique
 * index): a lock every service takes for this, held to the end of the migration's transaction,
 * makes them one after another.
 */
export function createExtensionSql(name: string): string[] {
  return ["select pg_advisory_xact_lock(hashtext('dme:create extension'))", `create extension if not exists ${name} with schema public`];
}

type MigrationClass = new (...args: ConstructorParameters<typeof Migration>) => Migration;

export interface DbOptions {
  url: string;
  /** The service's own schema (DESIGN §2: one schema per service). */
  schema: string;
  entities: EntitySchema[];
  /** The service's migrations, in order; the platform's outbox/inbox tables come first. */
  migrations: Array<{ name: string; class: MigrationClass }>;
  logger?: Logger;
  poolMax?: number;
}

/**
 * Session settings of every service connection. `jit=off`: these are short OLTP statements, and a
 * statement whose cost estimate crosses `jit_above_cost` (PostgreSQL guesses 100 rows for each
 * jsonb_to_recordset, so a batch statement can) spent 100-200 ms compiling itself to run in 1 ms.
 * `max_parallel_workers_per_gather=0`: starting parallel workers cost 35-55 ms here, and the
 * planner chose them for a 3 ms page (the payments' Refunds tab at a year's size: 55 ms with two
 * workers, 2.8 ms without; docs/benchmarks.md).
 */
export const CONNECTION_OPTIONS = '-c jit=off -c max_parallel_workers_per_gather=0';

/** Opens MikroORM on one schema (no glob discovery: entities are passed in, STACK P1). */
export async function createOrm(opts: DbOptions): Promise<MikroORM> {
  const config: Options = {
    clientUrl: opts.url,
    schema: opts.schema,
    entities: [...opts.entities, OutboxEntity, InboxEntity],
    extensions: [Migrator],
    migrations: {
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
      // The platform's tables first; a platform table added later runs after the service's own
      // (the list's order is the order of pending ones; a database migrated before has the rest).
      migrationsList: [
        { name: '0000_platform_tables', class: PlatformTablesMigration },
        ...opts.migrations,
        { name: 'platform_0001_consumer_failures', class: ConsumerFailuresMigration },
      ],
    },
    pool: { min: 0, max: opts.poolMax ?? 10 },
    // No JIT compilation on our connections (CONNECTION_OPTIONS).
    driverOptions: { connection: { options: CONNECTION_OPTIONS } },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: false,
    discovery: { warnWhenNoEntities: false },
    ensureDatabase: false,
  };
  return MikroORM.init(config);
}

/**
 * Creates the schema if needed and runs pending migrations, holding a PostgreSQL advisory lock
 * so that replicas starting together migrate one at a time.
 */
export async function migrate(orm: MikroORM, schema: string, url: string): Promise<string[]> {
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    await lock.query(`create schema if not exists "${schema}"`);
    const done = await orm.getMigrator().up();
    return done.map((m) => m.name);
  } finally {
    await lock.query('select pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]).catch(() => undefined);
    await lock.end();
  }
}

/** Creates a database if it does not exist (used by the launcher and tests). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Unsupported database name: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`create database "${name}"`);
      } catch (err) {
        // Two processes may race to create it; the loser sees duplicate_database.
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await client.end();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

/** True when the error is PostgreSQL's unique_violation (optionally on a given constraint). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; cause?: unknown };
  if (e?.code === '23505') return constraint ? e.constraint === constraint : true;
  if (e?.cause) return isUniqueViolation(e.cause, constraint);
  return false;
}

/** True when the error is PostgreSQL's foreign_key_violation. */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: unknown };
  if (e?.code === '23503') return true;
  return e?.cause ? isForeignKeyViolation(e.cause) : false;
}

/** A case-insensitive "contains" pattern for ILIKE, with the user's % _ and \\ taken literally. */
export function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
