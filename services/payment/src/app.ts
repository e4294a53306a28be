import type { MikroORM } from '@mikro-orm/postgresql';
import { INVOICE_RPC, InvoiceRequest, type InvoiceReply } from '@dme/contracts';
import { createHttpApp, metricsOf, mountRoutes, serveRpc, type Logger, type NatsConnection } from '@dme/platform';
import { latestMismatches } from './modules/reconciliation/reconciliation.service';
import type { PaymentConfig } from './config';
import { paymentHandlers } from './modules/payments/payment.routes';
import { invoicePdf } from './modules/payments/invoice';
import { invoiceSource } from './modules/payments/payment.service';

export interface PaymentDeps {
  orm: MikroORM;
  config: PaymentConfig;
  logger: Logger;
  /** Called after a transaction that recorded events committed (kicks the outbox relay). */
  afterCommit?: () => void;
}

/** The payment service's HTTP app (no listen: tests use it directly). */
export function createApp(deps: PaymentDeps) {
  const app = createHttpApp({ name: 'payment', logger: deps.logger });
  const afterCommit = deps.afterCommit ?? (() => undefined);
  app.use(async (ctx, next) => {
    ctx.state.em = deps.orm.em.fork();
    await next();
  });
  const api = mountRoutes('payment', paymentHandlers(afterCommit), deps.config.INTERNAL_TOKEN);
  app.use(api.routes()).use(api.allowedMethods());
  // Issue 29: what the newest reconciliation found (0: every payment as its terms say).
  metricsOf(app).gauge('payment_reconciliation_mismatches', 'Mismatches found by the newest finished reconciliation run', () => latestMismatches(deps.orm.em.fork()));
  return app;
}

/**
 * Hands the invoice of one payment record to the service that e-mails it (issue 24): the order
 * must be the customer's, as for the customer's own download.
 */
export function serveInvoices(opts: { nc: NatsConnection; orm: MikroORM; logger: Logger; subject?: string }) {
  return serveRpc({
    nc: opts.nc,
    subject: opts.subject ?? INVOICE_RPC.get,
    queue: 'payment',
    schema: InvoiceRequest,
    logger: opts.logger,
    handle: async ({ orderId, recordId, customerId }): Promise<InvoiceReply> => {
      const { fileName, pdf } = await invoicePdf(await invoiceSource(opts.orm.em.fork(), { orderId, customerId }, recordId));
      return { fileName, pdfBase64: pdf.toString('base64') };
    },
  });
}

/** Tables are reached with SQL (payment.store.ts); the platform adds its outbox and inbox entities. */
export const entities = [];
export { migrations } from './migrations/0001_payment';
export { PaymentEnv } from './config';
export { startOrderConsumer, orderEventHandler, ORDER_CONSUMER } from './consumers/orders';
export { purgePaymentHousekeeping } from './housekeeping';
export { PAYMENT_COUNTS } from './modules/payments/counts';
