import { IsolationLevel, type EntityManager } from '@mikro-orm/postgresql';
import type { OrderStatus, OrderSummary, OrderType } from '@dme/contracts';
import { containsPattern, equalsFilters, qualified } from '@dme/platform';
import { statusCounts } from './counts';
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
  const { conds: shared, params: sharedParams } = conditions(em, f);
  const conds = [...shared];
  const params = [...sharedParams];
  if (f.status) {
    conds.push('o.status = ?');
    params.push(f.status);
  }
  const where = conds.length ? `where ${conds.join(' and ')}` : '';
  const from = `${qualified(em, 'orders')} o left join ${qualified(em, 'customers')} c on c.id = o.customer_id`;
  // The page alone (an index walk of limit + offset rows); its total comes from the counts below.
  const page = (db: EntityManager) =>
    db.execute<OrderRow[]>(
      `select o.id, o.order_number, o.customer_id, o.type, o.type_of_order, o.status, o.total_amount, o.created_at,
              trim(c.first_name || ' ' || c.last_name) as customer_name, c.id_number as customer_number
         from ${from} ${where}
        order by o.created_at desc, o.id limit ? offset ?`,
      [...params, f.limit, f.offset],
    );
  // Everyone's orders, unsearched (the staff's tabs): the kept counts (counts.ts), whatever the size,
  // read in the page's snapshot (one repeatable-read transaction), so the total is the page's.
  if (!f.customerId && !f.driverId && !f.search?.trim()) {
    return em.transactional(
      async (tem) => {
        const items = (await page(tem)).map(summary);
        const counts = await statusCounts(tem, f.type);
        const total = f.status ? (counts[f.status] ?? 0) : Object.values(counts).reduce((a, b) => a + b, 0);
        return opts.counts ? { items, total, counts } : { items, total };
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
    );
  }
  const rows = await page(em);
  const items = rows.map(summary);
  // One customer's or driver's orders, or a search: counted here (a customer's index, or the search's matches).
  const total = f.offset === 0 && rows.length < f.limit ? rows.length : (await em.execute<Array<{ n: number }>>(`select count(*)::int as n from ${from} ${where}`, params))[0]!.n;
  if (!opts.counts) return { items, total };
  // The tabs' counts: every status of the same type and search (issue 27).
  const grouped = await em.execute<Array<{ status: OrderStatus; n: number }>>(
    `select o.status, count(*)::int as n from ${from} ${shared.length ? `where ${shared.join(' and ')}` : ''} group by o.status`,
    sharedParams,
  );
  return { items, total, counts: Object.fromEntries(grouped.map((g) => [g.status, g.n])) };
}

/** A search that is an order number or its start, down to a digit of its running part (ORD-<day>-<n>). */
const ORDER_NUMBER_START = /^ORD-\d{8}-\d+$/i;

type OrderFilter = { customerId?: string; driverId?: string; type?: OrderType; status?: OrderStatus; search?: string | undefined; limit: number; offset: number };

/** Who, what type and what search: the conditions a list and its tabs' counts share (the status is the tab's). */
function conditions(em: EntityManager, f: OrderFilter): { conds: string[]; params: unknown[] } {
  const { conds, params } = equalsFilters([
    ['o.customer_id', f.customerId],
    ['o.driver_id', f.driverId],
    ['o.type', f.type],
  ]);
  const search = f.search?.trim();
  if (search) {
    const found = searchCondition(em, search);
    conds.push(found.sql);
    params.push(...found.params);
  }
  return { conds, params };
}

/**
 * The orders a staff search finds (`o` the orders): part of an order number, or of a customer's
 * name. The staff's order list and the ongoing rentals (rentals/ongoing.ts) both search by it.
 */
export function searchCondition(em: EntityManager, search: string): { sql: string; params: unknown[] } {
  const t = (table: string) => qualified(em, table);
  const like = containsPattern(search);
  // The orders of customers whose name contains it (trigram indexes on the names, migration 0021).
  const byName = `select m.id from ${t('orders')} m where m.customer_id in (
      select n.id from ${t('customers')} n where (n.first_name || ' ' || n.last_name) ilike ? or (n.first_name || ' ' || n.middle_name || ' ' || n.last_name) ilike ?)`;
  if (ORDER_NUMBER_START.test(search)) {
    // An order number, whole or its start: "ORD-" begins every number, so the numbers that contain
    // it are those that begin with it, a range of the bytewise index (migration 0022). The few
    // matches are found first (an array, computed once) and the page read by their ids: as an
    // `in (...)` the planner could not tell they are few and walked every order newest first
    // looking for them (p99 227-587 ms at 0.3-1 million orders, docs/benchmarks.md).
    const start = search.toUpperCase();
    return { sql: `o.id = any(array(select m.id from ${t('orders')} m where m.order_number collate "C" >= ? and m.order_number collate "C" < ? union ${byName}))`, params: [start, `${start}~`, like, like] };
  }
  // Two index lookups (trigram indexes on the order number and on the names, migration 0021)
  // whose matches are joined, rather than one condition that reads every order.
  return { sql: `o.id in (select m.id from ${t('orders')} m where m.order_number ilike ? union ${byName})`, params: [like, like, like] };
}
