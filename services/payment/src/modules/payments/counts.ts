import { keptCounts, type KeptCounts } from '@dme/platform';

/** Accounting's payment tabs: payments per status, kept by the payments table's triggers (migration 0010, platform kept-counts). */
export const PAYMENT_COUNTS: KeptCounts = keptCounts({ table: 'payments', name: 'payment', keys: { status: 'varchar(20)' } });
