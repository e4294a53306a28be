import type { EntityManager } from '@mikro-orm/postgresql';
import { manilaDate, rentalDisplayStatus, type OngoingRental, type OngoingRentalTab, type OrderStatus } from '@dme/contracts';
import { containsPattern, qualified } from '@dme/platform';
import { money } from '../orders/rows';

/**
 * A rental line's due date in SQL, for the one place that filters and sorts many orders by it in
 * the database (the Due Date tab, earliest due first). It is the terms rule `lineDueDate` (the
 * delivered date on the Manila calendar plus the rental days); rentals.test.ts checks the two
 * agree at the Manila-midnight edges. Everywhere else calls `lineDueDate`.
 */
export const LINE_DUE = `((o.delivered_at at time zone 'Asia/Manila')::date + l.no_of_rental_days)`;

/**
 * The ongoing-rentals tabs (SPEC §2), computed here: Ongoing, DELIVERED rentals; Due Date,
 * DELIVERED rentals with a line due today or overdue (Manila); For Return; Picked up, rentals
 * whose payment is PAID. Searched by order number or customer name; the earliest due first.
 */
export async function listOngoingRentals(
  em: EntityManager,
  q: { tab: OngoingRentalTab; search?: string | undefined; limit: number; offset: number },
  now = new Date(),
): Promise<{ items: OngoingRental[]; total: number }> {
  const t = (n: string) => qualified(em, n);
  const today = manilaDate(now);
  const conds = [`o.type = 'RENT'`];
  const params: unknown[] = [];
  if (q.tab === 'ONGOING') conds.push(`o.status = 'DELIVERED'`);
  if (q.tab === 'DUE_DATE') {
    conds.push(`o.status = 'DELIVERED' and exists (select 1 from ${t('order_lines')} l where l.order_id = o.id and l.no_of_rental_days is not null and ${LINE_DUE} <= ?::date)`);
    params.push(today);
  }
  if (q.tab === 'FOR_RETURN') conds.push(`o.status = 'FOR_RETURN'`);
  if (q.tab === 'PICKED_UP') conds.push(`p.status = 'PAID'`);
  const search = q.search?.trim();
  if (search) {
    const like = containsPattern(search);
    conds.push(`(o.order_number ilike ? or (c.first_name || ' ' || c.last_name) ilike ?)`);
    params.push(like, like);
  }
  const rows = await em.execute<
    Array<{ id: string; order_number: string; customer_id: string; status: OrderStatus; type_of_order: 'BULK' | null; total_amount: string; partial_payment: string | null; created_at: string; customer_name: string | null; due_date: string | null; total: number }>
  >(
    `select o.id, o.order_number, o.customer_id, o.status, o.type_of_order, o.total_amount::text, o.partial_payment::text, o.created_at,
            trim(c.first_name || ' ' || c.last_name) as customer_name,
            (select min(${LINE_DUE}) from ${t('order_lines')} l where l.order_id = o.id and l.no_of_rental_days is not null)::text as due_date,
            count(*) over ()::int as total
       from ${t('orders')} o
       left join ${t('customers')} c on c.id = o.customer_id
       left join ${t('order_payments')} p on p.order_id = o.id
      where ${conds.join(' and ')}
      order by due_date asc nulls last, o.created_at desc, o.id
      limit ? offset ?`,
    [...params, q.limit, q.offset],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && q.offset > 0) total = 0;
  return {
    total,
    items: rows.map((r) => ({
      id: r.id,
      orderNumber: r.order_number,
      createdAt: new Date(r.created_at).toISOString(),
      status: r.status,
      type: 'RENT',
      typeOfOrder: r.type_of_order,
      totalAmount: money(r.total_amount),
      customerID: r.customer_id,
      customerName: r.customer_name ?? '',
      displayStatus: rentalDisplayStatus(r.status),
      initialPayment: r.partial_payment === null ? null : money(r.partial_payment),
      dueDate: r.due_date,
    })),
  };
}
