import {
  formatManilaDateTime,
  formatMoneyString,
  orderStatusColor,
  chargedAtReturn,
  RETURN_STATUSES,
  returnChargeCents,
  toCents,
} from '@dme/contracts/browser';
import type {
  Order,
  OrderLine,
  OrderStatus,
  OrderType,
  ReturnStatus,
  TagColor,
} from '@dme/contracts';

export const money = (v: string) => formatMoneyString(v);

export const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

/** "FOR_PAYMENT" → "For Payment" (tab labels). */
export const statusLabel = (s: string) =>
  s
    .split('_')
    .map((w) => w.charAt(0) + w.slice(1).toLowerCase())
    .join(' ');

/** Product name with its variant and sub-variant: "Wheelchair / Standard / Large". */
export const lineName = (l: Pick<OrderLine, 'productName' | 'variant' | 'subVariant'>) =>
  [l.productName, l.variant?.name, l.subVariant?.name].filter(Boolean).join(' / ');

/** A due date may come as a calendar day ("2026-11-24") or an instant. */
export const dateText = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? v : formatManilaDateTime(v));

/** Where the staff screens of an order type live. */
export const ordersBase = (type: OrderType) => (type === 'RENT' ? '/admin/orders/rentals' : '/admin/orders/purchased');

/** The order QR is shown once the order is past PENDING, FOR_PAYMENT and PREPARING (SPEC §2). */
export const showsQr = (status: OrderStatus) => !['PENDING', 'FOR_PAYMENT', 'PREPARING', 'CANCELLED'].includes(status);

/** "FOR_PICK_UP" → "FOR PICK UP" (tags). */
export const statusText = (s: string) => s.replace(/_/g, ' ');

/** Where the ongoing rental screens live (SPEC §2). */
export const ONGOING_BASE = '/admin/ongoing-rentals';

/** The status as the ongoing rentals show it: a DELIVERED rental is ON_GOING (SPEC §4). */
export const rentalDisplayStatus = (s: string) => (s === 'DELIVERED' ? 'ON_GOING' : s);

/** Tag colour of a displayed status: ON_GOING is green like delivered; the rest as orders (SPEC §4). */
export const displayStatusColor = (s: string): TagColor => orderStatusColor(s === 'ON_GOING' ? 'DELIVERED' : s);

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

/** Extra charge at full payment (SPEC §9, contracts `returnChargeCents`) and the serial codes it is for. */
export function extraCharge(order: Pick<Order, 'products'>): { cents: number; codes: string[] } {
  const units = order.products.flatMap((l) => l.serialCodes.map((s) => ({ line: l, serial: s, mark: returnMark(s) ?? null })));
  return {
    cents: returnChargeCents(units.map((u) => ({ mark: u.mark, feeCents: toCents(u.line.productDamageCharges) }))),
    codes: units.filter((u) => chargedAtReturn(u.mark)).map((u) => `${u.serial.serialCode} (${u.serial.status})`),
  };
}
