import type { CustodyKind, StockStatus } from '@dme/contracts';
import { NEW_ID_SQL, qualified, sql, type Db } from '@dme/platform';

/** Who did a step: their user id and username (null: an event of another service that did not say). */
export interface Actor {
  userId: string | null;
  name: string | null;
}

/** One entry of the chain of custody, for every unit it is written for. */
export interface CustodyWrite {
  kind: CustodyKind;
  by?: Actor | null;
  /** The units' status after it (null where the status did not change). */
  status?: StockStatus | null;
  orderId?: string | null;
  /** Whose hands: a name, or `customer` for the order's customer (custody_orders). */
  party?: string | { customerOf: 'order' } | null;
  condition?: string | null;
  note?: string;
  checklist?: ReadonlyArray<{ point: string; ok: boolean }> | null;
  /** When it happened (an event's time); now by default. */
  at?: string | null;
  /** The event it was written from: the same event and unit write it once, whatever the redeliveries. */
  sourceEventId?: string | null;
}

/**
 * Appends an entry to the chain of custody of each unit `ids` (issue 26), in the caller's
 * transaction: the ONE writer of `custody_events`, which the database keeps append-only. The
 * entry names the unit's bin as it is now and the order's number (custody_orders, from
 * `dme.order.placed`); an entry from an event is written once per unit and kind.
 */
export async function appendCustody(db: Db, ids: readonly string[], w: CustodyWrite): Promise<number> {
  if (ids.length === 0) return 0;
  const t = (n: string) => qualified(db, n);
  const party = typeof w.party === 'string' ? w.party : null;
  const customer = typeof w.party === 'object' && w.party !== null;
  const rows = await sql<{ id: string }>(
    db,
    `insert into ${t('custody_events')} (id, stock_item_id, serial_code, kind, at, by_user_id, by_name, status, bin_id, bin_name, order_id, order_number, party, condition, note, checklist, source_event_id)
     select ${NEW_ID_SQL}, i.id, i.serial_code, $2, coalesce($3::timestamptz, now()), $4::uuid, $5, $6, i.warehouse_bin_id, b.name, $7::uuid, co.order_number,
            coalesce($8, case when $9::boolean then co.customer_name end), $10, $11, $12::jsonb, $13::uuid
       from ${t('stock_items')} i
       left join ${t('warehouse_bins')} b on b.id = i.warehouse_bin_id
       left join ${t('custody_orders')} co on co.order_id = $7::uuid
      where i.id = any($1::uuid[])
      order by i.serial_code
     on conflict (source_event_id, stock_item_id, kind) where source_event_id is not null do nothing
     returning id`,
    [
      [...new Set(ids)],
      w.kind,
      w.at ?? null,
      w.by?.userId ?? null,
      w.by?.name ?? null,
      w.status ?? null,
      w.orderId ?? null,
      party,
      customer,
      w.condition ?? null,
      (w.note ?? '').slice(0, 500),
      w.checklist ? JSON.stringify(w.checklist) : null,
      w.sourceEventId ?? null,
    ],
  );
  return rows.length;
}

/** The order number, type and customer of placed orders (from `dme.order.placed`), for the units' histories and recalls. */
export async function rememberOrders(
  db: Db,
  orders: ReadonlyArray<{ orderId: string; orderNumber: string; type: string; customerId: string; customerName: string | null }>,
): Promise<void> {
  if (orders.length === 0) return;
  await sql(
    db,
    `insert into ${qualified(db, 'custody_orders')} (order_id, order_number, order_type, customer_id, customer_name)
     select x.order_id, x.order_number, x.order_type, x.customer_id, x.customer_name
       from jsonb_to_recordset($1::jsonb) as x(order_id uuid, order_number text, order_type text, customer_id uuid, customer_name text)
     on conflict (order_id) do nothing`,
    [JSON.stringify(orders.map((o) => ({ order_id: o.orderId, order_number: o.orderNumber, order_type: o.type, customer_id: o.customerId, customer_name: o.customerName })))],
  );
}
