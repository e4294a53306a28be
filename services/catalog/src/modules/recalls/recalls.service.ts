import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import {
  EVENTS,
  RECALL_MESSAGES,
  recallUnitState,
  stockMoveSources,
  type RecallCreateRequest,
  type RecallListQuery,
  type RecallListResponse,
  type RecallResolution,
  type RecallResponse,
  type RecallSummary,
  type StockStatus,
} from '@dme/contracts';
import { badRequest, HttpProblem, notFound, qualified, recordEvent, sql, type Db, type Principal, newId } from '@dme/platform';
import { appendCustody, type Actor } from '../custody/custody';
import { moveStockItems } from '../stock/stock-moves';
import { SOURCE } from '../products/product.service';
import { levelItemsSql } from '../bookings/booking.service';

type CreateInput = z.output<typeof RecallCreateRequest>;
type ListInput = z.output<typeof RecallListQuery>;

/** The statuses a recall holds a unit from at once (in the warehouse, not held already): the `held` rows of the stock-item table. */
const HOLD_NOW: readonly StockStatus[] = stockMoveSources('held');
/** Units gone for good are not recalled. */
const GONE: readonly StockStatus[] = ['SCRAPPED', 'WRITTEN_OFF'];

interface RecallRow {
  id: string;
  number: string;
  title: string;
  reason: string;
  product_id: string;
  product_name: string;
  status: 'OPEN' | 'CLOSED';
  opened_at: string;
  opened_by: string | null;
  closed_at: string | null;
}

interface UnitRow {
  serial_code: string;
  status: StockStatus;
  resolution: RecallResolution | null;
  note: string;
  resolved_at: string | null;
  resolved_by: string | null;
  order_id: string | null;
  order_number: string | null;
  order_type: 'BUY' | 'RENT' | null;
  customer_name: string | null;
}

/** A recall's units as they stand (their status now; the order they are out on, and its customer). */
async function unitsOf(db: Db, recallId: string): Promise<UnitRow[]> {
  const t = (n: string) => qualified(db, n);
  return sql<UnitRow>(
    db,
    `select ru.serial_code, i.status, ru.resolution, ru.note, ru.resolved_at, ru.resolved_by,
            case when i.status in ('RENTED','SOLD') then i.order_id end as order_id,
            case when i.status in ('RENTED','SOLD') then co.order_number end as order_number,
            case when i.status in ('RENTED','SOLD') then co.order_type end as order_type,
            case when i.status in ('RENTED','SOLD') then co.customer_name end as customer_name
       from ${t('recall_units')} ru
       join ${t('stock_items')} i on i.id = ru.stock_item_id
       left join ${t('custody_orders')} co on co.order_id = i.order_id
      where ru.recall_id = $1 order by ru.serial_code`,
    [recallId],
  );
}

function countsOf(units: ReadonlyArray<Pick<UnitRow, 'resolution' | 'status'>>): RecallSummary['counts'] {
  const states = units.map((u) => recallUnitState(u.resolution, u.status));
  const n = (s: string) => states.filter((x) => x === s).length;
  return { total: units.length, onHold: n('ON_HOLD'), withCustomer: n('WITH_CUSTOMER'), resolved: n('RESOLVED'), other: n('LOST') + n('IN_WAREHOUSE') };
}

function summaryOf(r: RecallRow, units: ReadonlyArray<Pick<UnitRow, 'resolution' | 'status'>>): RecallSummary {
  return {
    id: r.id,
    number: r.number,
    title: r.title,
    reason: r.reason,
    productID: r.product_id,
    productName: r.product_name,
    status: r.status,
    openedAt: new Date(r.opened_at).toISOString(),
    openedBy: r.opened_by,
    closedAt: r.closed_at === null ? null : new Date(r.closed_at).toISOString(),
    counts: countsOf(units),
  };
}

const RECALL_COLUMNS = (t: (n: string) => string) =>
  `r.id, r.number, r.title, r.reason, r.product_id, p.name as product_name, r.status, r.opened_at, r.opened_by, r.closed_at from ${t('recalls')} r join ${t('products')} p on p.id = r.product_id`;

/** One recall with every unit of it. */
export async function getRecall(db: Db, id: string): Promise<RecallResponse> {
  const [row] = await sql<RecallRow>(db, `select ${RECALL_COLUMNS((n) => qualified(db, n))} where r.id = $1`, [id]);
  if (!row) throw notFound(RECALL_MESSAGES.notFound);
  const units = await unitsOf(db, id);
  return {
    recall: {
      ...summaryOf(row, units),
      units: units.map((u) => ({
        serialCode: u.serial_code,
        status: u.status,
        state: recallUnitState(u.resolution, u.status),
        resolution: u.resolution,
        note: u.note,
        resolvedAt: u.resolved_at === null ? null : new Date(u.resolved_at).toISOString(),
        resolvedBy: u.resolved_by,
        orderID: u.order_id,
        orderNumber: u.order_number,
        orderType: u.order_type,
        customerName: u.customer_name,
      })),
    },
  };
}

/** Recalls, newest first, with their counts. */
export async function listRecalls(db: Db, q: ListInput): Promise<RecallListResponse> {
  const t = (n: string) => qualified(db, n);
  const rows = await sql<RecallRow & { total: number; units: Array<{ resolution: RecallResolution | null; status: StockStatus }> }>(
    db,
    `select ${RECALL_COLUMNS(t).replace(' from ', `, count(*) over ()::int as total,
            coalesce((select json_agg(json_build_object('resolution', ru.resolution, 'status', i.status)) from ${t('recall_units')} ru
                        join ${t('stock_items')} i on i.id = ru.stock_item_id where ru.recall_id = r.id), '[]'::json) as units from `)}
      where ($1::text is null or r.status in ($1)) order by r.opened_at desc, r.number desc limit $2 offset $3`,
    [q.status ?? null, q.limit, q.offset],
  );
  return { items: rows.map((r) => summaryOf(r, r.units)), total: rows[0]?.total ?? 0 };
}

/**
 * Opens a recall (issue 26), in one transaction: the units of the product's level, narrowed to the
 * serial codes and/or the days they were received (stocked, Manila), gone ones left out. Units in
 * the warehouse go on hold at once (the stock-item table's `held`: not packable, not rentable), the
 * note naming the recall; units with customers (rented, sold) get a RECALLED entry in their history
 * and are listed with their order and customer; `dme.catalog.recall_opened` tells those customers.
 */
export async function openRecall(em: EntityManager, input: CreateInput, who: Principal): Promise<RecallResponse> {
  const by: Actor = { userId: who.userId, name: who.username };
  const id = newId();
  let message = '';
  await em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const [product] = await sql<{ id: string; name: string }>(tem, `select id, name from ${t('products')} where id = $1`, [input.productID]);
    if (!product) throw badRequest(RECALL_MESSAGES.noUnits, [{ field: 'productID', message: 'Product not found.' }]);
    const codes = input.serialCodes?.map((c) => c.trim().toUpperCase()) ?? null;
    const units = await sql<{ id: string; serial_code: string; status: StockStatus; order_id: string | null; leaf_id: string }>(
      tem,
      `select i.id, i.serial_code, i.status, i.order_id, coalesce(i.sub_variant_id, i.variant_id, i.product_id) as leaf_id from ${t('stock_items')} i
        where ${levelItemsSql('i', '$1', '$2', '$3')} and i.status <> all($4::text[])
          and ($5::text[] is null or i.serial_code = any($5::text[]))
          and ($6::date is null or (i.created_at at time zone 'Asia/Manila')::date >= $6::date)
          and ($7::date is null or (i.created_at at time zone 'Asia/Manila')::date <= $7::date)
        order by i.serial_code`,
      [input.productID, input.variantID ?? null, input.subVariantID ?? null, [...GONE], codes, input.receivedFrom ?? null, input.receivedTo ?? null],
    );
    if (units.length === 0) throw badRequest(RECALL_MESSAGES.noUnits, [{ field: 'productID', message: RECALL_MESSAGES.noUnits }]);
    // The leaves' ledger rows first, in order, as packing and returns lock them.
    await sql(tem, `select leaf_id from ${t('stock_levels')} where leaf_id = any($1::uuid[]) order by leaf_id for update`, [[...new Set(units.map((u) => u.leaf_id))].sort()]);
    const [seq] = await sql<{ n: string }>(tem, `select nextval('${t('recall_seq')}') as n`);
    const number = `RCL-${String(seq!.n).padStart(6, '0')}`;
    await sql(
      tem,
      `insert into ${t('recalls')} (id, number, title, reason, product_id, scope, opened_by) values ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
      [id, number, input.title, input.reason, input.productID, JSON.stringify({ variantID: input.variantID ?? null, subVariantID: input.subVariantID ?? null, serialCodes: codes, receivedFrom: input.receivedFrom ?? null, receivedTo: input.receivedTo ?? null }), by.name],
    );
    await sql(
      tem,
      `insert into ${t('recall_units')} (recall_id, stock_item_id, serial_code, order_id)
       select $1, u.id, u.serial_code, u.order_id from jsonb_to_recordset($2::jsonb) as u(id uuid, serial_code text, order_id uuid)`,
      [id, JSON.stringify(units.map((u) => ({ id: u.id, serial_code: u.serial_code, order_id: u.order_id })))],
    );
    const note = RECALL_MESSAGES.holdNote(number, input.title);
    const toHold = units.filter((u) => HOLD_NOW.includes(u.status)).map((u) => u.id);
    if (toHold.length) await moveStockItems(tem, 'held', toHold, { custody: { by, note } });
    const out = units.filter((u) => recallUnitState(null, u.status) === 'WITH_CUSTOMER');
    for (const u of out) await appendCustody(tem, [u.id], { kind: 'RECALLED', by, note, orderId: u.order_id, party: { customerOf: 'order' } });
    const holders = await sql<{ order_id: string; order_number: string; order_type: 'BUY' | 'RENT'; customer_id: string; serial_codes: string[] }>(
      tem,
      `select co.order_id, co.order_number, co.order_type, co.customer_id, array_agg(u.serial_code order by u.serial_code) as serial_codes
         from jsonb_to_recordset($1::jsonb) as u(serial_code text, order_id uuid) join ${t('custody_orders')} co on co.order_id = u.order_id
        where co.customer_id is not null group by 1, 2, 3, 4 order by co.order_number`,
      [JSON.stringify(out.map((u) => ({ serial_code: u.serial_code, order_id: u.order_id })))],
    );
    recordEvent(tem, SOURCE, {
      type: EVENTS.catalog.recallOpened,
      aggregateId: id,
      data: {
        recallId: id,
        number,
        title: input.title,
        productName: product.name,
        holders: holders.map((h) => ({ orderId: h.order_id, orderNumber: h.order_number, orderType: h.order_type, customerId: h.customer_id, serialCodes: h.serial_codes })),
      },
    });
    await tem.flush();
    message = RECALL_MESSAGES.opened(number, toHold.length + units.filter((u) => u.status === 'ON_HOLD').length, out.length);
  });
  return { ...(await getRecall(em, id)), message };
}

/** A recall that is still open, locked for a change. */
async function openOne(db: Db, id: string): Promise<void> {
  const [row] = await sql<{ status: string }>(db, `select status from ${qualified(db, 'recalls')} where id = $1 for update`, [id]);
  if (!row) throw notFound(RECALL_MESSAGES.notFound);
  if (row.status !== 'OPEN') throw new HttpProblem(409, RECALL_MESSAGES.closed);
}

/**
 * Settles a unit of an open recall that staff cannot release or scrap themselves: with a customer
 * (replaced or collected by a request or a pick-up, or the customer told), or lost; the note says how.
 */
export async function settleRecallUnit(em: EntityManager, id: string, code: string, note: string, who: Principal): Promise<RecallResponse> {
  await em.transactional(async (tem) => {
    await openOne(tem, id);
    const t = (n: string) => qualified(tem, n);
    const [unit] = await sql<{ resolution: string | null }>(tem, `select resolution from ${t('recall_units')} where recall_id = $1 and serial_code = $2 for update`, [id, code.trim().toUpperCase()]);
    if (!unit) throw notFound(RECALL_MESSAGES.unitNotInRecall);
    if (unit.resolution) throw new HttpProblem(409, RECALL_MESSAGES.alreadyResolved);
    await sql(tem, `update ${t('recall_units')} set resolution = 'SETTLED', note = $3, resolved_at = now(), resolved_by = $4 where recall_id = $1 and serial_code = $2`, [
      id,
      code.trim().toUpperCase(),
      note,
      who.username,
    ]);
  });
  return getRecall(em, id);
}

/** Closes a recall once every unit of it is resolved (else 409 saying how many are not). */
export async function closeRecall(em: EntityManager, id: string, who: Principal): Promise<RecallResponse> {
  await em.transactional(async (tem) => {
    await openOne(tem, id);
    const t = (n: string) => qualified(tem, n);
    const [open] = await sql<{ n: number }>(tem, `select count(*)::int as n from ${t('recall_units')} where recall_id = $1 and resolution is null`, [id]);
    if ((open?.n ?? 0) > 0) throw new HttpProblem(409, RECALL_MESSAGES.notAllResolved(open!.n));
    await sql(tem, `update ${t('recalls')} set status = 'CLOSED', closed_at = now(), closed_by = $2 where id = $1`, [id, who.username]);
  });
  return getRecall(em, id);
}

/** A customer's notices of recalls concerning a unit they have (rented or bought), one per order. */
export async function myRecallNotices(db: Db, customerId: string): Promise<Array<{ kind: 'RECALL'; message: string; orderID: string; orderNumber: string; orderType: 'BUY' | 'RENT' }>> {
  const rows = await sql<{ order_id: string; order_number: string; order_type: 'BUY' | 'RENT'; product_name: string }>(
    db,
    `select distinct co.order_id, co.order_number, co.order_type, p.name as product_name
       from ${qualified(db, 'recall_units')} ru
       join ${qualified(db, 'recalls')} r on r.id = ru.recall_id and r.status in ('OPEN')
       join ${qualified(db, 'stock_items')} i on i.id = ru.stock_item_id and i.status in ('RENTED','SOLD')
       join ${qualified(db, 'custody_orders')} co on co.order_id = i.order_id and co.customer_id = $1
       join ${qualified(db, 'products')} p on p.id = i.product_id
      where ru.resolution is null
      order by co.order_number`,
    [customerId],
  );
  return rows.map((r) => ({ kind: 'RECALL', message: RECALL_MESSAGES.customerNotice(r.product_name, r.order_number), orderID: r.order_id, orderNumber: r.order_number, orderType: r.order_type }));
}
