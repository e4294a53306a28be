import { runService, startKeptCountFold } from '@dme/platform';
import { PaymentEnv } from './config';
import { createApp, entities, migrations, serveInvoices } from './app';
import { startOrderConsumer } from './consumers/orders';
import { purgePaymentHousekeeping } from './housekeeping';
import { PAYMENT_COUNTS } from './modules/payments/counts';
import { startReconciliationSchedule } from './modules/reconciliation/reconciliation.service';

await runService({
  name: 'payment',
  schema: 'payment',
  env: PaymentEnv,
  entities,
  migrations,
  createApp: ({ orm, config, logger, relay, nc }) => {
    // Invoices for e-mail attachments (identity's messages ask, NATS request/reply).
    serveInvoices({ nc, orm, logger });
    return createApp({ orm, config, logger, afterCommit: () => relay.kick() });
  },
  // Issue 29: the day's reconciliation, once per Manila day whichever replica (a round at start, then every 10 minutes);
  // issue 30: the payment tabs' kept counts folded every few seconds.
  workers: ({ orm, logger }) => [startReconciliationSchedule({ em: orm.em, logger }), startKeptCountFold({ em: orm.em, counts: PAYMENT_COUNTS, logger })],
  // Order events open and move payments; batches use the background connections, apart from requests.
  consumers: async ({ nc, orm, logger, background, relay }) => [
    await startOrderConsumer({ nc, em: orm.em, logger, connections: background, afterCommit: () => relay.kick() }),
  ],
  // Platform purge (outbox, inbox), then stored idempotent answers older than 24 h and stale held events.
  housekeeping: {
    everyMs: 10 * 60_000,
    run: async ({ orm, logger }) => {
      const purged = await purgePaymentHousekeeping(orm.em.fork());
      if (purged.idempotencyKeys || purged.earlyEvents) logger.info({ purged }, 'housekeeping: payment rows purged');
    },
  },
});
