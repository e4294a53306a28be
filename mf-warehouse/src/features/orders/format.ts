import {
  chargedAtReturn,
  RETURN_STATUSES,
  returnChargeCents,
  toCents,
} from '@dme/contracts/browser';
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

/** Extra charge at full payment (SPEC §9, contracts `returnChargeCents`) and the serial codes it is for. */
export function extraCharge(order: Pick<Order, 'products'>): { cents: number; codes: string[] } {
  const units = order.products.flatMap((l) => l.serialCodes.map((s) => ({ line: l, serial: s, mark: returnMark(s) ?? null })));
  return {
    cents: returnChargeCents(units.map((u) => ({ mark: u.mark, feeCents: toCents(u.line.productDamageCharges) }))),
    codes: units.filter((u) => chargedAtReturn(u.mark)).map((u) => `${u.serial.serialCode} (${u.serial.status})`),
  };
}
