import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrderStatus, OrderSummary, OrderType } from '@dme/contracts';
import { containsPattern, equalsFilters, qualified } from '@dme/platform';
import { summary, type OrderRow } from './rows';

/** A customer's own orders. */
export async function listMyOrders(
  em: EntityManager,
  customerId: string,
  f: { type?: OrderType; status?: OrderStatus; limit: number; offset: number },
): Promise<{ items: OrderSummary[]; total: number; counts: Partial<Record<OrderStatus, number>> }> {
  return listOrders(em, { ...f, customerId }, { counts: true });
}

/**
 * Orders newest first, by type and status, searched by order number or customer name (first,
 * last or "first last", from the customers read model), paged with the total; a customer's own
 * (customerId) or everyone's (staff).
 */
export async function listOrders(
  em: EntityManager,
  f: OrderFilter,
  opts: { counts: true },
): Promise<{ items: OrderSummary[]; total: number; counts: Partial<Record<OrderStatus, number>> }>;
export async function listOrders(em: EntityManager, f: OrderFilter, opts?: { counts?: false }): Promise<{ items: OrderSummary[]; total: number }>;
export async function listOrders(
  em: EntityManager,
  f: OrderFilter,
  opts: { counts?: boolean } = {},
): Promise<{ items: OrderSummary[]; total: number; counts?: Partial<Record<OrderStatus, number>> }> {
  const { conds: shared, params: sharedParams } = conditions(f);
  const conds = [...shared];
  const params = [...sharedParams];
  if (f.status) {
    conds.push('o.status = ?');
    params.push(f.status);
  }
  const where = conds.length ? `where ${conds.join(' and ')}` : '';
  const from = `${qualified(em, 'orders')} o left join ${qualified(em, 'customers')} c on c.id = o.customer_id`;
  const rows = await em.execute<Array<OrderRow & { total: number }>>(
    `select o.id, o.order_number, o.customer_id, o.type, o.type_of_order, o.status, o.total_amount, o.created_at,
            trim(c.first_name || ' ' || c.last_name) as customer_name, c.id_number as customer_number, count(*) over ()::int as total
       from ${from} ${where}
      order by o.created_at desc, o.id limit ? offset ?`,
    [...params, f.limit, f.offset],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && f.offset > 0) {
    const [c] = await em.execute<Array<{ n: number }>>(`select count(*)::int as n from ${from} ${where}`, params);
    total = c?.n ?? 0;
  }
  if (!opts.counts) return { items: rows.map(summary), total };
  // The tabs' counts: every status of the same type and search (issue 27).
  const grouped = await em.execute<Array<{ status: OrderStatus; n: number }>>(
    `select o.status, count(*)::int as n from ${from} ${shared.length ? `where ${shared.join(' and ')}` : ''} group by o.status`,
    sharedParams,
  );
  return { items: rows.map(summary), total, counts: Object.fromEntries(grouped.map((g) => [g.status, g.n])) };
}

type OrderFilter = { customerId?: string; driverId?: string; type?: OrderType; status?: OrderStatus; search?: string | undefined; limit: number; offset: number };

/** Who, what type and what search: the conditions a list and its tabs' counts share (the status is the tab's). */
function conditions(f: OrderFilter): { conds: string[]; params: unknown[] } {
  const { conds, params } = equalsFilters([
    ['o.customer_id', f.customerId],
    ['o.driver_id', f.driverId],
    ['o.type', f.type],
  ]);
  const search = f.search?.trim();
  if (search) {
    const like = containsPattern(search);
    conds.push(`(o.order_number ilike ? or (c.first_name || ' ' || c.last_name) ilike ? or (c.first_name || ' ' || c.middle_name || ' ' || c.last_name) ilike ?)`);
    params.push(like, like, like);
  }
  return { conds, params };
}
