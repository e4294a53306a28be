import type { EntityManager } from '@mikro-orm/postgresql';
import { centsToString, EVENTS, PAYMENT_MESSAGES, toCents, type Cents, type PaymentRefund, type RecordRefundRequest, type RefundKind } from '@dme/contracts';
import { conflict, idempotent, notFound, paddedNumberSql, personName, qualified, requestHash, requireKey, sql, writeEvent, type Db, type Principal, type StoredAnswer, newId } from '@dme/platform';
import { onRefundRecorded } from './payment.rules';
import { figuresOf, findPayment, saveFigures, type PaymentRow } from './payment.store';

/**
 * Refunds (issue 29): money owed back, each with its own number, opened by the payment's own
 * events (the rest of a rental's deposit when its full payment is asked; what was paid for an
 * order cancelled meanwhile) and closed by accounting recording how it was paid back.
 */

const SOURCE = 'payment';
const REFUND_IDEMPOTENCY = {
  missing: PAYMENT_MESSAGES.refundIdempotencyMissing,
  mismatch: PAYMENT_MESSAGES.refundIdempotencyMismatch,
  inProgress: PAYMENT_MESSAGES.refundIdempotencyInProgress,
};

interface RefundRow {
  id: string;
  number: string;
  payment_id: string;
  kind: RefundKind;
  amount: string;
  status: 'DUE' | 'REFUNDED';
  method: PaymentRefund['method'];
  reference: string;
  note: string;
  refunded_by_name: string | null;
  refunded_at: Date | null;
  created_at: Date;
}

const REFUND_COLUMNS = `r.id, r.number, r.payment_id, r.kind, r.amount::text as amount, r.status, r.method, r.reference, r.note,
  r.refunded_by_name, r.refunded_at, r.created_at`;

export function refundOf(r: RefundRow): PaymentRefund {
  return {
    id: r.id,
    number: r.number,
    kind: r.kind,
    amount: centsToString(toCents(r.amount)),
    status: r.status,
    createdAt: new Date(r.created_at).toISOString(),
    refundedAt: r.refunded_at === null ? null : new Date(r.refunded_at).toISOString(),
    method: r.method,
    reference: r.reference,
    note: r.note,
    refundedByName: r.refunded_by_name,
  };
}

/** A payment's refunds, oldest first. */
export async function refundsOf(db: Db, paymentId: string): Promise<PaymentRefund[]> {
  const rows = await sql<RefundRow>(db, `select ${REFUND_COLUMNS} from ${qualified(db, 'payment_refunds')} r where r.payment_id = $1 order by r.created_at, r.number`, [paymentId]);
  return rows.map(refundOf);
}

/**
 * Opens the refund of a payment for a reason, once (one per payment and kind: the event that
 * opens it may be delivered again), numbered RF-<Manila day>-<sequence>, in the caller's
 * transaction. Nothing is owed for a zero amount.
 */
export async function openRefund(db: Db, paymentId: string, kind: RefundKind, amount: Cents): Promise<void> {
  if (amount <= 0) return;
  const t = (n: string) => qualified(db, n);
  await sql(
    db,
    `insert into ${t('payment_refunds')} (id, number, payment_id, kind, amount)
     select $1, 'RF-' || to_char(now() at time zone 'Asia/Manila', 'YYYYMMDD') || '-' || ${paddedNumberSql('s.n')}, $2, $3, $4
       from (select nextval('${t('refund_number_seq')}') as n) s
     on conflict (payment_id, kind) do nothing`,
    [newId(), paymentId, kind, centsToString(amount)],
  );
}

/**
 * Records how a refund was paid back (POST /api/payments/:id/refunds/:refundId/record): the
 * payment and the refund are locked; a refund of another payment is 404, one recorded already
 * 409; the refund is REFUNDED with the method, reference and who; a cancelled order's payment
 * moves REFUND_DUE → REFUNDED (a row of the payment process); `dme.payment.refund_recorded` goes
 * to the outbox in the same transaction. The same Idempotency-Key and body answer the same.
 */
export function recordRefund(
  em: EntityManager,
  paymentId: string,
  refundId: string,
  who: Principal,
  key: string | undefined,
  body: RecordRefundRequest & { reference: string; note: string },
  answer: (tem: EntityManager) => Promise<unknown>,
): Promise<StoredAnswer> {
  const idemKey = requireKey(key, REFUND_IDEMPOTENCY);
  const claim = { owner: who.userId, key: idemKey, hash: requestHash(`${paymentId}/${refundId}`, body) };
  return idempotent(em, claim, REFUND_IDEMPOTENCY, `/api/payments/${paymentId}/refunds/${refundId}/record`, async (tem) => {
    const payment = await findPayment(tem, 'id', paymentId, { lock: true });
    if (!payment) throw notFound(PAYMENT_MESSAGES.refundNotFound);
    const [refund] = await sql<RefundRow>(tem, `select ${REFUND_COLUMNS} from ${qualified(tem, 'payment_refunds')} r where r.id = $1 and r.payment_id = $2 for update`, [refundId, paymentId]);
    if (!refund) throw notFound(PAYMENT_MESSAGES.refundNotFound);
    if (refund.status === 'REFUNDED') throw conflict(PAYMENT_MESSAGES.refundAlreadyRecorded);
    const at = new Date();
    await sql(
      tem,
      `update ${qualified(tem, 'payment_refunds')} set status = 'REFUNDED', method = $2, reference = $3, note = $4, refunded_by = $5, refunded_by_name = $6, refunded_at = $7 where id = $1`,
      [refundId, body.method, body.reference, body.note, who.userId, personName(who), at],
    );
    const status = await afterRefund(tem, payment, refund.kind);
    await writeEvent(tem, SOURCE, {
      type: EVENTS.payment.refundRecorded,
      aggregateId: paymentId,
      version: payment.version + 1,
      data: {
        paymentId,
        orderId: payment.order_id,
        orderNumber: payment.order_number,
        customerId: payment.customer_id,
        orderType: payment.order_type,
        refundId,
        number: refund.number,
        kind: refund.kind,
        amount: centsToString(toCents(refund.amount)),
        method: body.method,
        status,
        refundedAt: at.toISOString(),
      },
    });
    return { status: 200, body: await answer(tem) };
  });
}

/** What a refund paid back does to its payment: a cancelled order's is REFUNDED (process row); a deposit's leaves it as it is. */
async function afterRefund(tem: EntityManager, payment: PaymentRow, kind: RefundKind) {
  const after = onRefundRecorded(figuresOf(payment), kind);
  await saveFigures(tem, payment.id, after, true);
  return after.status;
}
