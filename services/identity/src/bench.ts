/**
 * Mail figures for `npm run bench -- mail` (issue 24), in-process on a throwaway database, a real
 * SMTP server (smtp-server) and the NATS of the run:
 *
 *   npx tsx services/identity/src/bench.ts [events=1000]
 *
 * 1. Queue: `events` order events published at once to the event stream; the real notification
 *    consumer (batches of up to 25 events, as the service runs it) queues one message each. Latency = handler done (in its transaction, just before the
 *    commit) − published, p50/p99 (budget p99 ≤ 500 ms). Baseline in the same run: the same events
 *    through a consumer whose handler does nothing (the stream, the inbox, the transaction).
 * 2. Send: the relay sends what was queued to the SMTP server (budget ≥ 100 messages/s).
 *    Baseline in the same run: the same number of messages handed straight to nodemailer, one after
 *    another, with no outbox.
 * Prints one JSON line.
 */
import { randomUUID } from 'node:crypto';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { EVENT_STREAM, type EventEnvelope } from '@dme/contracts';
import { connectNats, createLogger, createMailer, createOrm, ensureEventStream, migrate, sql, startConsumer, type Db, type NatsConnection, type Orm, type RunningConsumer } from '@dme/platform';
import { createTestDatabase, TEST_INTERNAL_TOKEN, testNatsUrl, validPerson } from '@dme/testing';
import { placedEvent, purchase } from '@dme/testing/order-events';
import { startTestSmtp, type TestSmtp } from '@dme/testing/smtp';
import { IdentityEnv } from './config';
import { migrations, SessionEntity, UserEntity } from './app';
import { registerCustomer } from './modules/users/user.service';
import { notificationHandler } from './modules/messages/notify';
import { identityMailRelay } from './modules/messages/relay';

const events = Number(process.argv[2] ?? 1000);
const logger = createLogger('mail-bench', 'warn');
const run = randomUUID().slice(0, 8);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! * 10) / 10;
};

type Handle = (db: Db, events: EventEnvelope[]) => Promise<void>;

/**
 * Publishes `events` placed events for these customers, `perSecond` a second (0: all at once);
 * answers the latency of each, handled − published (ms).
 */
async function burst(nc: NatsConnection, orm: Orm, customers: string[], handle: Handle, name: string, perSecond: number): Promise<number[]> {
  const durable = `mail-bench-${name}-${run}`;
  const jsm = await jetstreamManager(nc);
  await jsm.consumers.add(EVENT_STREAM, { durable_name: durable, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New, ack_wait: nanos(30_000), filter_subject: 'dme.order.>' });
  const published = new Map<string, number>();
  const done = new Map<string, number>();
  let consumer: RunningConsumer | undefined;
  try {
    consumer = await startConsumer({
      nc, em: orm.em, logger, durable, subjects: ['dme.order.>'],
      // As the service runs it: batches of up to 25 events in one transaction.
      maxBatch: 25,
      handleBatch: async (db, batch) => {
        const ours = batch.filter((e) => published.has(e.id)); // not another run's events
        await handle(db, ours);
        const at = performance.now();
        for (const e of ours) done.set(e.id, at);
      },
    });
    const list = Array.from({ length: events }, (_, i) => placedEvent(purchase({ customerId: customers[i % customers.length]! })));
    const js = jetstream(nc);
    const sends: Array<Promise<unknown>> = [];
    const start = performance.now();
    for (const [i, e] of list.entries()) {
      const due = perSecond ? start + (i * 1000) / perSecond : 0;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      published.set(e.id, performance.now());
      sends.push(js.publish(e.type, JSON.stringify(e), { msgID: e.id }));
    }
    await Promise.all(sends);
    const until = Date.now() + 120_000;
    while (done.size < events && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    return [...done].map(([id, at]) => at - published.get(id)!);
  } finally {
    await consumer?.stop();
    await jsm.consumers.delete(EVENT_STREAM, durable).catch(() => undefined);
  }
}

async function sendRate(smtp: TestSmtp, orm: Orm, smtpUrl: string): Promise<{ relayPerS: number; baselinePerS: number }> {
  const queued = Number((await sql<{ n: string }>(orm.em.fork(), `select count(*) as n from identity.mail_outbox where status = 'QUEUED'`))[0]!.n);
  // Baseline: nodemailer alone (the same pooled transport), one message after another, as many as the relay sends.
  const mailer = createMailer({ smtpUrl, from: 'bench@dme.local' });
  let t = performance.now();
  for (let i = 0; i < queued; i++) await mailer.send({ to: 'baseline@example.com', subject: 'x', text: 'x', html: '<p>x</p>', messageId: `<${randomUUID()}@dme.local>` });
  const baselinePerS = queued / ((performance.now() - t) / 1000);
  mailer.close();
  const before = smtp.received.length;
  t = performance.now();
  const relay = identityMailRelay({ orm, config: { SMTP_URL: smtpUrl, MAIL_FROM: 'shop@dme.local' }, logger })!;
  while (smtp.received.length - before < queued && performance.now() - t < 120_000) await new Promise((r) => setTimeout(r, 10));
  const relayPerS = (smtp.received.length - before) / ((performance.now() - t) / 1000);
  await relay.stop();
  return { relayPerS: Math.round(relayPerS), baselinePerS: Math.round(baselinePerS) };
}

const db = await createTestDatabase('identitybench');
const smtp = await startTestSmtp();
const nc = await connectNats(testNatsUrl(), `mail-bench-${run}`);
const orm = await createOrm({ url: db.url, schema: 'identity', entities: [UserEntity, SessionEntity], migrations });
try {
  await ensureEventStream(nc);
  await migrate(orm, 'identity', db.url);
  const config = IdentityEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, SMTP_URL: smtp.url });
  const customers: string[] = [];
  for (let i = 0; i < 50; i++) customers.push((await registerCustomer(orm.em.fork(), validPerson({ image: '/api/uploads/0123456789abcdef0123456789abcdef.png' }) as never)).id);
  await sql(orm.em.fork(), 'delete from identity.mail_outbox'); // the confirmations of those 50
  // No invoice is asked for: placed events attach nothing (a payment's invoice is a request to the payment service, not measured here).
  const notify = notificationHandler({ config, nc, logger });
  const figures = (xs: number[]) => ({ n: xs.length, p50: pct(xs, 50), p99: pct(xs, 99) });
  const out: Record<string, unknown> = { events };
  // Steady (100 events a second, far above a shop's day) and a burst (every event at once).
  for (const [label, rate] of [['steady', 100], ['burst', 0]] as const) {
    const baseline = await burst(nc, orm, customers, async () => undefined, `baseline-${label}`, rate);
    const queue = await burst(nc, orm, customers, notify, `queue-${label}`, rate);
    out[label] = { perSecond: rate || 'all at once', queue: figures(queue), baseline: figures(baseline) };
  }
  out.send = await sendRate(smtp, orm, smtp.url);
  console.log(JSON.stringify(out));
} finally {
  await orm.close();
  await nc.drain();
  await smtp.stop();
  await db.drop();
}
