import type { Server } from 'node:http';
import type { EntitySchema } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { loadConfigOrExit, serviceEnv } from './config';
import { createLogger, type Logger } from './logger';
import { createOrm, migrate, type DbOptions, type Orm } from './db';
import { backgroundPool, type ConnectionSource } from './sql';
import { connectNats, ensureEventStream, type NatsConnection } from './nats';
import { OutboxRelay } from './outbox';
import { closeHttpGracefully, listenHttp, metricsOf, setReadiness, type HttpApp } from './http';
import { qualified } from './outbox';
import type { RunningConsumer } from './consumer';
import { startHousekeeping, type PurgeOptions } from './housekeeping';
import { watchConsumers } from './metrics';
import { rehearsalLog, rehearse, type RehearsalRequest } from './rehearsal';

type BaseEnv = z.ZodObject<typeof serviceEnv & { PORT: z.ZodType<number> }>;

export interface ServiceContext<C> {
  config: C;
  logger: Logger;
  orm: MikroORM;
  nc: NatsConnection;
  relay: OutboxRelay;
  /** Connections for background work (relay, event batches), apart from the requests' pool. */
  background: ConnectionSource;
}

export interface ServiceDefinition<S extends BaseEnv> {
  name: string;
  schema: string;
  env: S;
  entities: EntitySchema[];
  migrations: DbOptions['migrations'];
  createApp: (ctx: ServiceContext<z.output<S>>) => HttpApp;
  consumers?: (ctx: ServiceContext<z.output<S>>) => Promise<RunningConsumer[]>;
  /**
   * Background loops of the service's own (e.g. the mail relay), made before the consumers and
   * the HTTP app and stopped after the consumers.
   */
  workers?: (ctx: ServiceContext<z.output<S>>) => Array<{ stop(): Promise<void> }>;
  /**
   * Requests of the service's hot path that change nothing, sent through its app before it
   * listens (rehearsal.ts, REHEARSAL_MS): the first customers after a start meet a path that has run.
   */
  rehearsal?: (ctx: ServiceContext<z.output<S>>) => (i: number) => RehearsalRequest;
  /**
   * Periodic housekeeping, run by one replica at a time (advisory lock per schema): the platform
   * purge of old outbox/inbox rows (always, `purge` tunes it), then the service's own `run`
   * (e.g. purge expired sessions). Every `everyMs` (default 10 min).
   */
  housekeeping?: { everyMs?: number; purge?: PurgeOptions; run?: (ctx: ServiceContext<z.output<S>>) => Promise<void> };
}

/**
 * Starts a service process: config, database + migrations, NATS + event stream, outbox relay,
 * consumers, HTTP; stops all of it cleanly on SIGINT/SIGTERM.
 */
export async function runService<S extends BaseEnv>(def: ServiceDefinition<S>): Promise<void> {
  const config = loadConfigOrExit(def.env) as z.output<S> & z.output<BaseEnv>;
  const logger = createLogger(def.name, config.LOG_LEVEL);
  // A stray rejection is a bug to log, not a reason to stop serving; an uncaught exception may
  // leave the process in an unknown state, so it ends (the launcher or orchestrator restarts it).
  process.on('unhandledRejection', (err) => logger.error({ err }, `${def.name}: unhandled rejection`));
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, `${def.name}: uncaught exception, exiting`);
    process.exit(1);
  });
  // PostgreSQL (the schema migrated) and NATS (the event stream there) are made ready side by side:
  // each is a few round trips of waiting, and a restart is answering again sooner (issue 30).
  const [orm, nc] = await Promise.all([
    createOrm({ url: config.DATABASE_URL, schema: def.schema, entities: def.entities, migrations: def.migrations, logger }).then(async (orm) => {
      const applied = await migrate(orm, def.schema, config.DATABASE_URL);
      if (applied.length) logger.info({ applied }, 'migrations applied');
      return orm;
    }),
    connectNats(config.NATS_URL, def.name, { prefix: config.NATS_PREFIX, streamReplicas: config.NATS_STREAM_REPLICAS }).then(async (nc) => {
      await ensureEventStream(nc);
      return nc;
    }),
  ]);
  const background = backgroundPool(config.DATABASE_URL, def.schema, 2, (err) => logger.warn({ err }, 'background pool: connection lost'));
  const relay = new OutboxRelay({ em: orm.em, nc, logger, connections: background });
  relay.start();
  const ctx: ServiceContext<z.output<S>> = { config, logger, orm, nc, relay, background };
  const workers = def.workers ? def.workers(ctx) : [];
  const consumers = def.consumers ? await def.consumers(ctx) : [];
  const app = def.createApp(ctx);
  setReadiness(app, async () => ({ postgresql: await postgresUp(orm), nats: await natsUp(nc) }));
  watchProcess(app, orm, config.INTERNAL_TOKEN);
  watchConsumers(metricsOf(app), consumers);
  // Ten at a time: the request pool's ten connections are opened, and each has read its tables once.
  const rehearsal = def.rehearsal ? await rehearse(app, def.rehearsal(ctx), { budgetMs: config.REHEARSAL_MS, requests: 300, concurrency: 10 }) : undefined;
  const server: Server = await listenHttp(app, config.PORT, config.HOST);
  logger.info({ port: config.PORT, ...(rehearsal ? { rehearsal: rehearsalLog(rehearsal) } : {}) }, `${def.name} listening`);

  const hk = def.housekeeping;
  const housekeeping = startHousekeeping({
    em: orm.em,
    logger,
    key: `housekeeping:${def.schema}`,
    everyMs: hk?.everyMs,
    purge: hk?.purge,
    task: hk?.run ? () => hk.run!(ctx) : undefined,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${def.name} stopping`);
    const housekeepingStopped = housekeeping.stop();
    // Requests already accepted are answered before the database and NATS go away.
    // /health/ready answers 503 from here on; requests keep coming for the drain, then it closes.
    await closeHttpGracefully(server, 9000, config.SHUTDOWN_DRAIN_MS);
    await Promise.allSettled(consumers.map((c) => c.stop()));
    await Promise.allSettled(workers.map((w) => w.stop()));
    await relay.stop();
    await housekeepingStopped;
    await nc.drain().catch(() => undefined);
    await background.end().catch(() => undefined);
    await orm.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  exitWithParent(() => void stop('parent exited'));
}

/**
 * When started by the launcher (EXIT_WITH_PARENT=1, stdin is a pipe from it), stop as soon as
 * the launcher is gone, so no orphan keeps a port.
 */
export function exitWithParent(stop: () => void): void {
  if (process.env.EXIT_WITH_PARENT !== '1') return;
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
}

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** PostgreSQL answers a trivial query within 2 s. */
export async function postgresUp(orm: MikroORM): Promise<'up' | 'down'> {
  try {
    await within(2000, orm.em.getConnection().execute('select 1'));
    return 'up';
  } catch {
    return 'down';
  }
}

/** The NATS connection is open and the server answers a round trip within 2 s. */
export async function natsUp(nc: NatsConnection): Promise<'up' | 'down'> {
  if (nc.isClosed()) return 'down';
  try {
    await within(2000, nc.flush());
    return 'up';
  } catch {
    return 'down';
  }
}

/**
 * GET /metrics for Prometheus (the internal token as bearer token): besides requests and Node's
 * own figures, the outbox lag (events not yet published, age of the oldest) and the database pool.
 */
function watchProcess(app: HttpApp, orm: Orm, token: string): void {
  const m = metricsOf(app);
  m.token = token;
  const outbox = qualified(orm.em, 'outbox');
  const lag = async () =>
    (await orm.em.fork().getConnection().execute<Array<{ n: number; age: number | null }>>(
      `select count(*)::int as n, extract(epoch from now() - min(created_at))::float8 as age from ${outbox} where published_at is null`,
    ))[0]!;
  m.gauge('outbox_unpublished_events', 'Events committed but not yet published to NATS', async () => (await lag()).n);
  m.gauge('outbox_oldest_unpublished_seconds', 'Age of the oldest event not yet published (0 when none)', async () => (await lag()).age ?? 0);
  const pool = () => (orm.em.getConnection().getKnex().client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
  m.gauge('db_pool_connections_in_use', 'Database connections in use', () => pool()?.numUsed() ?? 0);
  m.gauge('db_pool_connections_idle', 'Database connections open and idle', () => pool()?.numFree() ?? 0);
  m.gauge('db_pool_waiting', 'Queries waiting for a database connection', () => pool()?.numPendingAcquires() ?? 0);
}
