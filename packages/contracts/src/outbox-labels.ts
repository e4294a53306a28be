import type { TagColor } from './enums';

/**
 * The superadmin's Messages screen (issue 24): names and texts without zod, so the browser can
 * take them (browser.ts); the schemas are in outbox-messages.ts.
 */

/** The states of a message in the message outbox (packages/platform mail-outbox.ts). */
export const MESSAGE_STATUSES = ['QUEUED', 'SENDING', 'SENT', 'FAILED'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Every message the shop sends, by the name its rows carry (identity's templates.ts writes them). */
export const MESSAGE_TEMPLATE = {
  verifyEmail: 'verify-email',
  passwordReset: 'password-reset',
  passwordChanged: 'password-changed',
  orderPlaced: 'order-placed',
  paymentReceived: 'payment-received',
  orderOnTheWay: 'order-out-for-delivery',
  orderDelivered: 'order-delivered',
  pickUp: 'rental-pick-up',
  fullPaymentDue: 'full-payment-due',
  orderCancelled: 'order-cancelled',
  refundDue: 'refund-due',
  refundPaid: 'refund-paid',
  requestChanged: 'request-changed',
  rentalExtended: 'rental-extended',
  rentalEndedEarly: 'rental-ended-early',
  recallNotice: 'recall-notice',
  reminderDueTomorrow: 'reminder-due-tomorrow',
  reminderDueToday: 'reminder-due-today',
  reminderOverdue: 'reminder-overdue',
  reminderFullPayment: 'reminder-full-payment-due',
  reminderCycleDue: 'reminder-cycle-due',
} as const;
export type MessageTemplate = (typeof MESSAGE_TEMPLATE)[keyof typeof MESSAGE_TEMPLATE];

/** The same names sorted, for the screen's filter. */
export const MESSAGE_TEMPLATES: readonly MessageTemplate[] = Object.values(MESSAGE_TEMPLATE).sort();

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

/** A message the relay still has (queued, or being sent): a screen showing it asks again until it is SENT or FAILED. */
export function messageInFlight(status: string): boolean {
  return status === 'QUEUED' || status === 'SENDING';
}

export function messageStatusColor(status: string): TagColor {
  return (MESSAGE_STATUS_COLORS as Partial<Record<string, TagColor>>)[status] ?? 'blue';
}
