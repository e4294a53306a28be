import { handoverOf, handoversJson, type HandoverRow } from '../handovers/handovers';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterWaiverCents, centsToString, chargedAtReturn, toCents, dueNotice, earlyEndWindow, endableEarly, paidCycleDays, rentalCycles, lineRentToOwn, type Billing, extendable, permissionsOf, type Extender, lineDueDate, type RentalTermsWire, manilaDate, serialInventoryType, type Order, type OrderLine, type OrderStatus, type ReturnStatus } from '@dme/contracts';
import { notFound, qualified, type Principal } from '@dme/platform';
import { allowedTransitions } from '../../process/can-perform';
import { fullPaymentTermsOf, lateFeesOf, type OrderFacts } from '../../process/facts';
import { requestOf, requestsJson, type RequestRow } from '../rentals/request-rows';
import { paymentOf, type OrderPaymentRow } from './payment';
import { customerOf, money, moneyOrNull, summary, type OrderRow } from './rows';
import { cyclesPaidColumns } from './cycles-paid';

/**
 * The one reader of an order and its facts (the process's view: the order, its lines and their
 * serial codes): every place that needs an order reads it here, with its detail (what the API
 * shows) or without (the process's guards and effects, on a locked row).
 */

/** A row of ordering.order_lines (numeric columns arrive as strings). */
interface OrderLineRow {
  id: string;
  product_id: string;
  product_name: string;
  product_image: string;
  variant_id: string | null;
  variant_name: string | null;
  variant_price: string | null;
  sub_variant_id: string | null;
  sub_variant_name: string | null;
  sub_variant_price: string;
  quantity: number;
  no_of_rental_days: number | null;
  start_date: string | null;
  unit_price: string;
  damage_charges: string;
  line_total: string;
  rental_terms: RentalTermsWire | null;
  deposit: string;
}

interface SerialRow {
  id: string;
  line_id: string;
  serial_code: string;
  return_status: ReturnStatus | null;
  returned_at: string | null;
  /** The Manila day it came back (pick-up hand-over, else return mark), YYYY-MM-DD; null while out. */
  back_on: string | null;
  warehouse_bin: string | null;
  created_at: string;
}

/** An order as the process reads it: the row with its lines and their serial codes, as JSON built by the same statement. */
interface OrderFactsRow extends OrderRow {
  driver_id: string | null;
  delivered_at: string | Date | null;
  extra_charge: string | null;
  deposit: string;
  late_fees: string | null;
  deposit_applied: string | null;
  deposit_refund: string | null;
  /** The late fees waived so far (sum), numeric as text. */
  late_fees_waived: string;
  cycle_rent_paid: string;
  billing?: Billing;
  last_cycle_paid: number;
  lines: OrderLineRow[];
  serials: SerialRow[];
}

/** An order as its detail reads it: its facts, and the rest of its parts. */
interface OrderDetailRow extends OrderFactsRow, OrderPaymentRow {
  tracker: Array<{ title: string; status: OrderStatus; created_at: string }>;
  requests: RequestRow[];
  customer: Record<string, string> | null;
  extensions: Array<{ kind: 'EXTEND' | 'END_EARLY'; days: number; amount: string; return_on: string | null; by: 'CUSTOMER' | 'STAFF'; created_at: string }>;
  handovers: HandoverRow[];
  waivers: Array<{ amount: string; reason: string; by_name: string; created_at: string }>;
  assignment: { driverId: string; driverName: string; day: string | null } | null;
}

/** An order as the API shows it, before the caller's allowed steps are decided. */
export type OrderDetail = Omit<Order, 'allowedTransitions' | 'extendable' | 'earlyEnd'>;

/** The statement that reads one order (`o`, matched by `where`): its facts, and with `detail` everything its detail shows. */
function orderStatement(em: EntityManager, where: string, detail: boolean): string {
  const t = (name: string) => qualified(em, name);
  const facts = `coalesce((select json_agg(json_build_object('id', l.id, 'product_id', l.product_id, 'product_name', l.product_name,
                       'product_image', l.product_image, 'variant_id', l.variant_id, 'variant_name', l.variant_name,
                       'variant_price', l.variant_price::text, 'sub_variant_id', l.sub_variant_id, 'sub_variant_name', l.sub_variant_name,
                       'sub_variant_price', l.sub_variant_price::text, 'quantity', l.quantity, 'no_of_rental_days', l.no_of_rental_days,
                       'start_date', to_char(l.start_date, 'YYYY-MM-DD'), 'unit_price', l.unit_price::text, 'damage_charges', l.damage_charges::text, 'line_total', l.line_total::text,
                       'rental_terms', l.rental_terms, 'deposit', l.deposit::text)
                       order by l.position) from ${t('order_lines')} l where l.order_id = o.id), '[]'::json) as lines,
            coalesce((select json_agg(json_build_object('id', s.id, 'line_id', s.line_id, 'serial_code', s.serial_code, 'return_status', s.return_status,
                       'returned_at', s.returned_at, 'warehouse_bin', s.warehouse_bin, 'created_at', s.created_at,
                       'back_on', to_char(coalesce((select min(h.signed_at) from ${t('order_handovers')} h
                                                     where h.order_id = o.id and h.leg = 'PICKUP' and h.outcome = 'HANDED_OVER' and h.serials @> jsonb_build_array(s.serial_code)),
                                                   s.returned_at) at time zone 'Asia/Manila', 'YYYY-MM-DD')) order by s.line_id, s.position)
                        from ${t('order_line_serials')} s where s.order_id = o.id), '[]'::json) as serials`;
  const rest = `, o.full_payment_due::text as full_payment_due_text,
            (select trim(c.first_name || ' ' || c.last_name) from ${t('customers')} c where c.id = o.customer_id) as customer_name,
            coalesce((select json_agg(json_build_object('title', k.title, 'status', k.status, 'created_at', k.created_at) order by k.created_at, k.id)
                        from ${t('order_tracker')} k where k.order_id = o.id), '[]'::json) as tracker,
            ${requestsJson(em)} as requests,
            (select row_to_json(c) from ${t('customers')} c where c.id = o.customer_id) as customer,
            (select json_build_object('status', p.status, 'refund_due', p.refund_due::text, 'total_partial_payment', p.total_partial_payment::text,
                       'extra_charge', p.extra_charge::text, 'overall_total', p.overall_total::text, 'balance', p.balance::text,
                       'due_date', p.due_date::text) from ${t('order_payments')} p where p.order_id = o.id) as payment,
            coalesce((select json_agg(json_build_object('payment_record_id', r.payment_record_id, 'type', r.type, 'invoice_number', r.invoice_number, 'receipt_number', r.receipt_number,
                       'amount', r.amount::text, 'note', r.note, 'created_at', r.created_at, 'cycle', r.cycle) order by r.created_at, coalesce(r.cycle, 0), r.id)
                        from ${t('order_payment_records')} r where r.order_id = o.id), '[]'::json) as records,
            coalesce((select json_agg(json_build_object('number', f.number, 'kind', f.kind, 'amount', f.amount::text, 'method', f.method, 'refunded_at', f.refunded_at)
                       order by f.refunded_at, f.number) from ${t('order_refunds')} f where f.order_id = o.id), '[]'::json) as refunds,
            coalesce((select json_agg(json_build_object('kind', x.kind, 'days', x.days, 'amount', x.amount::text,
                       'return_on', to_char(x.return_on, 'YYYY-MM-DD'), 'by', x.by_kind, 'created_at', x.created_at) order by x.seq)
                        from ${t('order_extensions')} x where x.order_id = o.id), '[]'::json) as extensions,
            ${handoversJson(em)} as handovers,
            coalesce((select json_agg(json_build_object('amount', w.amount::text, 'reason', w.reason, 'by_name', w.by_name, 'created_at', w.created_at) order by w.created_at, w.id)
                        from ${t('order_late_fee_waivers')} w where w.order_id = o.id), '[]'::json) as waivers,
            case when o.driver_id is null then null
                 else json_build_object('driverId', o.driver_id, 'day', to_char(o.driver_day, 'YYYY-MM-DD'),
                        'driverName', coalesce((select trim(d.first_name || ' ' || d.last_name) from ${t('customers')} d where d.id = o.driver_id), '')) end as assignment`;
  const waived = `, coalesce((select sum(w.amount) from ${t('order_late_fee_waivers')} w where w.order_id = o.id), 0)::text as late_fees_waived,
            ${cyclesPaidColumns(em)}`;
  return `select o.*, ${facts}${waived}${detail ? rest : ''} from ${t('orders')} o where ${where}`;
}

/** The process's view of an order as it was read (the allowed actions are decided on it). */
function factsOf(o: OrderFactsRow): OrderFacts {
  return {
    id: o.id,
    orderNumber: o.order_number,
    customerId: o.customer_id,
    type: o.type,
    status: o.status,
    driverId: o.driver_id,
    deliveredAt: o.delivered_at === null ? null : new Date(o.delivered_at),
    totalAmount: money(o.total_amount),
    partialPayment: moneyOrNull(o.partial_payment),
    deposit: money(o.deposit ?? '0'),
    lateFeesWaived: money(o.late_fees_waived ?? '0'),
    cycleRentPaid: money(o.cycle_rent_paid ?? '0'),
    lastCyclePaid: o.last_cycle_paid ?? 0,
    lines: o.lines.map((l) => ({
      id: l.id,
      productId: l.product_id,
      variantId: l.variant_id,
      subVariantId: l.sub_variant_id,
      productName: l.product_name,
      variantName: l.variant_name,
      subVariantName: l.sub_variant_name,
      quantity: l.quantity,
      noOfRentalDays: l.no_of_rental_days,
      damageCharges: money(l.damage_charges),
      rentalTerms: l.rental_terms ?? null,
    })),
    serials: o.serials.map((s) => ({ lineId: s.line_id, serialCode: s.serial_code, returnStatus: s.return_status, backOn: s.back_on })),
  };
}

/**
 * Serial code entries per line (SPEC §3): the line's product; the return time is updatedAt (and
 * returnedAt, kept for older clients); where the unit is follows its return mark (RETURN_INVENTORY_TYPE).
 */
function serialCodesOf(row: OrderFactsRow): Map<string, OrderLine['serialCodes']> {
  const productOf = new Map(row.lines.map((l) => [l.id, l.product_id]));
  const serials = new Map<string, OrderLine['serialCodes']>();
  for (const s of row.serials) {
    const list = serials.get(s.line_id) ?? [];
    const returnedAt = s.returned_at === null ? null : new Date(s.returned_at).toISOString();
    list.push({
      id: s.id,
      serialCode: s.serial_code,
      productID: productOf.get(s.line_id)!,
      status: s.return_status,
      updatedAt: returnedAt,
      returnedAt,
      inventoryType: serialInventoryType(s.return_status),
      warehouseBin: s.warehouse_bin === null ? null : { name: s.warehouse_bin },
      createdAt: new Date(s.created_at).toISOString(),
    });
    serials.set(s.line_id, list);
  }
  return serials;
}

/** The order's detail as the API shows it (lines with their serial codes, tracker, customer, payment and records, requests, due notice). */
function detailOf(row: OrderDetailRow): OrderDetail {
  const serials = serialCodesOf(row);
  const deliveredAt = row.delivered_at === null ? null : new Date(row.delivered_at);
  const dueOf = (l: OrderLineRow) => (deliveredAt && l.no_of_rental_days !== null ? lineDueDate(deliveredAt, l.no_of_rental_days) : null);
  return {
    ...summary(row),
    deliveryAddress: row.delivery_address,
    deliveryCity: row.delivery_city,
    deliveryState: row.delivery_state,
    deliveryZipcode: row.delivery_zipcode,
    note: row.note,
    partialPayment: moneyOrNull(row.partial_payment),
    payment: paymentOf(row),
    orderTracker: row.tracker.map((t) => ({ title: t.title, status: t.status, createdAt: new Date(t.created_at).toISOString() })),
    products: row.lines.map((l) => ({
      id: l.id,
      productID: l.product_id,
      productName: l.product_name,
      productImage: l.product_image,
      productVariantID: l.variant_id,
      productSubVariantID: l.sub_variant_id,
      variant: l.variant_name ? { name: l.variant_name, price: moneyOrNull(l.variant_price) } : null,
      subVariant: l.sub_variant_name ? { name: l.sub_variant_name, price: money(l.sub_variant_price) } : null,
      quantity: l.quantity,
      noOfRentalDays: l.no_of_rental_days,
      productAmount: money(l.unit_price),
      productDamageCharges: money(l.damage_charges),
      lineTotal: money(l.line_total),
      serialCodes: serials.get(l.id) ?? [],
      dueDate: dueOf(l),
      // A rental placed before dated rentals started on its order day.
      startDate: l.no_of_rental_days === null ? null : (l.start_date ?? manilaDate(new Date(row.created_at))),
      rentalTerms: l.rental_terms ?? null,
      deposit: money(l.deposit ?? '0'),
    })),
    customer: customerOf(row.customer),
    deliveredAt: deliveredAt ? deliveredAt.toISOString() : null,
    driverID: row.driver_id,
    requests: row.requests.map(requestOf),
    dueNotice: dueNotice(row.status, row.lines.map(dueOf), manilaDate(new Date())),
    fullPaymentPreview: row.status === 'FOR_PICK_UP' ? fullPaymentPreviewOf(factsOf(row), new Date()) : null,
    extensions: row.extensions.map((x) => ({
      kind: x.kind,
      days: x.days,
      amount: money(x.amount),
      returnOn: x.return_on,
      by: x.by,
      createdAt: new Date(x.created_at).toISOString(),
    })),
    handovers: row.handovers.map(handoverOf),
    assignment: row.assignment,
    lateFees: lateFeesSoFar(row.status, factsOf(row)),
    lateFeeWaivers: row.waivers.map((w) => ({ amount: money(w.amount), reason: w.reason, byName: w.by_name, createdAt: new Date(w.created_at).toISOString() })),
    billing: row.billing ?? 'UPFRONT',
    cycles: cyclesOfOrder(row),
    rentToOwn: rentToOwnOf(row, row.records.some((r) => r.type === 'BUYOUT')),
  };
}

/** Rent-to-own of each line that offers it (issue 29, rental-money `lineRentToOwn`), on a rental billed by cycles once delivered. */
function rentToOwnOf(row: OrderFactsRow, boughtOut: boolean): Order['rentToOwn'] {
  if (row.billing !== 'CYCLES' || row.delivered_at === null) return [];
  return row.lines.flatMap((l) => {
    const own = lineRentToOwn({ terms: l.rental_terms, noOfRentalDays: l.no_of_rental_days, unitPrice: l.unit_price, quantity: l.quantity }, row.last_cycle_paid ?? 0);
    return own
      ? [
          {
            lineId: l.id,
            productName: l.product_name,
            rentPaid: centsToString(own.rentPaidCents),
            credited: centsToString(own.creditedCents),
            buyOut: centsToString(own.buyOutCents),
            cyclesPaid: own.cyclesPaid,
            afterCycles: own.afterCycles,
            // Bought out (issue 29): the customer's, whatever its cycles.
            owned: own.owned || boughtOut,
          },
        ]
      : [];
  });
}

/** Order statuses in which a rental's cycles are no longer billed one by one (issue 29): back (the full payment has their rent), completed, cancelled. */
const CYCLES_CLOSED: readonly OrderStatus[] = ['FOR_FULL_PAYMENT', 'COMPLETED', 'CANCELLED'];

/**
 * A rental billed by cycles, once delivered (issue 29): its cycles from the delivery day, each
 * paid (by the first and cycle payments the order has heard of), due, upcoming, or closed once it
 * is back or the customer's (rental-money `rentalCycles`, as the payment computes them).
 */
export function cyclesOfOrder(
  o: Pick<OrderFactsRow, 'billing' | 'delivered_at' | 'partial_payment' | 'cycle_rent_paid' | 'last_cycle_paid' | 'status'> & {
    lines: Array<Pick<OrderLineRow, 'no_of_rental_days' | 'unit_price' | 'quantity'>>;
  },
): Order['cycles'] {
  if (o.billing !== 'CYCLES' || o.delivered_at === null) return [];
  return rentalCycles(
    manilaDate(new Date(o.delivered_at)),
    o.lines.map((l) => ({ noOfRentalDays: l.no_of_rental_days, unitPrice: l.unit_price, quantity: l.quantity })),
    { lastCycle: o.last_cycle_paid ?? 0, rentPaidCents: toCents(o.partial_payment ?? '0') + toCents(o.cycle_rent_paid ?? '0'), closed: CYCLES_CLOSED.includes(o.status) },
    manilaDate(),
  );
}

/** Out with the customer or being picked up: the late fees so far, while some are charged (issue 29); after that they are in the full payment. */
const LATE_FEE_STATUSES: readonly OrderStatus[] = ['DELIVERED', 'FOR_RETURN', 'FOR_PICK_UP'];
export function lateFeesSoFar(status: OrderStatus, facts: OrderFacts): Order['lateFees'] {
  if (!LATE_FEE_STATUSES.includes(status)) return null;
  const late = lateFeesOf(facts, manilaDate(new Date()));
  if (late.cents === 0) return null;
  const waived = toCents(facts.lateFeesWaived ?? '0');
  return { amount: centsToString(afterWaiverCents(late.cents, waived)), days: late.days, charged: centsToString(late.cents), waived: centsToString(Math.min(waived, late.cents)) };
}

/** Whether late fees may be waived in this status (issue 29): while they are counted, before the full payment fixes them. */
export const lateFeesWaivable = (status: OrderStatus) => LATE_FEE_STATUSES.includes(status);

/**
 * What asking for the full payment now would charge (a rental being picked up): the same terms
 * the step computes when it asks (contracts `fullPaymentTerms`), so the warehouse's prompt shows
 * the server's figures.
 */
function fullPaymentPreviewOf(facts: OrderFacts, now: Date): NonNullable<Order['fullPaymentPreview']> {
  const terms = fullPaymentTermsOf(facts, now);
  // In the order's line order, as the order's lines list them.
  const chargedSerials = facts.lines.flatMap((l) =>
    facts.serials.filter((s) => s.lineId === l.id && chargedAtReturn(s.returnStatus)).map((s) => ({ serialCode: s.serialCode, status: s.returnStatus as 'LOST' | 'DAMAGED' })),
  );
  return {
    extraCharge: centsToString(terms.extraCents),
    chargedSerials,
    balance: centsToString(terms.balanceCents),
    dueDate: terms.dueDate,
    lateFees: centsToString(terms.lateFeeCents),
    depositApplied: centsToString(terms.depositAppliedCents),
    depositRefund: centsToString(terms.depositRefundCents),
  };
}

/**
 * One order, read in one statement: its facts, and unless `detail: false` everything its detail
 * shows. Another customer's order (`customerId`) answers exactly like one that does not exist (404).
 * Read after locking the order row, it reads what committed before the lock was granted.
 */
export async function loadOrder(em: EntityManager, id: string, scope: { customerId?: string; detail: false }): Promise<{ facts: OrderFacts }>;
export async function loadOrder(em: EntityManager, id: string, scope: { customerId?: string; detail?: true }): Promise<{ order: OrderDetail; facts: OrderFacts }>;
export async function loadOrder(
  em: EntityManager,
  id: string,
  scope: { customerId?: string; detail?: boolean },
): Promise<{ order?: OrderDetail; facts: OrderFacts }> {
  const detail = scope.detail !== false;
  const [row] = await em.execute<OrderDetailRow[]>(
    orderStatement(em, `o.id = ?${scope.customerId ? ' and o.customer_id = ?' : ''}`, detail),
    scope.customerId ? [id, scope.customerId] : [id],
  );
  if (!row) throw notFound('Order not found.');
  return detail ? { order: detailOf(row), facts: factsOf(row) } : { facts: factsOf(row) };
}

/** One order as this caller sees it, with the steps the caller can take now (the process decides). */
export async function getOrder(em: EntityManager, id: string, who: Principal, scope: { customerId?: string }): Promise<Order> {
  const { order, facts } = await loadOrder(em, id, scope);
  const by = extenderOf(who);
  return {
    ...order,
    allowedTransitions: allowedTransitions(facts, { kind: 'person', principal: who }),
    extendable: by !== null && extendable(facts.type, facts.status, by),
    earlyEnd: by === 'STAFF' ? earlyEndOf(order, facts) : null,
  };
}

/** The days staff may end this rental early on now (terms `endableEarly`, `earlyEndWindow`), else null. */
function earlyEndOf(order: OrderDetail, facts: OrderFacts): Order['earlyEnd'] {
  if (!facts.deliveredAt || !endableEarly(facts.type, facts.status)) return null;
  const dues = order.products.map((l) => l.dueDate).filter((d): d is string => d !== null);
  return earlyEndWindow(manilaDate(facts.deliveredAt), dues, manilaDate(), paidCycleDays(facts.lastCyclePaid ?? 0));
}

/** Who this caller extends rentals as (terms `extendable`): a customer their own, staff who manage bookings; else nobody. */
export function extenderOf(who: Principal): Extender | null {
  if (who.userType === 'CUSTOMER') return 'CUSTOMER';
  return permissionsOf(who.userType).includes('booking:manage') ? 'STAFF' : null;
}

/**
 * Locks an order's row for a step in the caller's transaction, then reads its facts (after the
 * lock, so they are what committed before it was granted). The order is named by id and/or number,
 * within `scope` (an SQL filter on `orders`, unaliased, e.g. `visibility`'s); one it does not
 * reach answers 404 with `missing`, exactly like one that does not exist.
 */
export async function lockOrder(
  tem: EntityManager,
  key: { id?: string | null | undefined; orderNumber?: string | null | undefined },
  scope: { where: string; params: unknown[] } = { where: '', params: [] },
  missing = 'Order not found.',
): Promise<OrderFacts> {
  const conds = [key.id ? 'id = ?' : null, key.orderNumber ? 'order_number = ?' : null].filter(Boolean).join(' and ');
  const [row] = await tem.execute<Array<{ id: string }>>(`select id from ${qualified(tem, 'orders')} where ${conds} ${scope.where} for update`, [
    ...(key.id ? [key.id] : []),
    ...(key.orderNumber ? [key.orderNumber] : []),
    ...scope.params,
  ]);
  if (!row) throw notFound(missing);
  return (await loadOrder(tem, row.id, { detail: false })).facts;
}
