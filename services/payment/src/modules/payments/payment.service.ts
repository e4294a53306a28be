import { randomUUID } from 'node:crypto';
import { IsolationLevel, type EntityManager } from '@mikro-orm/postgresql';
import { centsToString, EVENTS, PAYMENT_MESSAGES, PAYMENT_STATUSES, type ConfirmPaymentRequest, type Payment, type PaymentListResponse, type PaymentStatus } from '@dme/contracts';
import {
  conflict,
  containsPattern,
  eventEnvelope,
  idempotent,
  notFound,
  outboxInsert,
  personName,
  qualified,
  readKeptCounts,
  requestHash,
  requireKey,
  sql,
  type Db,
  type Principal,
  type StoredAnswer,
} from '@dme/platform';
import { PAYMENT_COUNTS } from './counts';
import { confirm, confirmBuyOut, notPayableReason } from './payment.rules';
import { openRefund, refundsOf } from './refunds';
import { figuresOf, findPayment, money, PAYMENT_COLUMNS, paymentOf, recordsOf, saveFigures, summaryOf, type PaymentRow, type RecordRow } from './payment.store';

export const SOURCE = 'payment';
export const PAYMENT_NOT_FOUND = 'Payment not found.';
export const ORDER_NOT_FOUND = 'Order not found.';

/** Idempotency-Key texts of a payment confirmation. */
export const PAYMENT_IDEMPOTENCY = {
  missing: PAYMENT_MESSAGES.idempotencyMissing,
  mismatch: PAYMENT_MESSAGES.idempotencyMismatch,
  inProgress: PAYMENT_MESSAGES.idempotencyInProgress,
};

export interface ListFilter {
  /** Only payments with a refund still due. */
  refundsDue?: boolean;
  status?: PaymentStatus;
  search?: string;
  limit: number;
  offset: number;
}

/**
 * Payments, newest order first, by status and/or an order number or customer name containing
 * `search`, with the number of payments of each status for the same search (the tabs' counts).
 * Unsearched, the counts are those the payments table's triggers keep (migration 0010), read with
 * the page in one snapshot, so the total is the page's; a search counts its matches (trigram
 * indexes on the order number and the customer's name), in the same statement as its page.
 */
export async function listPayments(db: EntityManager, f: ListFilter): Promise<PaymentListResponse> {
  const search = f.search ? containsPattern(f.search) : null;
  if (!search && !f.refundsDue) {
    return db.transactional(
      async (tem) => {
        const rows = await sql<PaymentRow>(
          tem,
          `select ${PAYMENT_COLUMNS}, (select sum(r.amount)::text from ${qualified(tem, 'payment_refunds')} r where r.payment_id = p.id and r.status = 'DUE') as refunds_due
             from ${qualified(tem, 'payments')} p where ($1::text is null or p.status = $1) order by p.created_at desc, p.id limit $2 offset $3`,
          [f.status ?? null, f.limit, f.offset],
        );
        const kept = await readKeptCounts(tem, PAYMENT_COUNTS);
        const counts = Object.fromEntries(PAYMENT_STATUSES.map((st) => [st, kept[st] ?? 0])) as Record<PaymentStatus, number>;
        const total = f.status ? counts[f.status] : Object.values(counts).reduce((a, b) => a + b, 0);
        return { items: rows.map(summaryOf), total, counts, refundsDue: await refundsDueCount(tem, null) };
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
    );
  }
  // Issue 29: the list of payments with a refund still to pay back (the tabs' counts stay those of the search: the Refunds tab's is refundsDue).
  const dueOnly = f.refundsDue ? `exists (select 1 from ${qualified(db, 'payment_refunds')} r where r.payment_id = x.id and r.status = 'DUE')` : 'true';
  const rows = await sql<PaymentRow & { total: number; counts: Partial<Record<PaymentStatus, number>> | null }>(
    db,
    `with f as (
       select * from ${qualified(db, 'payments')} x
        where ($1::text is null or status = $1) and ($2::text is null or order_number ilike $2 or customer_name ilike $2) and ${dueOnly}
     )
     select t.total, c.counts, ${PAYMENT_COLUMNS}, p.refunds_due
       from (select count(*)::int as total from f) t
       cross join (select json_object_agg(g.status, g.n) as counts
                     from (select status, count(*)::int as n from ${qualified(db, 'payments')}
                            where ($2::text is null or order_number ilike $2 or customer_name ilike $2) group by status) g) c
       left join lateral (select f.*, (select sum(r.amount)::text from ${qualified(db, 'payment_refunds')} r where r.payment_id = f.id and r.status = 'DUE') as refunds_due
                            from f order by f.created_at desc, f.id limit $3 offset $4) p on true
      order by p.created_at desc, p.id`,
    [f.status ?? null, search, f.limit, f.offset],
  );
  const found = rows[0]?.counts ?? {};
  const counts = Object.fromEntries(PAYMENT_STATUSES.map((s) => [s, found[s] ?? 0])) as Record<PaymentStatus, number>;
  return { items: rows.filter((r) => r.id !== null).map(summaryOf), total: rows[0]?.total ?? 0, counts, refundsDue: await refundsDueCount(db, search) };
}

/** How many payments (of those whose order number or customer name contains `search`, or all) have a refund still to pay back (issue 29). */
async function refundsDueCount(db: Db, search: string | null): Promise<number> {
  const [row] = search
    ? await sql<{ n: number }>(
        db,
        `select count(*)::int as n from ${qualified(db, 'payments')} z
          where (order_number ilike $1 or customer_name ilike $1)
            and exists (select 1 from ${qualified(db, 'payment_refunds')} r where r.payment_id = z.id and r.status = 'DUE')`,
        [search],
      )
    : await sql<{ n: number }>(db, `select count(distinct payment_id)::int as n from ${qualified(db, 'payment_refunds')} where status = 'DUE'`);
  return row?.n ?? 0;
}

/** One payment with its records; 404 when there is none. */
export async function getPayment(db: Db, id: string): Promise<Payment> {
  const row = await findPayment(db, 'id', id);
  if (!row) throw notFound(PAYMENT_NOT_FOUND);
  return paymentOf(row, await recordsOf(db, id), await refundsOf(db, id));
}

/** The payment of an order (GET /api/orders/:id/payment); 404 when the order has none (yet). */
export async function getPaymentOfOrder(db: Db, orderId: string): Promise<Payment> {
  const row = await findPayment(db, 'order_id', orderId);
  if (!row) throw notFound(PAYMENT_NOT_FOUND);
  return paymentOf(row, await recordsOf(db, row.id), await refundsOf(db, row.id));
}

/**
 * Takes the payment due now (POST /api/payments/:id/confirm, SPEC §4): the payment row is locked,
 * its next action decides the amount and the figures after it (computed here, in cents, from the
 * payment's own figures; the client sends only invoice and receipt numbers and a note); a record
 * names who accommodated it; `dme.payment.confirmed` goes to the outbox in the same transaction.
 * Nothing to take now is 409, with its own text when the payment already knows that its order
 * was cancelled (a payment taken before it knew becomes REFUND_DUE when it learns: order-feed.ts).
 * The same Idempotency-Key and body answer the same and take one payment; the key with another
 * body (or another payment) is 422.
 */
export function confirmPayment(em: EntityManager, paymentId: string, who: Principal, key: string | undefined, body: ConfirmPaymentRequest): Promise<StoredAnswer> {
  const idemKey = requireKey(key, PAYMENT_IDEMPOTENCY);
  const claim = { owner: who.userId, key: idemKey, hash: requestHash(paymentId, body) };
  return idempotent(em, claim, PAYMENT_IDEMPOTENCY, `/api/payments/${paymentId}/confirm`, async (tem) => {
    const row = await findPayment(tem, 'id', paymentId, { lock: true });
    if (!row) throw notFound(PAYMENT_NOT_FOUND);
    const figures = figuresOf(row);
    // Issue 29: accounting may take a rent-to-own rental's buy-out instead of the payment due.
    const taken = body.action === 'BUY_OUT' ? confirmBuyOut(figures) : confirm(figures);
    if (!taken) throw conflict(body.action === 'BUY_OUT' ? PAYMENT_MESSAGES.buyOutNotOffered : PAYMENT_MESSAGES[notPayableReason(figures) ?? 'notPayable']);
    const { after, amount, deposit, cycle } = taken;
    const note = body.note ?? '';
    const confirmedAt = new Date();
    const recordId = randomUUID();
    const event = eventEnvelope(SOURCE, {
      type: EVENTS.payment.confirmed,
      aggregateId: paymentId,
      version: row.version + 1,
      data: {
        paymentId,
        orderId: row.order_id,
        orderNumber: row.order_number,
        customerId: row.customer_id,
        orderType: row.order_type,
        type: after.type!,
        status: after.status,
        amount: centsToString(amount),
        invoiceNumber: body.invoiceNumber,
        receiptNumber: body.receiptNumber,
        note,
        accommodatedBy: who.userId,
        confirmedAt: confirmedAt.toISOString(),
        totalPartialPayment: money(after.partial),
        extraCharge: money(after.extraCharge),
        overallTotal: money(after.overallTotal),
        balance: centsToString(after.balance),
        dueDate: after.dueDate,
        recordId,
        deposit: centsToString(deposit),
        cycle,
        owned: after.owned && !figures.owned,
      },
    });
    await saveFigures(tem, paymentId, after, true);
    // Issue 29: a rental that became the customer's gets its deposit back whole (a numbered refund).
    if (after.owned && !figures.owned && (after.depositRefund ?? 0) > 0) await openRefund(tem, paymentId, 'DEPOSIT', after.depositRefund!);
    const outbox = outboxInsert(tem, event, 18);
    await sql(
      tem,
      `with r as (
         insert into ${qualified(tem, 'payment_records')} (id, payment_id, type, invoice_number, receipt_number, note, amount, accommodated_by,
                accommodated_by_name, total_partial_payment, extra_charge, overall_total, balance, due_date, created_at, deposit, cycle)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::date, $15, $16, $17)
       )
       ${outbox.text}`,
      [
        recordId,
        paymentId,
        after.type,
        body.invoiceNumber,
        body.receiptNumber,
        note,
        centsToString(amount),
        who.userId,
        personName(who),
        money(after.partial),
        money(after.extraCharge),
        money(after.overallTotal),
        centsToString(after.balance),
        after.dueDate,
        confirmedAt,
        centsToString(deposit),
        cycle,
        ...outbox.values,
      ],
    );
    return { status: 200, body: { payment: await getPayment(tem, paymentId) } };
  });
}

/** A payment and its records for an invoice: the last record is the invoice's payment, those before it the payments so far. */
export interface InvoiceSource {
  payment: PaymentRow;
  records: RecordRow[];
}

/**
 * The payment an invoice is made of, found by payment id (staff) or order id (staff, or the
 * customer who owns the order: another customer's order answers like an unknown one). Without a
 * record id, the invoice of the latest payment (404 with PAYMENT_MESSAGES.noInvoice while none was
 * taken); with one, that record's invoice as it was when its payment was taken (the records up to
 * it; 404 for a record of another payment).
 */
export async function invoiceSource(db: Db, by: { paymentId: string } | { orderId: string; customerId?: string }, recordId?: string): Promise<InvoiceSource> {
  const payment =
    'paymentId' in by
      ? await findPayment(db, 'id', by.paymentId)
      : await findPayment(db, 'order_id', by.orderId, by.customerId ? { customerId: by.customerId } : {});
  if (!payment) throw notFound('paymentId' in by ? PAYMENT_NOT_FOUND : ORDER_NOT_FOUND);
  const records = await recordsOf(db, payment.id);
  if (recordId === undefined) {
    if (records.length === 0) throw notFound(PAYMENT_MESSAGES.noInvoice);
    return { payment, records };
  }
  const at = records.findIndex((r) => r.id === recordId);
  if (at < 0) throw notFound(PAYMENT_MESSAGES.recordNotFound);
  return { payment, records: records.slice(0, at + 1) };
}
