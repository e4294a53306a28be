import type { KeptCounts } from '@dme/platform';

/** Accounting's payment tabs: payments per status, kept by the payments table's triggers (migration 0010, platform kept-counts). */
export const PAYMENT_COUNTS: KeptCounts = {
  table: 'payments',
  counts: 'payment_counts',
  changes: 'payment_count_changes',
  keys: ['status'],
  types: ['varchar(20)'],
  triggers: 'payments_counted',
};
