import type { UserType } from './enums';

/**
 * "Needs you now" (issue 27): the waiting work each staff role sees first, as counts that open the
 * list holding that work. Every count is read from a list the role already may read (its answer's
 * `total`, one of its tabs' `counts`, or the number of its `items`), so the server's one rule of
 * what is on that list is also what is counted, and no new permission is needed.
 */

/** The lists counted: one read each, however many counts come from it. */
export const WORK_SOURCES = {
  rentalOrders: '/api/orders?type=RENT&limit=1',
  purchaseOrders: '/api/orders?type=BUY&limit=1',
  ongoingRentals: '/api/ongoing-rentals?tab=DUE_DATE&limit=1',
  payments: '/api/payments?status=PENDING&limit=1',
  reconciliation: '/api/reconciliation/runs',
  units: '/api/units?column=TO_CLEAN&limit=1',
  atRisk: '/api/bookings/at-risk',
  deliveries: '/api/driver/orders?purpose=DELIVERY&limit=1',
  pickups: '/api/driver/orders?purpose=PICKUP&limit=1',
} as const;
export type WorkSource = keyof typeof WORK_SOURCES;

export interface WorkItem {
  key: string;
  /** What is waiting, after its number: `label` for many ("3 rental orders to confirm"), `one` for one. */
  label: string;
  one: string;
  source: WorkSource;
  /**
   * `items` (their number), `counts.<TAB>` (one tab's count), or a number the answer holds:
   * `total`, `refundsDue` (the payments list's refunds to pay back), `mismatches` (the newest
   * reconciliation's).
   */
  count: 'items' | 'total' | 'refundsDue' | 'mismatches' | `counts.${string}`;
  /** The list that holds it, filtered to it. */
  href: string;
  /** Late or owed: shown in red while above zero. */
  attention?: boolean;
}

const confirm = (type: 'rental' | 'purchase'): WorkItem => ({
  key: `${type}-confirm`,
  label: `${type} orders to confirm`,
  one: `${type} order to confirm`,
  source: type === 'rental' ? 'rentalOrders' : 'purchaseOrders',
  count: 'counts.PENDING',
  href: `/admin/orders/${type === 'rental' ? 'rentals' : 'purchased'}?status=PENDING`,
});
const pack = (type: 'rental' | 'purchase'): WorkItem => ({
  key: `${type}-pack`,
  label: `${type} orders to pack`,
  one: `${type} order to pack`,
  source: type === 'rental' ? 'rentalOrders' : 'purchaseOrders',
  count: 'counts.PREPARING',
  href: `/admin/orders/${type === 'rental' ? 'rentals' : 'purchased'}?status=PREPARING`,
});
const overdue: WorkItem = {
  key: 'rentals-due',
  label: 'rentals due or overdue',
  one: 'rental due or overdue',
  source: 'ongoingRentals',
  count: 'counts.DUE_DATE',
  href: '/admin/ongoing-rentals?tab=DUE_DATE',
  attention: true,
};
/**
 * Issue 29: every payment with a refund still to pay back (a deposit's rest at a return, a
 * cancelled order's payment), whatever its status, opening the payments list's "Refunds to Pay" tab.
 */
const refunds: WorkItem = {
  key: 'payments-refunds',
  label: 'refunds to pay back',
  one: 'refund to pay back',
  source: 'payments',
  count: 'refundsDue',
  href: '/admin/payments?status=REFUNDS',
  attention: true,
};
/** Issue 29: what the newest daily reconciliation found (a payment charged twice, not charged, or not as its terms say). */
const mismatches: WorkItem = {
  key: 'reconciliation',
  label: 'reconciliation mismatches',
  one: 'reconciliation mismatch',
  source: 'reconciliation',
  count: 'mismatches',
  href: '/admin/reconciliation',
  attention: true,
};
const payments = (status: 'PENDING' | 'INITIAL_PAYMENT' | 'FOR_FULL_PAYMENT', [one, label]: [string, string], attention = false): WorkItem => ({
  key: `payments-${status}`,
  label,
  one,
  source: 'payments',
  count: `counts.${status}`,
  href: `/admin/payments?status=${status}`,
  ...(attention ? { attention } : {}),
});

const WAREHOUSE: WorkItem[] = [
  confirm('rental'),
  confirm('purchase'),
  pack('rental'),
  pack('purchase'),
  { key: 'rentals-return', label: 'rentals to take back', one: 'rental to take back', source: 'ongoingRentals', count: 'counts.FOR_RETURN', href: '/admin/ongoing-rentals?tab=FOR_RETURN' },
  { key: 'units-clean', label: 'units to clean', one: 'unit to clean', source: 'units', count: 'counts.TO_CLEAN', href: '/admin/units?column=TO_CLEAN' },
  { key: 'units-inspect', label: 'units to inspect', one: 'unit to inspect', source: 'units', count: 'counts.TO_INSPECT', href: '/admin/units?column=TO_INSPECT' },
  { key: 'at-risk', label: 'bookings at risk', one: 'booking at risk', source: 'atRisk', count: 'items', href: '/admin/calendar', attention: true },
];

/** Each staff role's waiting work, in the order it is shown. */
export const ROLE_WORK: Partial<Record<UserType, readonly WorkItem[]>> = {
  SUPERADMIN: [
    confirm('rental'),
    confirm('purchase'),
    payments('PENDING', ['payment pending', 'payments pending']),
    payments('FOR_FULL_PAYMENT', ['full payment due', 'full payments due']),
    refunds,
    mismatches,
    overdue,
  ],
  WAREHOUSE_ADMIN: WAREHOUSE,
  WAREHOUSE_STAFF: WAREHOUSE,
  ACCOUNTING_ADMIN: [
    payments('PENDING', ['payment pending', 'payments pending']),
    payments('INITIAL_PAYMENT', ['partly paid rental', 'partly paid rentals']),
    payments('FOR_FULL_PAYMENT', ['full payment due', 'full payments due']),
    refunds,
    mismatches,
  ],
  DRIVER: [
    { key: 'deliveries', label: 'deliveries to make', one: 'delivery to make', source: 'deliveries', count: 'total', href: '/admin/for-delivery' },
    { key: 'pickups', label: 'pick-ups to make', one: 'pick-up to make', source: 'pickups', count: 'total', href: '/admin/for-pickup' },
  ],
};

export function workOf(userType: string | undefined): readonly WorkItem[] {
  return userType ? ((ROLE_WORK as Record<string, readonly WorkItem[] | undefined>)[userType] ?? []) : [];
}

/** The sources a role's counts read, each once. */
export function workSources(items: readonly WorkItem[]): WorkSource[] {
  return [...new Set(items.map((i) => i.source))];
}

/** One count from its list's answer; undefined when the answer does not hold it (not loaded, failed, another shape). */
export function workCount(item: WorkItem, answer: unknown): number | undefined {
  if (!answer || typeof answer !== 'object') return undefined;
  const body = answer as { items?: unknown; counts?: Record<string, unknown> } & Record<string, unknown>;
  const n =
    item.count === 'items'
      ? Array.isArray(body.items)
        ? body.items.length
        : undefined
      : item.count.startsWith('counts.')
        ? (body.counts?.[item.count.slice('counts.'.length)] ?? (body.counts ? 0 : undefined))
        : body[item.count];
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** What a count says after its number: one or many. */
export function workLabel(item: WorkItem, n: number | undefined): string {
  return n === 1 ? item.one : item.label;
}
