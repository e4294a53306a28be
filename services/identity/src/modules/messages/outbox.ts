import type { EntityManager } from '@mikro-orm/postgresql';
import { qualified, queueMail, sql, type Db, type MailAttachment, type QueuedMail } from '@dme/platform';
import { rendered, type MessageContent } from './render';
import type { Recipient, TemplateName } from './templates';

/** A customer as messages need them: where to write, how to greet, what they chose. */
export interface MessageRecipient extends Recipient {
  emailVerified: boolean;
  remindersEnabled: boolean;
}

/** The accounts messages go to, by id; one deleted is not there (nobody to write to). */
export async function recipientsOf(db: Db, userIds: readonly string[]): Promise<Map<string, MessageRecipient>> {
  if (userIds.length === 0) return new Map();
  const rows = await sql<{ id: string; email: string; first_name: string; email_verified_at: Date | null; reminders_enabled: boolean }>(
    db,
    `select id, email, first_name, email_verified_at, reminders_enabled from ${qualified(db, 'users')} where id = any($1::uuid[]) and deleted_at is null`,
    [userIds],
  );
  return new Map(
    rows.map((r) => [r.id, { id: r.id, email: r.email, firstName: r.first_name, emailVerified: r.email_verified_at !== null, remindersEnabled: r.reminders_enabled }]),
  );
}

export interface QueueOptions {
  /** What it is about (an order id...), for the staff's list. */
  ref?: string;
  /** One message per cause (an event's id, a token's id): queuing it again writes nothing. */
  dedupeKey: string;
  attachments?: MailAttachment[];
}

/** A message rendered as the outbox takes it. */
export function renderedMail(to: string, template: TemplateName, content: MessageContent, opts: QueueOptions): QueuedMail {
  const { subject, html, text } = rendered(content);
  return {
    to,
    template,
    subject,
    html,
    text,
    ...(opts.attachments ? { attachments: opts.attachments } : {}),
    ...(opts.ref ? { ref: opts.ref } : {}),
    dedupeKey: opts.dedupeKey,
  };
}

/** Renders a message and queues it in the caller's transaction (the message outbox). */
export function queueMessage(em: EntityManager, from: string, to: string, template: TemplateName, content: MessageContent, opts: QueueOptions): Promise<string> {
  return queueMail(em, from, renderedMail(to, template, content, opts));
}
