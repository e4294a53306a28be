/**
 * The pure parts of the legacy adapter (issue 12): the old client's envelope and status codes, and
 * the translations of its payloads into the REST API's (order products → bulk lines, request
 * products → order line ids, the reports' default range). No I/O here: unit-tested in
 * legacy.test.ts.
 */
import { addDays, isIsoDate, type Problem, type ReportName } from '@dme/contracts';

/** What a legacy call does, which decides its success status (SPEC §7). */
export type LegacyKind = 'read' | 'create' | 'update' | 'delete';

/** SPEC §7: "Success is status 200 for reads, creates and deletes, and 201 for updates." */
export function successStatus(kind: LegacyKind): 200 | 201 {
  return kind === 'update' ? 201 : 200;
}

/** The old client's success body: it reads `data.data` (and `data.status` on /users/create.php). */
export interface LegacySuccess {
  status: number;
  message: 'success';
  data: unknown;
}

export function successBody(kind: LegacyKind, data: unknown): LegacySuccess {
  return { status: successStatus(kind), message: 'success', data: data === undefined ? null : data };
}

/**
 * An error: the REST problem document unchanged (it stays application/problem+json with the REST
 * status) plus the old shapes' `message` and `error`, both equal to its detail (SPEC §7: reads and
 * updates show `message`; an upload and the reports read `error`). A body that is not a problem (it
 * should not happen) becomes one with the status's words.
 */
export function errorBody(status: number, body: unknown, fallbackDetail: string): Problem & { message: string; error: string } {
  const p = body && typeof body === 'object' && !Array.isArray(body) ? (body as Partial<Problem>) : {};
  const detail = typeof p.detail === 'string' && p.detail.length > 0 ? p.detail : fallbackDetail;
  return {
    type: typeof p.type === 'string' ? p.type : 'about:blank',
    title: typeof p.title === 'string' ? p.title : 'Error',
    ...(p as object),
    status,
    detail,
    message: detail,
    error: detail,
  };
}

/**
 * The payload of a REST answer as the old client expects it in `data`: a list's items, the one
 * object of `{ user }`, `{ order }`..., or the body itself when it has more than that.
 */
export function payloadOf(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body ?? null;
  const keys = Object.keys(body);
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.items) && keys.every((k) => k === 'items' || k === 'total')) return b.items;
  if (keys.length === 1) {
    const only = b[keys[0]!];
    if (only && typeof only === 'object') return only;
  }
  return body;
}

/** A query or body id as a path segment: encoded, dots too (no `.`/`..` segments reach the router). */
export function segment(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}

// ---------------------------------------------------------------- reports

/** The five report files of the old client → the REST report names. */
export const LEGACY_REPORTS: Record<string, ReportName> = {
  purchased_products_sales: 'purchased-sales',
  rental_products_sales: 'rental-sales',
  purchased_products_invoice: 'purchased-invoice',
  rental_products_unpaid_invoice: 'rental-unpaid-invoice',
  rental_products_partial_invoice: 'rental-partial-invoice',
};

/**
 * The range of a report call: the client's from/to when given; otherwise the last 366 days
 * ending today (Manila; both ends included, the longest range the REST API takes). A date that
 * is not a date is passed on as it is: the REST API answers 400 with its message.
 */
export function reportRange(from: string | undefined, to: string | undefined, today: string): { from: string; to: string } {
  const end = to ?? (from && isIsoDate(from) && addDays(from, 365) < today ? addDays(from, 365) : today);
  const start = from ?? (isIsoDate(end) ? addDays(end, -365) : end);
  return { from: start, to: end };
}

// ---------------------------------------------------------------- orders

/** A bulk order line of POST /api/orders. */
export interface BulkLineInput {
  productID: unknown;
  productVariantID: unknown;
  productSubVariantID: unknown;
  quantity: unknown;
  noOfRentalDays?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
const firstDefined = (...vs: unknown[]) => vs.find((v) => v !== undefined && v !== null);

/**
 * The old order's products → bulk lines. A product carries its quantity and rental days itself,
 * or nests variants that carry them, or variants that nest sub-variants that carry them (the
 * innermost level that is present is the line; days default to the level above). Flat products
 * with productVariantID / productSubVariantID are taken as they are. Purchases have no days.
 */
export function orderLines(products: unknown[], type: 'BUY' | 'RENT'): BulkLineInput[] {
  const lines: BulkLineInput[] = [];
  const days = (...vs: unknown[]) => (type === 'RENT' ? { noOfRentalDays: firstDefined(...vs) } : {});
  for (const p of products) {
    if (!isObj(p)) continue;
    const productID = firstDefined(p.productID, p.id);
    const variants = Array.isArray(p.variants) ? p.variants.filter(isObj) : [];
    if (variants.length === 0) {
      lines.push({
        productID,
        productVariantID: firstDefined(p.productVariantID) ?? null,
        productSubVariantID: firstDefined(p.productSubVariantID) ?? null,
        quantity: p.quantity,
        ...days(p.noOfRentalDays),
      });
      continue;
    }
    for (const v of variants) {
      const variantID = firstDefined(v.productVariantID, v.id) ?? null;
      const subs = Array.isArray(v.subVariants) ? v.subVariants.filter(isObj) : [];
      if (subs.length === 0) {
        lines.push({ productID, productVariantID: variantID, productSubVariantID: null, quantity: firstDefined(v.quantity, p.quantity), ...days(v.noOfRentalDays, p.noOfRentalDays) });
        continue;
      }
      for (const s of subs) {
        lines.push({
          productID,
          productVariantID: variantID,
          productSubVariantID: firstDefined(s.productSubVariantID, s.id) ?? null,
          quantity: firstDefined(s.quantity, v.quantity, p.quantity),
          ...days(s.noOfRentalDays, v.noOfRentalDays, p.noOfRentalDays),
        });
      }
    }
  }
  return lines;
}

/** A cart line as GET /api/cart shows it (the fields a checkout's matching needs). */
export interface CartLineRef {
  id: string;
  productID: string;
  productVariantID: string | null;
  productSubVariantID: string | null;
  quantity: number;
  noOfRentalDays: number | null;
  name: string;
  variant?: { name: string } | null;
  subVariant?: { name: string } | null;
}

/** The old order's products matched to the customer's cart lines of the order's type. */
export interface CartCheckout {
  /** The cart lines to order, in the order sent, each once. */
  cartItemIDs: string[];
  /** Products that name no cart line: their position and the line they name. */
  notInCart: Array<{ index: number; line: BulkLineInput }>;
  /** Products whose quantity or rental days differ from their cart line's (the cart changed since the client read it). */
  changed: Array<{ index: number; item: CartLineRef; field: 'quantity' | 'noOfRentalDays'; sent: number }>;
}

/**
 * A normal (not BULK) old order is the checkout of cart lines: each product, flattened as for a
 * bulk order (orderLines), names the cart line with the same product, variant and sub-variant
 * (the cart holds one line per such triple and type), or a cart line by its id. A quantity or
 * rental days sent must be the cart line's.
 */
export function cartCheckout(products: readonly unknown[], type: 'BUY' | 'RENT', cart: readonly CartLineRef[]): CartCheckout {
  const out: CartCheckout = { cartItemIDs: [], notInCart: [], changed: [] };
  products.forEach((p, index) => {
    const lines = orderLines([p], type);
    if (lines.length === 0) out.notInCart.push({ index, line: { productID: undefined, productVariantID: null, productSubVariantID: null, quantity: undefined } });
    for (const line of lines) {
      const item =
        cart.find((c) => c.id === line.productID) ??
        cart.find((c) => c.productID === line.productID && c.productVariantID === (line.productVariantID ?? null) && c.productSubVariantID === (line.productSubVariantID ?? null));
      if (!item) {
        out.notInCart.push({ index, line });
        continue;
      }
      if (typeof line.quantity === 'number' && line.quantity !== item.quantity) out.changed.push({ index, item, field: 'quantity', sent: line.quantity });
      else if (type === 'RENT' && typeof line.noOfRentalDays === 'number' && line.noOfRentalDays !== item.noOfRentalDays) {
        out.changed.push({ index, item, field: 'noOfRentalDays', sent: line.noOfRentalDays });
      }
      if (!out.cartItemIDs.includes(item.id)) out.cartItemIDs.push(item.id);
    }
  });
  return out;
}

/** A product as an error names it: its id, variant and sub-variant ids. */
export function describeLine(line: BulkLineInput): string {
  const id = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  const product = id(line.productID);
  if (!product) return 'A product without a productID';
  const variant = id(line.productVariantID);
  const sub = id(line.productSubVariantID);
  return `Product ${product}${variant ? ` (variant ${variant}${sub ? `, sub-variant ${sub}` : ''})` : sub ? ` (sub-variant ${sub})` : ''}`;
}

/** A cart line as a message names it: name, variant, sub-variant. */
export function cartLineName(item: CartLineRef): string {
  const parts = [item.variant?.name, item.subVariant?.name].filter((n): n is string => typeof n === 'string' && n.length > 0);
  return parts.length ? `${item.name} (${parts.join(', ')})` : item.name;
}

/** Order status filter → the driver list's purpose (SPEC §2 driver: For Delivery, For Pickup). */
export function driverPurposes(status: string | undefined): Array<'DELIVERY' | 'PICKUP'> {
  if (status === 'OUT_FOR_DELIVERY') return ['DELIVERY'];
  if (status === 'FOR_PICK_UP') return ['PICKUP'];
  if (status === undefined) return ['DELIVERY', 'PICKUP'];
  return [];
}

// ---------------------------------------------------------------- order lines (requests, packing)

/** An order line as the REST order shows it (the fields matching needs). */
export interface LineRefOfOrder {
  id: string;
  productID: string;
  productVariantID: string | null;
  productSubVariantID: string | null;
}

/** How a product sent by the old client names an order line. */
function refOf(p: unknown): { lineID?: string; productID?: string; variantID: string | null; subVariantID: string | null } | undefined {
  if (typeof p === 'string') return { lineID: p, variantID: null, subVariantID: null };
  if (!isObj(p)) return undefined;
  const product = isObj(p.product) ? p.product : undefined;
  const variant = isObj(p.variant) ? p.variant : undefined;
  const sub = isObj(p.subVariant) ? p.subVariant : undefined;
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  return {
    lineID: str(p.lineID) ?? str(p.orderProductID) ?? str(p.id),
    productID: str(p.productID) ?? str(product?.id),
    variantID: str(p.productVariantID) ?? str(variant?.id) ?? null,
    subVariantID: str(p.productSubVariantID) ?? str(sub?.id) ?? null,
  };
}

/**
 * The order line ids of the products the old client sent: each names a line by its id, or by
 * product, variant and sub-variant (the first line of the order with exactly those). Returns the
 * ids in the order sent, each once, and the products that match no line.
 */
export function matchLines(products: readonly unknown[], lines: readonly LineRefOfOrder[]): { lineIDs: string[]; unmatched: number[] } {
  const lineIDs: string[] = [];
  const unmatched: number[] = [];
  products.forEach((p, i) => {
    const ref = refOf(p);
    const byId = ref?.lineID ? lines.find((l) => l.id === ref.lineID) : undefined;
    const line =
      byId ??
      (ref?.productID
        ? lines.find((l) => l.productID === ref.productID && l.productVariantID === ref.variantID && l.productSubVariantID === ref.subVariantID)
        : undefined);
    if (!line) unmatched.push(i);
    else if (!lineIDs.includes(line.id)) lineIDs.push(line.id);
  });
  return { lineIDs, unmatched };
}

/**
 * Packing from the products of an old `PATCH /orders/update.php` to TO_SHIP: the serial codes
 * scanned for each line (strings or `{ serialCode }`), by line. Products without codes are skipped.
 */
export function packingOf(products: readonly unknown[], lines: readonly LineRefOfOrder[]): Array<{ lineID: string; serialCodes: string[] }> {
  const out = new Map<string, string[]>();
  for (const p of products) {
    if (!isObj(p) || !Array.isArray(p.serialCodes)) continue;
    const codes = p.serialCodes
      .map((c) => (typeof c === 'string' ? c : isObj(c) && typeof c.serialCode === 'string' ? c.serialCode : undefined))
      .filter((c): c is string => c !== undefined);
    if (codes.length === 0) continue;
    const { lineIDs } = matchLines([p], lines);
    const id = lineIDs[0];
    if (!id) continue;
    out.set(id, [...(out.get(id) ?? []), ...codes]);
  }
  return [...out.entries()].map(([lineID, serialCodes]) => ({ lineID, serialCodes }));
}
