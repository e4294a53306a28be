import { centsToString, fullPaymentDueInWords, isIsoDate, isNonZeroAmount, RETURN_STATUSES, toCents } from '@dme/contracts/browser';
import { money } from '@dme/ui';
import type {
  Order,
  OrderLine,
  OrderType,
  ReturnStatus,
  TagColor,
} from '@dme/contracts';

/** "FOR_PAYMENT" → "For Payment" (tab labels). */
export const statusLabel = (s: string) =>
  s
    .split('_')
    .map((w) => w.charAt(0) + w.slice(1).toLowerCase())
    .join(' ');

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A business date "YYYY-MM-DD" with its weekday: "Sat 28 Nov 2026" (a driver's planned day); anything else as given. */
export function dayText(date: string): string {
  if (!isIsoDate(date)) return date;
  const d = new Date(`${date}T00:00:00Z`);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** Product name with its variant and sub-variant: "Wheelchair / Standard / Large". */
export const lineName = (l: Pick<OrderLine, 'productName' | 'variant' | 'subVariant'>) =>
  [l.productName, l.variant?.name, l.subVariant?.name].filter(Boolean).join(' / ');

/** Where the staff screens of an order type live. */
export const ordersBase = (type: OrderType) => (type === 'RENT' ? '/admin/orders/rentals' : '/admin/orders/purchased');

type Serial = OrderLine['serialCodes'][number];

/** The return mark of a serial code (OK, LOST, DAMAGED), or undefined while it is not returned. */
export function returnMark(s: Serial): ReturnStatus | undefined {
  return (RETURN_STATUSES as readonly string[]).includes(s.status ?? '') ? (s.status as ReturnStatus) : undefined;
}

export const RETURN_MARK_COLORS: Record<ReturnStatus, TagColor> = { OK: 'green', LOST: 'red', DAMAGED: 'volcano' };

/** Serial codes of the order marked as returned, and in all. */
export function returnProgress(order: Pick<Order, 'products'>): { marked: number; total: number } {
  const all = order.products.flatMap((l) => l.serialCodes);
  return { marked: all.filter((s) => returnMark(s) !== undefined).length, total: all.length };
}

/**
 * The prompt before asking for the full payment: the extra charge and the serial codes it is for,
 * as the server computed them (the order's fullPaymentPreview, contracts `fullPaymentTerms`), and
 * when the payment will be due.
 */
export function fullPaymentPromptText(preview: Order['fullPaymentPreview'] | null): string {
  const due = `The full payment is due ${fullPaymentDueInWords()} from now.`;
  if (!preview) return `The extra charge will be the damage or lost fees of every serial code not marked OK. ${due}`;
  const codes = preview.chargedSerials.map((s) => `${s.serialCode} (${s.status})`);
  const which = codes.length > 0 ? ` (${codes.join(', ')})` : ' (every serial code came back OK)';
  const late = isNonZeroAmount(preview.lateFees) ? ` It includes late fees of ${money(preview.lateFees)}.` : '';
  const held = toCents(preview.depositApplied ?? '0') + toCents(preview.depositRefund ?? '0');
  const deposit = held > 0 ? ` The deposit of ${money(centsToString(held))} pays ${money(preview.depositApplied)} of it; ${money(preview.depositRefund)} is refunded.` : '';
  return `The extra charge will be the damage or lost fees of every serial code not marked OK: ${money(preview.extraCharge)}${which}.${late}${deposit} ${due}`;
}
