import type { EntityManager } from '@mikro-orm/postgresql';
import { OUTBOX_MESSAGES, type MessageDetail, type MessageStatus, type MessageSummary } from '@dme/contracts';
import { conflict, containsPattern, notFound, qualified, requeueMail } from '@dme/platform';

/** The superadmin's Messages screen (issue 24): the message outbox read back, and a failed message queued again. */

export interface MessageFilter {
  status?: MessageStatus | undefined;
  template?: string | undefined;
  search?: string | undefined;
  limit: number;
  offset: number;
}

interface SummaryRow {
  id: string;
  recipient: string;
  template: string;
  subject: string;
  status: MessageStatus;
  attempts: number;
  last_error: string | null;
  ref: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
  attachments: Array<{ filename: string; contentType: string; size: number | string }>;
}

interface DetailRow extends SummaryRow {
  html_body: string;
  text_body: string;
  message_id: string;
}

/**
 * The summary columns. Attachments come without their content (a PDF invoice is ~100 KB of base64
 * a row): only names, types and the decoded size, computed from the base64 length and its padding.
 */
const SUMMARY_COLUMNS = `m.id, m.recipient, m.template, m.subject, m.status, m.attempts, m.last_error, m.ref, m.created_at, m.sent_at,
  coalesce((select jsonb_agg(jsonb_build_object(
      'filename', a->>'filename',
      'contentType', a->>'contentType',
      'size', length(a->>'content') * 3 / 4 - (case when a->>'content' like '%==' then 2 when a->>'content' like '%=' then 1 else 0 end))
    order by i)
    from jsonb_array_elements(m.attachments) with ordinality as t(a, i)), '[]'::jsonb) as attachments`;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

function toSummary(r: SummaryRow): MessageSummary {
  return {
    id: r.id,
    recipient: r.recipient,
    template: r.template,
    subject: r.subject,
    status: r.status,
    attempts: r.attempts,
    lastError: r.last_error,
    ref: r.ref,
    createdAt: iso(r.created_at),
    sentAt: r.sent_at === null ? null : iso(r.sent_at),
    attachments: r.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, size: Number(a.size) })),
  };
}

/** Messages newest first; the filters combine (AND); `total` counts every match. */
export async function listMessages(em: EntityManager, f: MessageFilter): Promise<{ items: MessageSummary[]; total: number }> {
  const where: string[] = [];
  const values: unknown[] = [];
  if (f.status) {
    where.push('m.status = ?');
    values.push(f.status);
  }
  if (f.template) {
    where.push('m.template = ?');
    values.push(f.template);
  }
  if (f.search) {
    const like = containsPattern(f.search);
    where.push('(m.recipient ilike ? or m.subject ilike ?)');
    values.push(like, like);
  }
  const from = `from ${qualified(em, 'mail_outbox')} m ${where.length ? `where ${where.join(' and ')}` : ''}`;
  const [rows, counted] = await Promise.all([
    em.execute<SummaryRow[]>(`select ${SUMMARY_COLUMNS} ${from} order by m.created_at desc, m.id desc limit ? offset ?`, [...values, f.limit, f.offset]),
    em.execute<Array<{ n: string | number }>>(`select count(*) as n ${from}`, values),
  ]);
  return { items: rows.map(toSummary), total: Number(counted[0]?.n ?? 0) };
}

/** One message with its bodies; 404 for an unknown id. */
export async function getMessage(em: EntityManager, id: string): Promise<MessageDetail> {
  const rows = await em.execute<DetailRow[]>(
    `select ${SUMMARY_COLUMNS}, m.html_body, m.text_body, m.message_id from ${qualified(em, 'mail_outbox')} m where m.id = ?`,
    [id],
  );
  const r = rows[0];
  if (!r) throw notFound(OUTBOX_MESSAGES.notFound);
  return { ...toSummary(r), html: r.html_body, text: r.text_body, messageId: r.message_id };
}

/** Queues a FAILED message again (404 unknown, 409 in any other state); answers it as queued. */
export async function resendMessage(em: EntityManager, id: string): Promise<MessageDetail> {
  if (!(await requeueMail(em, id))) {
    await getMessage(em, id);
    throw conflict(OUTBOX_MESSAGES.notFailed);
  }
  return getMessage(em, id);
}
