import type { EntityManager } from '@mikro-orm/postgresql';
import { dueNotice, lineDueDate, manilaDate, RENTAL_MESSAGES, type Notice, type OrderStatus } from '@dme/contracts';
import { qualified } from '@dme/platform';

/**
 * The customer's due notices (SPEC §8): one per rental out with them that has a line past due or
 * due today (Manila) — the terms module's `lineDueDate` and `dueNotice`, on the delivered time and
 * each rental line's days.
 */
export async function listNotices(em: EntityManager, customerId: string, now = new Date()): Promise<{ items: Notice[] }> {
  const t = (n: string) => qualified(em, n);
  const rows = await em.execute<Array<{ id: string; order_number: string; status: OrderStatus; delivered_at: string | Date; days: number[] }>>(
    `select o.id, o.order_number, o.status, o.delivered_at,
            coalesce((select json_agg(l.no_of_rental_days) from ${t('order_lines')} l where l.order_id = o.id and l.no_of_rental_days is not null), '[]'::json) as days
       from ${t('orders')} o
      where o.customer_id = ? and o.type = 'RENT' and o.status in ('DELIVERED', 'FOR_RETURN') and o.delivered_at is not null
      order by o.delivered_at, o.id`,
    [customerId],
  );
  const today = manilaDate(now);
  const items: Notice[] = [];
  for (const r of rows) {
    const deliveredAt = new Date(r.delivered_at);
    const kind = dueNotice(r.status, r.days.map((d) => lineDueDate(deliveredAt, d)), today);
    if (kind) items.push({ kind, message: kind === 'OVERDUE' ? RENTAL_MESSAGES.hasDueProducts : RENTAL_MESSAGES.dueToday, orderID: r.id, orderNumber: r.order_number });
  }
  return { items };
}
