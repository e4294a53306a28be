import type { EntityManager } from '@mikro-orm/postgresql';
import { BOOKING_MESSAGES, manilaDate, type AtRiskResponse, type NoticeListResponse, type StockStatus } from '@dme/contracts';
import { qualified, sql } from '@dme/platform';
import { LEAF_SQL, outRangeSql, RENTABLE_SQL, unitFreeSql } from './busy';
import { myRecallNotices } from '../recalls/recalls.service';

type AtRiskRow = {
  id: string; order_id: string; order_number: string | null; customer_name: string | null; product_id: string; product_name: string; serial_code: string;
  start: string; end: string; overdue_order: string | null; overdue_since: string; suggestion: { stockItemID: string; serialCode: string } | null;
  reason: 'OVERDUE' | 'OUT_OF_SERVICE'; unit_status: StockStatus | null;
};

/**
 * Bookings at risk: their unit is out with a customer past its due date (issue 25: its days out,
 * busy.ts, run into the booking), or can no longer serve it (issue 26: damaged, in repair, on hold,
 * lost or gone — not one on its way back to the shelf), soonest start first, each with another unit
 * of the same level free for the booking's days, to pack instead.
 */
export async function atRiskBookings(em: EntityManager, customerId: string | null = null): Promise<AtRiskResponse> {
  const t = (n: string) => qualified(em, n);
  const today = manilaDate();
  const suggestion = `(select json_build_object('stockItemID', c.id, 'serialCode', c.serial_code) from ${t('stock_items')} c
              where ${LEAF_SQL('c')} = b2.leaf_id and c.id <> i.id and ${unitFreeSql(t, 'c', 'b2.period', '$1::date')}
              order by (c.status in ('AVAILABLE')) desc, c.serial_code limit 1) as suggestion`;
  const booking = `b2.id, b2.order_id, b2.order_number, b2.customer_name, b2.product_id, pr.name as product_name, i.serial_code,
            to_char(lower(b2.period), 'YYYY-MM-DD') as start, to_char(upper(b2.period), 'YYYY-MM-DD') as end`;
  const rows = await sql<AtRiskRow>(
    em,
    `select ${booking}, b1.order_number as overdue_order, to_char(b1.due_date, 'YYYY-MM-DD') as overdue_since, ${suggestion},
            'OVERDUE' as reason, null as unit_status
       from ${t('stock_items')} i
       join ${t('products')} pr on pr.id = i.product_id
       join ${t('bookings')} b1 on b1.stock_item_id = i.id and b1.order_id = i.order_id and b1.status in ('ACTIVE') and b1.kind in ('RENTAL')
       join ${t('bookings')} b2 on b2.stock_item_id = i.id and b2.status in ('ACTIVE') and b2.kind in ('RENTAL') and b2.id <> b1.id
      where i.status in ('RENTED') and b1.due_date < $1::date and ${outRangeSql(t, 'i', '$1::date')} && b2.period
        and ($2::uuid is null or b2.customer_id = $2::uuid)
     union all
     select ${booking}, null as overdue_order, to_char(i.status_since at time zone 'Asia/Manila', 'YYYY-MM-DD') as overdue_since, ${suggestion},
            'OUT_OF_SERVICE' as reason, i.status as unit_status
       from ${t('stock_items')} i
       join ${t('products')} pr on pr.id = i.product_id
       join ${t('bookings')} b2 on b2.stock_item_id = i.id and b2.status in ('ACTIVE') and b2.kind in ('RENTAL') and b2.order_id is distinct from i.order_id
      where not ${RENTABLE_SQL('i')} and upper(b2.period) > $1::date
        and ($2::uuid is null or b2.customer_id = $2::uuid)
      order by start, serial_code`,
    [today, customerId],
  );
  return {
    items: rows.map((r) => ({
      bookingID: r.id,
      orderID: r.order_id,
      orderNumber: r.order_number,
      customerName: r.customer_name,
      productID: r.product_id,
      productName: r.product_name,
      serialCode: r.serial_code,
      start: r.start,
      end: r.end,
      overdueOrderNumber: r.overdue_order,
      overdueSince: r.overdue_since,
      suggestion: r.suggestion,
      reason: r.reason,
      unitStatus: r.unit_status,
    })),
  };
}

/**
 * A customer's notices of their bookings at risk (issue 25): one per order whose unit is still out
 * with someone else past its due date into the booking's days. What the staff list shows, told
 * to the customer it concerns, without naming the other order or the unit to pack.
 */
export async function myAtRiskNotices(em: EntityManager, customerId: string): Promise<NoticeListResponse> {
  const seen = new Set<string>();
  const items: NoticeListResponse['items'] = [];
  for (const b of (await atRiskBookings(em, customerId)).items) {
    // A unit out of service is the warehouse's to replace (another unit packed); the customer hears of an overdue one.
    if (b.reason !== 'OVERDUE' || seen.has(b.orderID) || b.orderNumber === null) continue;
    seen.add(b.orderID);
    items.push({ kind: 'AT_RISK', message: BOOKING_MESSAGES.atRiskNotice(b.productName, b.start), orderID: b.orderID, orderNumber: b.orderNumber, orderType: 'RENT' });
  }
  // A recall concerning a unit the customer has (issue 26).
  items.push(...(await myRecallNotices(em, customerId)));
  return { items };
}
