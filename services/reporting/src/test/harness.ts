import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { EVENT_STREAM, type EventEnvelope } from '@dme/contracts';
import { connectNats, createLogger, createOrm, ensureEventStream, IDENTITY_HEADERS, migrate, sql, type Logger, type NatsConnection, type Orm, type RunningConsumer } from '@dme/platform';
import { createTestDatabase, listen, serviceClient, TEST_INTERNAL_TOKEN, testNatsUrl, type Caller, type Json, type TestServer } from '@dme/testing';
import { applyReportingEvents, createApp, entities, ExportRunner, migrations, REPORTING_SUBJECTS, ReportingEnv, startReportingConsumers } from '../app';

export interface ReportingHarness {
  orm: Orm;
  nc: NatsConnection;
  logger: Logger;
  dbUrl: string;
  exportDir: string;
  runner: ExportRunner;
  api: ReturnType<typeof serviceClient>;
  /** GET as the gateway would, the body as bytes (xlsx), or as a problem when it is one. */
  download: (path: string, as: Caller) => Promise<{ status: number; headers: Headers; bytes: Buffer; problem: Json }>;
  as: (userType: Caller['userType']) => Caller;
  /** Applies events as one consumer batch would (one transaction), without NATS. */
  feed: (...events: EventEnvelope[]) => Promise<void>;
  /** Publishes envelopes to the real event stream as the producers' outbox relays do (message id = event id). */
  publish: (...events: EventEnvelope[]) => Promise<void>;
  /** The same event published again under another message id (past the stream's dedupe). */
  publishAgain: (event: EventEnvelope) => Promise<void>;
  /** The stream's last sequence now. */
  lastSeq: () => Promise<number>;
  /** Starts the real consumers under durable names private to this run (new events only). */
  startConsumers: () => Promise<Record<string, string>>;
  close: () => Promise<void>;
}

/** The reporting service on a fresh database, booted in-process, with NATS for its consumers. */
export async function startReporting(): Promise<ReportingHarness> {
  const run = randomUUID().slice(0, 8);
  const logger = createLogger('reporting-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const db = await createTestDatabase('reporting');
  const orm = await createOrm({ url: db.url, schema: 'reporting', entities, migrations, poolMax: 20 });
  await migrate(orm, 'reporting', db.url);
  const nc = await connectNats(testNatsUrl(), `reporting-test-${run}`);
  await ensureEventStream(nc);
  const exportDir = await mkdtemp(join(tmpdir(), 'reporting-test-'));
  const config = ReportingEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, EXPORT_DIR: exportDir });
  const runner = new ExportRunner(orm.em, logger, exportDir);
  const server: TestServer = await listen(createApp({ orm, config, logger, exports: runner }));
  const consumers: RunningConsumer[] = [];
  const durables: string[] = [];
  return {
    orm,
    nc,
    logger,
    dbUrl: db.url,
    exportDir,
    runner,
    api: serviceClient(server.url),
    async download(path, who) {
      const res = await fetch(`${server.url}${path}`, {
        headers: {
          [IDENTITY_HEADERS.internalToken]: TEST_INTERNAL_TOKEN,
          [IDENTITY_HEADERS.userId]: who.userId,
          [IDENTITY_HEADERS.userType]: who.userType,
          [IDENTITY_HEADERS.username]: who.username ?? 'tester',
        },
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const problem = res.headers.get('content-type')?.includes('json') ? JSON.parse(bytes.toString('utf8')) : undefined;
      return { status: res.status, headers: res.headers, bytes, problem };
    },
    as: (userType) => ({ userId: randomUUID(), userType, username: `${userType.toLowerCase()}_${run}` }),
    feed: (...events) => orm.em.fork().transactional((tem) => applyReportingEvents(tem, events)),
    async publish(...events) {
      const js = jetstream(nc);
      for (const e of events) await js.publish(e.type, JSON.stringify(e), { msgID: e.id });
    },
    async publishAgain(event) {
      await jetstream(nc).publish(event.type, JSON.stringify(event), { msgID: `${event.id}-again` });
    },
    async lastSeq() {
      const jsm = await jetstreamManager(nc);
      return (await jsm.streams.info(EVENT_STREAM)).state.last_seq;
    },
    async startConsumers() {
      const jsm = await jetstreamManager(nc);
      const names: Record<string, string> = {};
      // Created here first, delivering only what is published from now on (startConsumer keeps an
      // existing durable as it is): the stream's history belongs to other runs.
      for (const [i, subject] of REPORTING_SUBJECTS.entries()) {
        const durable = `reporting-test-${run}-${i}`;
        await jsm.consumers.add(EVENT_STREAM, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.New,
          ack_wait: nanos(30_000),
          max_deliver: -1,
          filter_subject: subject,
        });
        durables.push(durable);
        names[subject] = durable;
      }
      consumers.push(...(await startReportingConsumers({ nc, em: orm.em, logger, durables: names })));
      return names;
    },
    async close() {
      await Promise.allSettled(consumers.map((c) => c.stop()));
      await runner.idle();
      const jsm = await jetstreamManager(nc);
      for (const d of durables) await jsm.consumers.delete(EVENT_STREAM, d).catch(() => undefined);
      await server.close();
      await nc.drain();
      await orm.close();
      await db.drop();
      await rm(exportDir, { recursive: true, force: true });
    },
  };
}

/** Rows of a table as comparable text, in a stable order. */
export async function tableRows(orm: Orm, schema: string, table: string, where: string, orderBy: string, params: unknown[] = []): Promise<string[]> {
  const rows = await sql<{ r: string }>(orm.em.fork(), `select t::text as r from "${schema}"."${table}" t where ${where} order by ${orderBy}`, params);
  return rows.map((x) => x.r);
}
