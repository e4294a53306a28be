import { describe, expect, it } from 'vitest';
import { keptCounts, keptCountsSql } from './kept-counts';

// The names are those of tables and triggers migrations already created (ordering 0020 and 0023,
// payment 0010): a declaration must keep finding them.
describe('keptCounts: a declaration named after its table and name', () => {
  it('names its counts, changes and triggers by the convention, its keys in order with their types', () => {
    expect(keptCounts({ table: 'orders', name: 'order', keys: { type: 'varchar(4)', status: 'varchar(20)' } })).toEqual({
      table: 'orders',
      counts: 'order_counts',
      changes: 'order_count_changes',
      keys: ['type', 'status'],
      types: ['varchar(4)', 'varchar(20)'],
      triggers: 'orders_counted',
    });
  });
  it("keeps a table's own key when it is not id", () => {
    expect(keptCounts({ table: 'order_payments', name: 'order_payment', keys: { order_type: 'varchar(4)', status: 'varchar(20)' }, id: 'order_id' })).toMatchObject({
      counts: 'order_payment_counts',
      changes: 'order_payment_count_changes',
      triggers: 'order_payments_counted',
      id: 'order_id',
    });
  });
  it('keeps the column whose rows count only while it is null, and writes no condition without one', () => {
    const users = keptCounts({ table: 'users', name: 'user', keys: { user_type: 'varchar(30)' }, whileNull: 'deleted_at' });
    expect(users).toMatchObject({ counts: 'user_counts', whileNull: 'deleted_at' });
    expect(keptCountsSql('identity', users).at(-1)).toBe('insert into "identity"."user_counts" ("user_type", "n") select "user_type", count(*) from "identity"."users" where "deleted_at" is null group by 1');
    const orders = keptCounts({ table: 'orders', name: 'order', keys: { type: 'varchar(4)', status: 'varchar(20)' } });
    expect(keptCountsSql('ordering', orders).join('\n')).not.toMatch(/is null/);
  });
});

