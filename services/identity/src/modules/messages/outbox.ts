import type { EntityManager } from '@mikro-orm/postgresql';
import { qualified, queueMail, type MailAttachment } from '@dme/platform';
import { rendered, type MessageContent } from './render';
import type { Recipient, TemplateName } from './templates';

/** A customer as messages need them: where to write, how to greet, what they chose. */
export interface MessageRecipient extends Recipient {
  emailVerified: boolean;
  remindersEnabled: boolean;
}

/** The account a message goes to; undefined for one deleted (nobody to write to). */
export async function recipientOf(em: EntityManager, userId: string): Promise<MessageRecipient | undefined> {
  const rows = await em.execute<Array<{ id: string; email: string; first_name: string; email_verified_at: Date | null; reminders_enabled: boolean }>>(
    `select id, email, first_name, email_verified_at, reminders_enabled from ${qualified(em, 'users')} where id = ? and deleted_at is null`,
    [userId],
  );
  const r = rows[0];
  return r && { id: r.id, email: r.email, firstName: r.first_name, emailVerified: r.email_verified_at !== null, remindersEnabled: r.reminders_enabled };
}

export interface QueueOptions {
  /** What it is about (an order id...), for the staff's list. */
  ref?: string;
  /** One message per cause (an event's id, a token's id): queuing it again writes nothing. */
  dedupeKey: string;
  attachments?: MailAttachment[];
}

/** Renders a message and queues it in the caller's transaction (the message outbox). */
export function queueMessage(em: EntityManager, from: string, to: string, template: TemplateName, content: MessageContent, opts: QueueOptions): Promise<string> {
  const { subject, html, text } = rendered(content);
  return queueMail(em, from, {
    to,
    template,
    subject,
    html,
    text,
    ...(opts.attachments ? { attachments: opts.attachments } : {}),
    ...(opts.ref ? { ref: opts.ref } : {}),
    dedupeKey: opts.dedupeKey,
  });
}
