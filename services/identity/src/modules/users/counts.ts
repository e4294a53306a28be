import { keptCounts, type KeptCounts } from '@dme/platform';

/** The users screen's totals: open accounts per user type, kept by the users table's triggers (migration 0007, platform kept-counts); a closed account is not counted. */
export const USER_COUNTS: KeptCounts = keptCounts({ table: 'users', name: 'user', keys: { user_type: 'varchar(30)' }, whileNull: 'deleted_at' });
