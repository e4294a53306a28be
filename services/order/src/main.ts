import { runService } from '@dme/platform';
import { OrderEnv } from './config';
import { createApp, entities, migrations } from './app';
import { startReadModelConsumers } from './consumers/readmodels';
import { startPaymentConsumer } from './consumers/payments';
import { purgeIdempotencyKeys } from './housekeeping';
import { startReminderSchedule } from './modules/rentals/reminders';
import { startOrderCountFolds } from './modules/orders/counts';

await runService({
  name: 'order',
  schema: 'ordering',
  env: OrderEnv,
  entities,
  migrations,
  // Rental reminders (issue 24): every replica runs the round; each reminder is written once.
  workers: ({ orm, logger, relay, config }) => [
    startReminderSchedule({ em: orm.em, logger, afterWrite: () => relay.kick(), everyMs: config.REMINDER_EVERY_MS, from: config.REMINDER_TIME }),
    // The staff's tab counts (issue 30): their changes folded into their rows.
    ...startOrderCountFolds({ em: orm.em, logger }),
  ],
  createApp: ({ orm, config, logger, relay, nc }) => createApp({ orm, config, logger, nc, afterCommit: () => relay.kick() }),
  consumers: async ({ nc, orm, logger, relay }) => [
    ...(await startReadModelConsumers({ nc, em: orm.em, logger })),
    // A payment moves the order on (FOR_PAYMENT → PREPARING): its status event goes out at once.
    await startPaymentConsumer({ nc, em: orm.em, logger, afterCommit: () => relay.kick() }),
  ],
  // Platform purge (outbox, inbox) plus the stored idempotent answers older than 24 h.
  housekeeping: {
    everyMs: 10 * 60_000,
    run: async ({ orm, logger }) => {
      const purged = await purgeIdempotencyKeys(orm.em.fork());
      if (purged) logger.info({ purged }, 'housekeeping: idempotency keys purged');
    },
  },
});
