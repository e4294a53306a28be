import type { Context } from 'koa';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PROBLEM_CONTENT_TYPE } from '@dme/contracts';
import type { HandlersOf } from '@dme/platform';
import { invoicePdf } from './invoice';
import { recordRefund } from './refunds';
import { getRun, listRuns, startManualRun } from '../reconciliation/reconciliation.service';
import { confirmPayment, getPayment, getPaymentOfOrder, invoiceSource, listPayments, type InvoiceSource } from './payment.service';

export const em = (ctx: Context) => ctx.state.em as EntityManager;

/** Sends an invoice PDF as a download named after its payment's kind (INVOICE.pdf, INITIAL_/FULL_PAYMENT_INVOICE.pdf). */
async function sendInvoice(ctx: Context, src: InvoiceSource): Promise<void> {
  const { fileName, pdf } = await invoicePdf(src);
  ctx.type = 'application/pdf';
  ctx.set('Content-Disposition', `attachment; filename="${fileName}"`);
  // An invoice changes with the next payment: never served from a cache.
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = pdf;
}

export function paymentHandlers(afterCommit: () => void): HandlersOf<'payment'> {
  return {
    paymentsList: (ctx, { query }) =>
      listPayments(em(ctx), { limit: query.limit, offset: query.offset, ...(query.status ? { status: query.status } : {}), ...(query.search ? { search: query.search } : {}), ...(query.refunds === 'DUE' ? { refundsDue: true } : {}) }),
    paymentsGet: async (ctx, { params }) => ({ payment: await getPayment(em(ctx), params.id) }),
    paymentsByOrder: async (ctx, { params }) => ({ payment: await getPaymentOfOrder(em(ctx), params.id) }),
    async paymentsConfirm(ctx, { params, body, principal }) {
      const stored = await confirmPayment(em(ctx), params.id, principal, ctx.get('idempotency-key') || undefined, body);
      afterCommit();
      ctx.status = stored.status;
      if (stored.status >= 400) ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = stored.body;
      return undefined;
    },
    async paymentsRecordRefund(ctx, { params, body, principal }) {
      const stored = await recordRefund(em(ctx), params.id, params.refundId, principal, ctx.get('idempotency-key') || undefined, body, async (tem) => ({
        payment: await getPayment(tem, params.id),
      }));
      afterCommit();
      ctx.status = stored.status;
      if (stored.status >= 400) ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = stored.body;
      return undefined;
    },
    reconciliationRuns: async (ctx) => listRuns(em(ctx)),
    reconciliationRunGet: async (ctx, { params }) => getRun(em(ctx), params.id),
    reconciliationRunStart: async (ctx, { principal }) => startManualRun(em(ctx), principal.name ?? principal.username),
    paymentsInvoice: async (ctx, { params }) => sendInvoice(ctx, await invoiceSource(em(ctx), { paymentId: params.id })),
    staffOrdersInvoice: async (ctx, { params }) => sendInvoice(ctx, await invoiceSource(em(ctx), { orderId: params.id })),
    myOrdersInvoice: async (ctx, { params, principal }) => sendInvoice(ctx, await invoiceSource(em(ctx), { orderId: params.id, customerId: principal.userId })),
    paymentsRecordInvoice: async (ctx, { params }) => sendInvoice(ctx, await invoiceSource(em(ctx), { paymentId: params.id }, params.recordId)),
    myOrdersRecordInvoice: async (ctx, { params, principal }) =>
      sendInvoice(ctx, await invoiceSource(em(ctx), { orderId: params.id, customerId: principal.userId }, params.recordId)),
  };
}
