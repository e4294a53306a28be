import { IsolationLevel, type EntityManager } from '@mikro-orm/postgresql';
import { cycleCounts, manilaDate, ONGOING_RENTAL_TABS, type Billing, rentalDisplayStatus, type OngoingRental, type OngoingRentalTab, type OrderStatus } from '@dme/contracts';
import { qualified, readKeptCounts } from '@dme/platform';
import { ORDER_PAYMENT_COUNTS, statusCounts } from '../orders/counts';
import { money } from '../orders/rows';
import { cyclesOfOrder } from '../orders/read';
import { cyclesPaidColumns } from '../orders/cycles-paid';
import { searchCondition } from '../orders/list';

/** A tab's condition (SPEC §2 ongoing rentals): which rentals it lists, and its parameters. */
function tabCondition(tab: OngoingRentalTab, today: string): { sql: string; params: unknown[] } {
  switch (tab) {
    case 'ONGOING':
      return { sql: `o.status = 'DELIVERED'`, params: [] };
    case 'DUE_DATE':
      return {
        sql: `o.status = 'DELIVERED' and o.due_on <= ?::date`,
        params: [today],
      };
    case 'FOR_RETURN':
      return { sql: `o.status = 'FOR_RETURN'`, params: [] };
    case 'PICKED_UP':
      return { sql: `p.status = 'PAID'`, params: [] };
  }
}

/**
 * The ongoing-rentals tabs (SPEC §2), computed here: Ongoing, DELIVERED rentals; Due Date,
 * DELIVERED rentals with a line due today or overdue (Manila); For Return; Picked up, rentals
 * whose payment is PAID. Searched by order number or customer name; the earliest due first, but
 * the Picked up tab (the rentals done with: a year's worth at a busy shop) the newest first — its
 * latest on its first page, read down the orders' index of their placing time instead of sorting
 * every paid rental by a due date computed for each (issue 30). Each tab's count for the same
 * search comes with the page (issue 27), in the page's snapshot.
 */
export async function listOngoingRentals(
  db: EntityManager,
  q: { tab: OngoingRentalTab; search?: string | undefined; limit: number; offset: number },
  now = new Date(),
): Promise<{ items: OngoingRental[]; total: number; counts: Record<OngoingRentalTab, number> }> {
  return db.transactional((em) => ongoingRentals(em, q, now), { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
}

/**
 * Every tab's count, unsearched (issue 30: counting every rental with its customer and payment on
 * each request took 0.5 s at 100,000 rentals): Ongoing and For Return are the rentals of their
 * status in the kept order counts, Picked up the rentals' payment mirrors PAID in theirs (their
 * tabs' conditions are a status alone: `tabCondition`), Due Date counted down the rentals' due
 * index (the DELIVERED rentals due today or before: their kept due date, migration 0024).
 */
async function keptTabCounts(em: EntityManager, today: string): Promise<Record<OngoingRentalTab, number>> {
  const byStatus = await statusCounts(em, 'RENT');
  const payments = await readKeptCounts(em, ORDER_PAYMENT_COUNTS, { order_type: 'RENT' });
  const due = tabCondition('DUE_DATE', today);
  const [d] = await em.execute<Array<{ n: number }>>(`select count(*)::int as n from ${qualified(em, 'orders')} o where o.type = 'RENT' and ${due.sql}`, due.params);
  return { ONGOING: byStatus.DELIVERED ?? 0, DUE_DATE: d?.n ?? 0, FOR_RETURN: byStatus.FOR_RETURN ?? 0, PICKED_UP: payments.PAID ?? 0 };
}

async function ongoingRentals(
  em: EntityManager,
  q: { tab: OngoingRentalTab; search?: string | undefined; limit: number; offset: number },
  now: Date,
): Promise<{ items: OngoingRental[]; total: number; counts: Record<OngoingRentalTab, number> }> {
  const t = (n: string) => qualified(em, n);
  const today = manilaDate(now);
  const shared = [`o.type = 'RENT'`];
  const sharedParams: unknown[] = [];
  const search = q.search?.trim();
  if (search) {
    // The staff's order search (part of an order number or of a customer's name: index lookups).
    const found = searchCondition(em, search);
    shared.push(found.sql);
    sharedParams.push(...found.params);
  }
  const withPayment = `${t('orders')} o left join ${t('order_payments')} p on p.order_id = o.id`;
  const tab = tabCondition(q.tab, today);
  const conds = [...shared, tab.sql];
  const params = [...sharedParams, ...tab.params];
  let counts: Record<OngoingRentalTab, number>;
  if (search) {
    // Every tab's count for the same search, in one pass (issue 27: the tabs show them).
    const each = ONGOING_RENTAL_TABS.map((k) => tabCondition(k, today));
    const [counted] = await em.execute<Array<Record<string, number>>>(
      `select ${each.map((c, i) => `count(*) filter (where ${c.sql})::int as c${i}`).join(', ')} from ${withPayment} where ${shared.join(' and ')}`,
      [...each.flatMap((c) => c.params), ...sharedParams],
    );
    counts = Object.fromEntries(ONGOING_RENTAL_TABS.map((k, i) => [k, counted?.[`c${i}`] ?? 0])) as Record<OngoingRentalTab, number>;
  } else {
    counts = await keptTabCounts(em, today);
  }
  const rows = await em.execute<
    Array<{
      id: string;
      order_number: string;
      customer_id: string;
      status: OrderStatus;
      type_of_order: 'BULK' | null;
      total_amount: string;
      partial_payment: string | null;
      created_at: string;
      customer_name: string | null;
      due_date: string | null;
      billing: Billing;
      delivered_at: string | null;
      cycle_rent_paid: string;
      last_cycle_paid: number;
      cycle_lines: Array<{ no_of_rental_days: number | null; unit_price: string; quantity: number }> | null;
    }>
  >(
    `select o.id, o.order_number, o.customer_id, o.status, o.type_of_order, o.total_amount::text, o.partial_payment::text, o.created_at,
            trim(c.first_name || ' ' || c.last_name) as customer_name, o.billing, o.delivered_at, ${cyclesPaidColumns(em)},
            -- Issue 29: a rental billed by cycles counts its cycles from its lines.
            case when o.billing = 'CYCLES' then (select json_agg(json_build_object('no_of_rental_days', l.no_of_rental_days, 'unit_price', l.unit_price::text, 'quantity', l.quantity))
                                                   from ${t('order_lines')} l where l.order_id = o.id) end as cycle_lines,
            o.due_on::text as due_date
       from ${withPayment} left join ${t('customers')} c on c.id = o.customer_id
      where ${conds.join(' and ')}
      -- the kept due date (migration 0024): the status tabs walk the rentals' due index in this order
      order by ${q.tab === 'PICKED_UP' ? 'o.created_at desc, o.id' : 'o.due_on asc nulls last, o.created_at desc, o.id'}
      limit ? offset ?`,
    [...params, q.limit, q.offset],
  );
  return {
    // The tab's count for the same search, in the page's snapshot.
    total: counts[q.tab],
    counts,
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
      cycles: r.billing === 'CYCLES' && r.delivered_at !== null ? cycleCounts(cyclesOfOrder({ ...r, lines: r.cycle_lines ?? [] })) : null,
    })),
  };
}
