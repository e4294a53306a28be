import { randomUUID } from 'node:crypto';
import { createOrm, migrate, type Logger, type NatsConnection, type Orm } from '@dme/platform';
import type { EventEnvelope } from '@dme/contracts';
// The real payment service (no fake of our own services), reached through the workspace link
// without a declared dependency, like ./catalog (DESIGN §3: services never import each other).
import { createApp, entities, migrations, orderEventHandler, PaymentEnv, serveInvoices } from '@dme/payment';
import { listen, serviceClient, TEST_INTERNAL_TOKEN, type Caller, type TestServer } from './index';

export interface PaymentFixture {
  orm: Orm;
  api: ReturnType<typeof serviceClient>;
  /** Runs the payment service's handler of order events on these events, in one transaction. */
  feed: (...events: EventEnvelope[]) => Promise<void>;
  /** Takes the open payment of an order (as accounting would), answers the HTTP status. */
  pay: (orderId: string, numbers: { invoiceNumber: string; receiptNumber: string; action?: 'BUY_OUT' }) => Promise<number>;
  /** The payment events the service wrote to its outbox for an order, oldest first. */
  events: (orderId: string, type: string) => Promise<EventEnvelope[]>;
  close: () => Promise<void>;
}

/**
 * The payment service booted in-process for another service's tests: its own schema of the given
 * database, its HTTP app, and its invoices served on a private subject (issue 24's attachments).
 */
export async function startPaymentService(opts: { databaseUrl: string; nc: NatsConnection; logger: Logger; invoiceSubject: string }): Promise<PaymentFixture> {
  const orm = await createOrm({ url: opts.databaseUrl, schema: 'payment', entities, migrations });
  await migrate(orm, 'payment', opts.databaseUrl);
  const config = PaymentEnv.parse({ DATABASE_URL: opts.databaseUrl, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN });
  const server: TestServer = await listen(createApp({ orm, config, logger: opts.logger }));
  const invoices = serveInvoices({ nc: opts.nc, orm, logger: opts.logger, subject: opts.invoiceSubject });
  const handle = orderEventHandler(opts.logger);
  const api = serviceClient(server.url);
  const accounting: Caller = { userId: randomUUID(), userType: 'ACCOUNTING_ADMIN', username: 'accounting' };
  const db = () => orm.em.fork();
  return {
    orm,
    api,
    feed: (...events) => db().transactional((tem) => handle(tem, events)),
    async pay(orderId, numbers) {
      const [row] = await db().execute<Array<{ id: string }>>('select id from payment.payments where order_id = ?', [orderId]);
      if (!row) throw new Error(`no payment for order ${orderId}`);
      const res = await api.post(`/api/payments/${row.id}/confirm`, { ...numbers, note: '' }, { as: accounting, headers: { 'idempotency-key': randomUUID() } });
      return res.status;
    },
    async events(orderId, type) {
      const rows = await db().execute<Array<{ payload: EventEnvelope }>>(
        `select payload from payment.outbox where subject = ? and payload->'data'->>'orderId' = ? order by seq`,
        [type, orderId],
      );
      return rows.map((r) => r.payload);
    },
    close: async () => {
      invoices.unsubscribe();
      await server.close();
      await orm.close();
    },
  };
}
