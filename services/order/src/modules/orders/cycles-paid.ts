import type { EntityManager } from '@mikro-orm/postgresql';
import { qualified } from '@dme/platform';

/** The last billing cycle paid of order `o` (issue 29): the highest cycle of its CYCLE payment records, 0 before any. */
export function lastCyclePaidSql(em: EntityManager): string {
  return `coalesce((select max(r.cycle) from ${qualified(em, 'order_payment_records')} r where r.order_id = o.id and r.type = 'CYCLE'), 0)`;
}

/** The rent the cycle payments of order `o` took and the last cycle paid (issue 29), as `cycle_rent_paid` and `last_cycle_paid`. */
export function cyclesPaidColumns(em: EntityManager): string {
  const records = qualified(em, 'order_payment_records');
  return `coalesce((select sum(r.amount) from ${records} r where r.order_id = o.id and r.type = 'CYCLE'), 0)::text as cycle_rent_paid,
            ${lastCyclePaidSql(em)}::int as last_cycle_paid`;
}
