import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENT_DATA, EVENTS, INVOICE_RPC, InvoiceReply, type EventEnvelope } from '@dme/contracts';
import { callRpc, HttpProblem, queueMails, startConsumer, type Db, type Logger, type MailAttachment, type NatsConnection, type RunningConsumer } from '@dme/platform';
import type { IdentityConfig } from '../../config';
import { recipientsOf, renderedMail, type MessageRecipient } from './outbox';
import { orderPlaced, orderStatus, paymentReceived, recallNotice, REMINDER_TEMPLATE, refundDue, refundPaid, rentalEndedEarly, rentalExtended, rentalReminderMessage, requestChanged, TEMPLATES, type TemplateName } from './templates';
import { unsubscribeToken } from '../accounts/unsubscribe';
import type { MessageContent } from './render';

export interface NotifyDeps {
  config: Pick<IdentityConfig, 'MAIL_FROM' | 'PUBLIC_URL' | 'INTERNAL_TOKEN'>;
  nc: NatsConnection;
  logger: Logger;
  /** The payment service's invoice subject (tests use a private one). */
  invoiceSubject?: string;
}

interface Message {
  customerId: string;
  orderId: string;
  template: TemplateName;
  content: (r: MessageRecipient) => MessageContent;
  invoice?: { recordId: string };
  /** A reminder: not sent to a customer who turned reminders off. */
  reminder?: boolean;
  /** One message per this key (default: per event). */
  dedupeKey?: string;
}

/** The messages an event sends to its customers: one for most, one per customer concerned by a recall (issue 26). */
function messagesOf(event: EventEnvelope, links: { publicUrl: string; secret: string }): Message[] {
  if (event.type === EVENTS.catalog.recallOpened) {
    const x = EVENT_DATA[EVENTS.catalog.recallOpened].parse(event.data);
    return x.holders.map((h) => ({
      customerId: h.customerId,
      orderId: h.orderId,
      template: TEMPLATES.recallNotice,
      content: (r: MessageRecipient) => recallNotice(r, x, h, links),
      dedupeKey: `event:${event.id}:${h.orderId}`,
    }));
  }
  const one = messageOf(event, links);
  return one ? [one] : [];
}

/** The message an event sends to its customer, if any (issue 24: the moves a customer waits for). */
function messageOf(event: EventEnvelope, links: { publicUrl: string; secret: string }): Message | null {
  switch (event.type) {
    case EVENTS.rental.reminderDue: {
      const m = EVENT_DATA[EVENTS.rental.reminderDue].parse(event.data);
      const unsubscribeUrl = (r: MessageRecipient) => `${links.publicUrl}/unsubscribe?token=${unsubscribeToken(links.secret, r.id)}`;
      return {
        customerId: m.customerId,
        orderId: m.orderId,
        template: REMINDER_TEMPLATE[m.kind],
        content: (r) => rentalReminderMessage(r, m, { ...links, unsubscribeUrl: unsubscribeUrl(r) }),
        reminder: true,
        // One reminder per rental and day, even if its event came twice under two ids.
        dedupeKey: `reminder:${m.orderId}:${m.day}`,
      };
    }
    case EVENTS.order.placed: {
      const o = EVENT_DATA[EVENTS.order.placed].parse(event.data);
      return { customerId: o.customerId, orderId: o.orderId, template: TEMPLATES.orderPlaced, content: (r) => orderPlaced(r, o, links) };
    }
    case EVENTS.order.statusChanged: {
      const s = EVENT_DATA[EVENTS.order.statusChanged].parse(event.data);
      const message = orderStatus(s, links);
      return message && { customerId: s.customerId, orderId: s.orderId, ...message };
    }
    case EVENTS.order.extended: {
      const x = EVENT_DATA[EVENTS.order.extended].parse(event.data);
      return { customerId: x.customerId, orderId: x.orderId, template: TEMPLATES.rentalExtended, content: (r) => rentalExtended(r, x, links) };
    }
    case EVENTS.order.endedEarly: {
      const x = EVENT_DATA[EVENTS.order.endedEarly].parse(event.data);
      return { customerId: x.customerId, orderId: x.orderId, template: TEMPLATES.rentalEndedEarly, content: (r) => rentalEndedEarly(r, x, links) };
    }
    case EVENTS.payment.confirmed: {
      const p = EVENT_DATA[EVENTS.payment.confirmed].parse(event.data);
      return {
        customerId: p.customerId,
        orderId: p.orderId,
        template: TEMPLATES.paymentReceived,
        content: (r) => paymentReceived(r, p, links),
        ...(p.recordId ? { invoice: { recordId: p.recordId } } : {}),
      };
    }
    case EVENTS.payment.refundDue: {
      const p = EVENT_DATA[EVENTS.payment.refundDue].parse(event.data);
      return { customerId: p.customerId, orderId: p.orderId, template: TEMPLATES.refundDue, content: (r) => refundDue(r, p, links) };
    }
    case EVENTS.payment.refundRecorded: {
      const p = EVENT_DATA[EVENTS.payment.refundRecorded].parse(event.data);
      return { customerId: p.customerId, orderId: p.orderId, template: TEMPLATES.refundPaid, content: (r) => refundPaid(r, p, links) };
    }
    case EVENTS.request.changed: {
      const q = EVENT_DATA[EVENTS.request.changed].parse(event.data);
      return { customerId: q.customerId, orderId: q.orderId, template: TEMPLATES.requestChanged, content: (r) => requestChanged(r, q, links) };
    }
    default:
      return null;
  }
}

/**
 * The invoice of a payment record, asked of the payment service as the customer (their order
 * only). Not there (404: nothing to attach) → sent without; the payment service not answering
 * (503) → thrown, and the event is handled again later.
 */
async function invoiceAttachment(deps: NotifyDeps, m: Message): Promise<MailAttachment[]> {
  if (!m.invoice) return [];
  try {
    const reply = InvoiceReply.parse(
      await callRpc(deps.nc, deps.invoiceSubject ?? INVOICE_RPC.get, { orderId: m.orderId, recordId: m.invoice.recordId, customerId: m.customerId }),
    );
    return [{ filename: reply.fileName, contentType: 'application/pdf', content: Buffer.from(reply.pdfBase64, 'base64') }];
  } catch (err) {
    if (err instanceof HttpProblem && err.status === 404) {
      deps.logger.warn({ orderId: m.orderId, recordId: m.invoice.recordId }, 'messages: no invoice for a payment e-mail; sent without it');
      return [];
    }
    throw err;
  }
}

/**
 * Handles a batch of events (in the consumer's transaction): their recipients read in one
 * statement, the invoices of payment messages asked for side by side, and every message queued
 * in one statement, once per event (or per its dedupeKey).
 */
export function notificationHandler(deps: NotifyDeps) {
  const links = { publicUrl: deps.config.PUBLIC_URL, secret: deps.config.INTERNAL_TOKEN };
  return async (db: Db, events: readonly EventEnvelope[]): Promise<void> => {
    const messages = events.flatMap((event) => messagesOf(event, links).map((m) => ({ ...m, dedupeKey: m.dedupeKey ?? `event:${event.id}` })));
    if (messages.length === 0) return;
    const recipients = await recipientsOf(db, [...new Set(messages.map((m) => m.customerId))]);
    const sendable = messages.flatMap((m) => {
      const recipient = recipients.get(m.customerId);
      return !recipient || (m.reminder && !recipient.remindersEnabled) ? [] : [{ m, recipient }];
    });
    const attachments = await Promise.all(sendable.map(({ m }) => invoiceAttachment(deps, m)));
    await queueMails(
      db,
      deps.config.MAIL_FROM,
      sendable.map(({ m, recipient }, i) =>
        renderedMail(recipient.email, m.template, m.content(recipient), { ref: m.orderId, dedupeKey: m.dedupeKey, attachments: attachments[i]! }),
      ),
    );
  };
}

/** The consumers that turn order, payment, request, rental and recall events into messages (one subject each: nats-server 2.9 filters one). */
export async function startNotificationConsumers(
  opts: NotifyDeps & { em: EntityManager; afterCommit?: () => void; durablePrefix?: string },
): Promise<RunningConsumer[]> {
  const prefix = opts.durablePrefix ?? 'identity-mail';
  const handleBatch = notificationHandler(opts);
  // Up to 25 events in one transaction: one read of their recipients and one insert of their
  // messages (one transaction per event kept identity busy through a burst of checkouts). A
  // payment's message waits for its invoice (a request to the payment service) inside the
  // transaction; a batch's invoices are asked for side by side.
  const common = { nc: opts.nc, em: opts.em, logger: opts.logger, handleBatch, maxBatch: 25, ...(opts.afterCommit ? { afterCommit: opts.afterCommit } : {}) };
  return Promise.all([
    startConsumer({ ...common, durable: `${prefix}-order`, subjects: ['dme.order.>'] }),
    startConsumer({ ...common, durable: `${prefix}-payment`, subjects: ['dme.payment.>'] }),
    startConsumer({ ...common, durable: `${prefix}-request`, subjects: ['dme.request.>'] }),
    startConsumer({ ...common, durable: `${prefix}-rental`, subjects: ['dme.rental.>'] }),
    // A recall's customers (issue 26); the catalog's other events send nothing.
    startConsumer({ ...common, durable: `${prefix}-catalog`, subjects: ['dme.catalog.>'] }),
  ]);
}
