import { IsolationLevel, type EntityManager } from '@mikro-orm/postgresql';
import { centsToString, EVENTS, PAYMENT_MESSAGES, PAYMENT_STATUSES, type ConfirmPaymentRequest, type Payment, type PaymentListResponse, type PaymentStatus } from '@dme/contracts';
import { conflict, containsPattern, eventEnvelope, idempotent, notFound, outboxInsert, personName, qualified, readKeptCounts, requestHash, requireKey, sql, type Db, type Principal, type StoredAnswer, newId } from '@dme/platform';
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
 * `search`, and/or only those with a refund still due (the Refunds tab, issue 29), with the number
 * of payments of each status for the same search (the tabs' counts; the Refunds tab's is
 * `refundsDue`). Page and counts are read in one snapshot. Unsearched, the counts are those the
 * payments table's triggers keep (migration 0010), so no request counts every payment; a search
 * counts its matches (trigram indexes on the order number and the customer's name), the Refunds
 * tab its payments (a partial index of the refunds due).
 */
export function listPayments(db: EntityManager, f: ListFilter): Promise<PaymentListResponse> {
  const search = f.search ? containsPattern(f.search) : null;
  return db.transactional(
    async (tem) => {
      const t = (n: string) => qualified(tem, n);
      const found: string[] = [];
      const params: unknown[] = [];
      if (search) {
        params.push(search);
        found.push(searchMatches(`$${params.length}`));
      }
      const conds = [...found];
      if (f.status) {
        params.push(f.status);
        conds.push(`p.status = $${params.length}`);
      }
      if (f.refundsDue) conds.push(hasRefundDue(tem));
      const where = (c: string[]) => (c.length ? `where ${c.join(' and ')}` : '');
      const rows = await sql<PaymentRow>(
        tem,
        `select ${PAYMENT_COLUMNS}, (select sum(r.amount)::text from ${t('payment_refunds')} r where r.payment_id = p.id and r.status = 'DUE') as refunds_due
           from ${t('payments')} p ${where(conds)} order by p.created_at desc, p.id limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, f.limit, f.offset],
      );
      let counts: Record<PaymentStatus, number>;
      if (search) {
        const grouped = await sql<{ status: PaymentStatus; n: number }>(tem, `select p.status, count(*)::int as n from ${t('payments')} p ${where(found)} group by p.status`, [search]);
        counts = Object.fromEntries(PAYMENT_STATUSES.map((st) => [st, grouped.find((g) => g.status === st)?.n ?? 0])) as Record<PaymentStatus, number>;
      } else {
        const kept = await readKeptCounts(tem, PAYMENT_COUNTS);
        counts = Object.fromEntries(PAYMENT_STATUSES.map((st) => [st, kept[st] ?? 0])) as Record<PaymentStatus, number>;
      }
      const refundsDue = await refundsDueCount(tem, search);
      // The list's own count: a status tab's is its count; the Refunds tab's counted (with a status, among those).
      let total: number;
      if (!f.refundsDue) total = f.status ? counts[f.status] : Object.values(counts).reduce((a, b) => a + b, 0);
      else if (!f.status) total = refundsDue;
      else total = (await sql<{ n: number }>(tem, `select count(*)::int as n from ${t('payments')} p ${where(conds)}`, params))[0]!.n;
      return { items: rows.map(summaryOf), total, counts, refundsDue };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}

/** Whether the payment `p`'s order number or customer name contains the pattern `param` (trigram indexes, migration 0010). */
const searchMatches = (param: string) => `(p.order_number ilike ${param} or p.customer_name ilike ${param})`;

/** Whether the payment `p` has a refund still to pay back (issue 29; a partial index of the refunds due, migration 0010). */
const hasRefundDue = (db: Db) => `exists (select 1 from ${qualified(db, 'payment_refunds')} r where r.payment_id = p.id and r.status = 'DUE')`;

/** How many payments (of those whose order number or customer name contains `search`, or all) have a refund still to pay back (issue 29). */
async function refundsDueCount(db: Db, search: string | null): Promise<number> {
  const [row] = search
    ? await sql<{ n: number }>(
        db,
        `select count(*)::int as n from ${qualified(db, 'payments')} p where ${searchMatches('$1')} and ${hasRefundDue(db)}`,
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
    const recordId = newId();
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
