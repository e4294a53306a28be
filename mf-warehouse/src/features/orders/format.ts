import { formatManilaDateTime, formatMoneyString, type OrderLine, type OrderStatus, type OrderType } from '@dme/contracts';

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
