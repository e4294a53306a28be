import type { EntityManager } from '@mikro-orm/postgresql';
import { centsToString, manilaDate, MAX_QUANTITY, ORDER_MESSAGES, productTypeFor, rentalDaysOf, rentalStartOf, StockAvailabilityReply, sumCents, toCents, type CartItem, type CartType, type OrderQuoteInput, type QuoteLine, type StockAvailabilityRequest } from '@dme/contracts';
import { badRequest, callRpc, HttpProblem, notFound, qualified, type NatsConnection, newId } from '@dme/platform';
import { leafOf, lineAmount, productsById, type ProductModel } from '../readmodels/products';
import { linesOf, type Line } from '../checkout/lines';

interface CartRow {
  id: string;
  customer_id: string;
  type: CartType;
  product_id: string;
  variant_id: string | null;
  sub_variant_id: string | null;
  quantity: number;
  no_of_rental_days: number | null;
  /** A rental line's chosen first day (Date from the driver; null: today). */
  start_date: string | Date | null;
  created_at: string;
}

/** A cart line's start as the API shows it: its chosen day if still ahead, else today; null for a purchase. */
function startOf(row: CartRow, today: string = manilaDate()): string | null {
  const chosen = row.start_date === null ? null : typeof row.start_date === 'string' ? row.start_date.slice(0, 10) : manilaDate(new Date(row.start_date.getTime() + 12 * 3_600_000));
  return rentalStartOf(row.type, chosen, today);
}

/** A line to price: a product at its level, how many, and for a rental how many days from when. */
type LineToPrice = Omit<Line, 'ref'>;

/**
 * A line priced as the cart prices it (one rule for a cart line and a bulk order's quote): the
 * level's current unit price × quantity (× days for rent); nothing when it cannot be ordered (an
 * archived product, a removed variant, a product not of the order's type).
 */
function pricedLine(line: LineToPrice, p: ProductModel | undefined, type: CartType): QuoteLine {
  const leaf = leafOf(p, line.productVariantID, line.productSubVariantID);
  const ok = leaf.ok && p?.type === productTypeFor(type);
  return {
    productID: line.productID,
    productVariantID: line.productVariantID,
    productSubVariantID: line.productSubVariantID,
    name: p?.name ?? 'Product no longer available',
    brand: p?.brand ?? '',
    image: p?.image ?? '',
    variant: leaf.variant,
    subVariant: leaf.subVariant,
    price: leaf.unitPrice,
    quantity: line.quantity,
    noOfRentalDays: line.noOfRentalDays,
    startDate: line.startDate,
    lineTotal: ok ? lineAmount(leaf.unitPrice, line.quantity, type === 'RENT' ? line.noOfRentalDays : null) : '0.00',
    available: ok,
  };
}

function toItem(row: CartRow, p: ProductModel | undefined): CartItem {
  const line = { productID: row.product_id, productVariantID: row.variant_id, productSubVariantID: row.sub_variant_id, quantity: row.quantity, noOfRentalDays: row.no_of_rental_days, startDate: startOf(row) };
  return { id: row.id, type: row.type, ...pricedLine(line, p, row.type), createdAt: new Date(row.created_at).toISOString() };
}

export async function listCart(em: EntityManager, customerId: string, type: CartType): Promise<{ items: CartItem[]; total: string }> {
  const rows = await em.execute<CartRow[]>(
    `select * from ${qualified(em, 'cart_items')} where customer_id = ? and type = ? order by created_at, id`,
    [customerId, type],
  );
  const products = await productsById(em, rows.map((r) => r.product_id));
  const items = rows.map((r) => toItem(r, products.get(r.product_id)));
  return { items, total: totalOf(items) };
}

const totalOf = (items: Array<{ lineTotal: string }>) => centsToString(sumCents(items.map((i) => toCents(i.lineTotal))));

/**
 * What a bulk order of `lines` would cost now (issue 27: its confirmation shows the server's
 * total), priced as the cart is; it reserves nothing, and placing the order prices it again.
 */
export async function quoteOrder(em: EntityManager, body: OrderQuoteInput, today: string = manilaDate()): Promise<{ items: QuoteLine[]; total: string }> {
  const products = await productsById(em, body.lines.map((l) => l.productID));
  // The bulk lines as placing the order reads them (days and start as it would fill them in).
  const { lines } = linesOf({ type: body.type, typeOfOrder: 'BULK', lines: body.lines }, null, today);
  const items = lines.map((l) => pricedLine(l, products.get(l.productID), body.type));
  return { items, total: totalOf(items) };
}

async function ownRow(em: EntityManager, customerId: string, id: string): Promise<CartRow> {
  const [row] = await em.execute<CartRow[]>(`select * from ${qualified(em, 'cart_items')} where id = ? and customer_id = ?`, [id, customerId]);
  // Another customer's line does not exist for this one.
  if (!row) throw notFound('Cart item not found.');
  return row;
}

/** What the cart needs from outside the order service: the catalog's availability answer (NATS request/reply). */
export interface CartDeps {
  nc: NatsConnection;
  /** The catalog's availability subject (RPC.availability; tests give each run its own). */
  availability: string;
}

/**
 * How many units of a leaf a customer can still order, asked of the catalog, which owns stock
 * (DESIGN §2): its ledger's `available - reserved`, live — the number the product page shows and
 * checkout's reservation checks. The catalog not answering is a 503 (nothing is added).
 */
async function availableOf(deps: CartDeps, ref: StockAvailabilityRequest): Promise<number> {
  const reply = StockAvailabilityReply.safeParse(await callRpc(deps.nc, deps.availability, ref));
  if (!reply.success) throw new HttpProblem(502, 'A service we depend on gave an unexpected answer.');
  return reply.data.available;
}

/** More than is available (SPEC §5, §8): 409 like checkout's stock refusal, with the spec's text on the quantity. */
const overStock = () => new HttpProblem(409, ORDER_MESSAGES.maxStock, [{ field: 'quantity', message: ORDER_MESSAGES.maxStock }]);

export interface CartAdd {
  type: CartType;
  productID: string;
  productVariantID: string | null;
  productSubVariantID: string | null;
  quantity: number;
  noOfRentalDays?: number | undefined;
  startDate?: string | undefined;
}

/**
 * Adds a line; the same product at the same variant adds up (the days take the latest choice).
 * What the line then holds (what the cart had of that leaf plus the quantity added) must not be
 * more than the catalog has available (SPEC §5), else 409 with the spec's max-stock message and
 * nothing changes. The sum is checked in the insert itself, so two adds at once cannot pass it
 * together. Nothing is held: checkout's reservation is the one that counts.
 */
export async function addToCart(em: EntityManager, customerId: string, input: CartAdd, deps: CartDeps): Promise<CartItem> {
  const p = (await productsById(em, [input.productID])).get(input.productID);
  const leaf = leafOf(p, input.productVariantID, input.productSubVariantID);
  const field = (f: string, m: string) => badRequest(m, [{ field: f, message: m }]);
  if (!p || leaf.problem === 'unknown') throw field('productID', ORDER_MESSAGES.unknownProduct);
  if (p.type !== productTypeFor(input.type)) throw field('type', ORDER_MESSAGES.wrongType);
  if (leaf.problem === 'variant') throw field('productVariantID', ORDER_MESSAGES.chooseVariant);
  if (leaf.problem === 'subVariant') throw field('productSubVariantID', ORDER_MESSAGES.chooseSubVariant);
  const ref = { productID: input.productID, productVariantID: input.productVariantID, productSubVariantID: input.productSubVariantID };
  const days = rentalDaysOf(input.type, input.noOfRentalDays);
  const start = rentalStartOf(input.type, input.startDate, manilaDate());
  // A rental: the units free for its whole period (issue 25); a purchase: the stock now.
  const available = await availableOf(deps, { ...ref, startDate: start, noOfRentalDays: days });
  if (input.quantity > available) throw overStock();
  const t = qualified(em, 'cart_items');
  const [row] = await em.execute<CartRow[]>(
    `insert into ${t} (id, customer_id, type, product_id, variant_id, sub_variant_id, quantity, no_of_rental_days, start_date)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?::date)
     on conflict (customer_id, type, product_id, coalesce(variant_id, '00000000-0000-0000-0000-000000000000'), coalesce(sub_variant_id, '00000000-0000-0000-0000-000000000000'))
     do update set quantity = least(${t}.quantity + excluded.quantity, ${MAX_QUANTITY}), no_of_rental_days = excluded.no_of_rental_days, start_date = excluded.start_date, updated_at = now()
       where ${t}.quantity + excluded.quantity <= ?
     returning *`,
    [newId(), customerId, input.type, input.productID, input.productVariantID, input.productSubVariantID, input.quantity, days, start, available],
  );
  // No row: the line was there and the sum is more than is available.
  if (!row) throw overStock();
  return toItem(row, p);
}

/**
 * Changes a line's quantity or rental days. Raising the quantity above what the catalog has
 * available is refused like adding (409, the spec's max-stock message); keeping or lowering it is
 * not (stock may have gone since the line was added: lowering is the customer adjusting to it).
 */
export async function updateCartItem(
  em: EntityManager,
  customerId: string,
  id: string,
  input: { quantity: number; noOfRentalDays?: number | undefined; startDate?: string | undefined },
  deps: CartDeps,
): Promise<CartItem> {
  const row = await ownRow(em, customerId, id);
  const days = row.type === 'RENT' ? (input.noOfRentalDays ?? row.no_of_rental_days) : null;
  const start = row.type === 'RENT' ? (input.startDate ?? startOf(row)) : null;
  // Other dates or more days are checked like adding; keeping or lowering the quantity is not.
  const redated = row.type === 'RENT' && (start !== startOf(row) || (days ?? 0) > (row.no_of_rental_days ?? 0));
  if (input.quantity > row.quantity || redated) {
    const available = await availableOf(deps, { productID: row.product_id, productVariantID: row.variant_id, productSubVariantID: row.sub_variant_id, startDate: start, noOfRentalDays: days });
    if (input.quantity > available) throw overStock();
  }
  const [updated] = await em.execute<CartRow[]>(
    `update ${qualified(em, 'cart_items')} set quantity = ?, no_of_rental_days = ?, start_date = ?::date, updated_at = now() where id = ? and customer_id = ? returning *`,
    [input.quantity, days, start, id, customerId],
  );
  const p = (await productsById(em, [row.product_id])).get(row.product_id);
  return toItem(updated!, p);
}

export async function removeCartItem(em: EntityManager, customerId: string, id: string): Promise<void> {
  await ownRow(em, customerId, id);
  await em.execute(`delete from ${qualified(em, 'cart_items')} where id = ? and customer_id = ?`, [id, customerId]);
}

export type { CartRow };
