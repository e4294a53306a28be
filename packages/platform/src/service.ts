import type { Server } from 'node:http';
import type Koa from 'koa';
import type { EntitySchema } from '@mikro-orm/core';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { loadConfigOrExit, serviceEnv } from './config';
import { createLogger, type Logger } from './logger';
import { createOrm, migrate, type DbOptions } from './db';
import { connectNats, ensureEventStream, type NatsConnection } from './nats';
import { OutboxRelay } from './outbox';
import type { RunningConsumer } from './consumer';

type BaseEnv = z.ZodObject<typeof serviceEnv & { PORT: z.ZodType<number> }>;

export interface ServiceContext<C> {
  config: C;
  logger: Logger;
  orm: MikroORM;
  nc: NatsConnection;
  relay: OutboxRelay;
}

export interface ServiceDefinition<S extends BaseEnv> {
  name: string;
  schema: string;
  env: S;
  entities: EntitySchema<any, any>[];
  migrations: DbOptions['migrations'];
  createApp: (ctx: ServiceContext<z.output<S>>) => Koa<any, any>;
  consumers?: (ctx: ServiceContext<z.output<S>>) => Promise<RunningConsumer[]>;
  /** Periodic housekeeping (e.g. purge expired sessions). */
  housekeeping?: { everyMs: number; run: (ctx: ServiceContext<z.output<S>>) => Promise<void> };
}

/**
 * Starts a service process: config, database + migrations, NATS + event stream, outbox relay,
 * consumers, HTTP; stops all of it cleanly on SIGINT/SIGTERM.
 */
export async function runService<S extends BaseEnv>(def: ServiceDefinition<S>): Promise<void> {
  const config = loadConfigOrExit(def.env) as z.output<S> & z.output<BaseEnv>;
  const logger = createLogger(def.name, config.LOG_LEVEL);
  const orm = await createOrm({ url: config.DATABASE_URL, schema: def.schema, entities: def.entities, migrations: def.migrations, logger });
  const applied = await migrate(orm, def.schema, config.DATABASE_URL);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  const nc = await connectNats(config.NATS_URL, def.name);
  await ensureEventStream(nc);
  const relay = new OutboxRelay({ em: orm.em, nc, logger });
  relay.start();
  const ctx: ServiceContext<z.output<S>> = { config, logger, orm, nc, relay };
  const consumers = def.consumers ? await def.consumers(ctx) : [];
  const app = def.createApp(ctx);
  const server: Server = app.listen(config.PORT, config.HOST);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  logger.info({ port: config.PORT }, `${def.name} listening`);

  let timer: NodeJS.Timeout | undefined;
  if (def.housekeeping) {
    const hk = def.housekeeping;
    timer = setInterval(() => {
      hk.run(ctx).catch((err) => logger.warn({ err }, 'housekeeping failed'));
    }, hk.everyMs);
    timer.unref();
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${def.name} stopping`);
    if (timer) clearInterval(timer);
    server.close();
    server.closeIdleConnections();
    await Promise.allSettled(consumers.map((c) => c.stop()));
    await relay.stop();
    await nc.drain().catch(() => undefined);
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
