import type { TagColor } from './enums';

/**
 * The superadmin's Messages screen (issue 24): names and texts without zod, so the browser can
 * take them (browser.ts); the schemas are in outbox-messages.ts.
 */

/** The states of a message in the message outbox (packages/platform mail-outbox.ts). */
export const MESSAGE_STATUSES = ['QUEUED', 'SENDING', 'SENT', 'FAILED'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * Every template the shop sends, sorted: the values of identity's TEMPLATES (a test there keeps
 * the two equal), for the screen's filter and the list query.
 */
export const MESSAGE_TEMPLATES = [
  'full-payment-due',
  'order-cancelled',
  'order-delivered',
  'order-out-for-delivery',
  'order-placed',
  'password-changed',
  'password-reset',
  'payment-received',
  'refund-due',
  'reminder-due-today',
  'reminder-due-tomorrow',
  'reminder-full-payment-due',
  'reminder-overdue',
  'rental-pick-up',
  'request-changed',
  'verify-email',
] as const;

export const OUTBOX_MESSAGES = {
  notFound: 'Message not found.',
  notFailed: 'Only a message that failed can be sent again.',
  empty: 'No messages yet.',
  resendTitle: 'Send this message again?',
  resendContent: 'It is queued at once and sent to the same address under the same Message-ID.',
  resent: 'The message is queued to be sent again.',
  resendErrorTitle: 'The message could not be sent again',
} as const;

const MESSAGE_STATUS_COLORS: Record<MessageStatus, TagColor> = {
  QUEUED: 'blue',
  SENDING: 'cyan',
  SENT: 'green',
  FAILED: 'red',
};

export function messageStatusColor(status: string): TagColor {
  return (MESSAGE_STATUS_COLORS as Partial<Record<string, TagColor>>)[status] ?? 'blue';
}
