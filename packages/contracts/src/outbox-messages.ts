import { z } from 'zod';
import { IdParams, Pagination } from './identity';
import { MESSAGE_STATUSES } from './outbox-labels';
import { searchParam, text } from './text';

/**
 * The superadmin's Messages screen (issue 24): every e-mail the shop sent, from identity's mail
 * outbox. The names and texts (MESSAGE_TEMPLATES, MESSAGE_STATUSES...) live in the zod-free
 * outbox-labels.ts so the browser can take them; re-exported here.
 */
export * from './outbox-labels';

export const MessageListQuery = Pagination.extend({
  status: z.enum(MESSAGE_STATUSES).optional(),
  // Any name up to 60 (not only MESSAGE_TEMPLATES): a template retired later stays findable.
  template: text({ max: 60 }).optional(),
  /** A part of the recipient or the subject. */
  search: searchParam(),
});
export type MessageListQuery = z.input<typeof MessageListQuery>;

export const MessageAttachment = z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() });

export const MessageSummary = z.object({
  id: z.string().uuid(),
  recipient: z.string(),
  template: z.string(),
  subject: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  attempts: z.number().int(),
  /** The SMTP answer of the last failed attempt. */
  lastError: z.string().nullable(),
  /** What it is about: an order id or a user id. */
  ref: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  attachments: z.array(MessageAttachment),
});
export type MessageSummary = z.infer<typeof MessageSummary>;

export const MessageListResponse = z.object({ items: z.array(MessageSummary), total: z.number().int() });
export type MessageListResponse = z.infer<typeof MessageListResponse>;

export const MessageDetail = MessageSummary.extend({
  html: z.string(),
  text: z.string(),
  /** The Message-ID header it is sent under (the same on every attempt). */
  messageId: z.string(),
});
export type MessageDetail = z.infer<typeof MessageDetail>;

export const MessageResponse = z.object({ message: MessageDetail });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const MessageIdParams = IdParams;
