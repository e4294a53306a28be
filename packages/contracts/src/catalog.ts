import { z } from 'zod';
import { PRODUCT_TYPES, STOCK_STATUSES, INVENTORY_TYPES } from './enums';
import { isMoneyString, toCents } from './money';
import { imagePathField, Pagination } from './identity';
import { requiredText, searchParam, text } from './text';
import { MAX_CHECKLIST_POINTS, MAX_SERVICE_INTERVAL_DAYS } from './stock-status';
import { CATALOG_MESSAGES } from './catalog-messages';
import { DEFAULT_TURNAROUND_DAYS, MAX_TURNAROUND_DAYS } from './terms';
import { RentalTermsSchema } from './rental-terms';

const TURNAROUND_ERROR = `Turnaround days must be a whole number from 0 to ${MAX_TURNAROUND_DAYS}.`;

/** A money amount on the wire: "25.00" (also accepts a number with ≤ 2 decimals). */
export const moneyField = (required: string) =>
  z
    .union([z.string(), z.number()], { error: required })
    .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
    .refine((v) => v.length > 0, { error: required, abort: true })
    .refine((v) => isMoneyString(v) && toCents(v) >= 0 && toCents(v) <= 99_999_999, { error: CATALOG_MESSAGES.product.badMoney })
    .transform((v) => toCents(v));

/** Widths of the catalog columns (services/catalog/src/migrations): names varchar(100). */
const NAME_MAX = 100;

// ---- warehouse bins
export const BinRequest = z.object({
  name: requiredText(CATALOG_MESSAGES.bin.name, NAME_MAX),
  description: requiredText(CATALOG_MESSAGES.bin.description, 500),
});
export type BinRequest = z.input<typeof BinRequest>;

export const Bin = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string(),
  stockCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Bin = z.infer<typeof Bin>;
export const BinResponse = z.object({ bin: Bin });
export type BinResponse = z.infer<typeof BinResponse>;
export const BinListQuery = Pagination.extend({ search: searchParam() });
export const BinListResponse = z.object({ items: z.array(Bin), total: z.number().int() });
export type BinListResponse = z.infer<typeof BinListResponse>;

// ---- products
const SubVariantInput = z.object({
  id: z.string().uuid().optional(),
  name: requiredText(CATALOG_MESSAGES.product.subVariantName, NAME_MAX),
  price: moneyField(CATALOG_MESSAGES.product.subVariantPrice),
  damageCharges: moneyField(CATALOG_MESSAGES.product.subVariantPrice),
});

const VariantInput = z.object({
  id: z.string().uuid().optional(),
  name: requiredText(CATALOG_MESSAGES.product.variantName, NAME_MAX),
  /** Required unless the variant has sub-variants (then each sub-variant carries its price). */
  price: moneyField(CATALOG_MESSAGES.product.variantPrice).optional(),
  damageCharges: moneyField(CATALOG_MESSAGES.product.variantPrice).optional(),
  subVariants: z.array(SubVariantInput).max(50).default([]),
});

function uniqueNames(list: Array<{ name: string }>): boolean {
  const seen = new Set<string>();
  for (const { name } of list) {
    const k = name.trim().toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
  }
  return true;
}

/** A product's inspection checklist (issue 26): the points answered when a returned unit is inspected. */
export const InspectionChecklist = z
  .array(text({ max: 120 }).refine((s) => s.length > 0, { error: 'A checklist point cannot be empty.' }))
  .max(MAX_CHECKLIST_POINTS, { error: `A checklist has at most ${MAX_CHECKLIST_POINTS} points.` })
  .refine((a) => new Set(a.map((s) => s.toLowerCase())).size === a.length, { error: 'Each checklist point once.' });

const PLAN_DAYS_ERROR = `Enter a whole number of days from 1 to ${MAX_SERVICE_INTERVAL_DAYS}, or leave it empty.`;
const planDays = z.number({ error: PLAN_DAYS_ERROR }).int({ error: PLAN_DAYS_ERROR }).min(1, { error: PLAN_DAYS_ERROR }).max(MAX_SERVICE_INTERVAL_DAYS, { error: PLAN_DAYS_ERROR });

/**
 * A rental product's preventive maintenance plan (issue 26): each unit is serviced every
 * `everyRentalDays` days of rental and/or every `everyDays` calendar days since its last service,
 * answering `checklist`.
 */
export const MaintenancePlan = z
  .object({ everyRentalDays: planDays.nullable().default(null), everyDays: planDays.nullable().default(null), checklist: InspectionChecklist.default([]) })
  .refine((p) => p.everyRentalDays !== null || p.everyDays !== null, { error: 'Give the plan rental days, calendar days or both.', path: ['everyRentalDays'] });
export type MaintenancePlan = z.output<typeof MaintenancePlan>;

export const ProductRequest = z
  .object({
    brand: requiredText(CATALOG_MESSAGES.product.brand, NAME_MAX),
    name: requiredText(CATALOG_MESSAGES.product.name, NAME_MAX),
    description: requiredText(CATALOG_MESSAGES.product.description, 4000),
    type: z.enum(PRODUCT_TYPES, { error: CATALOG_MESSAGES.product.type }),
    image: imagePathField(CATALOG_MESSAGES.product.image),
    price: moneyField(CATALOG_MESSAGES.product.price),
    damageCharges: moneyField(CATALOG_MESSAGES.product.damageCharges),
    /** Rental products (issue 25): days a returned unit needs (cleaning, inspection) before its next rental; absent: as it was (1 for a new product). */
    turnaroundDays: z
      .number({ error: TURNAROUND_ERROR })
      .int({ error: TURNAROUND_ERROR })
      .min(0, { error: TURNAROUND_ERROR })
      .max(MAX_TURNAROUND_DAYS, { error: TURNAROUND_ERROR })
      .optional(),
    /** Points answered when a returned unit is inspected (issue 26); absent: as it was (none for a new product). */
    inspectionChecklist: InspectionChecklist.optional(),
    /** Rentals: the preventive maintenance plan of its units (issue 26); null: none; absent: as it was. */
    maintenance: MaintenancePlan.nullable().optional(),
    /** Rentals: the money terms (issue 29: deposit, late fee, grace, cap); null: none; absent: as it was. */
    rentalTerms: RentalTermsSchema.nullable().optional(),
    variants: z.array(VariantInput).max(50).default([]),
  })
  .superRefine((p, ctx) => {
    if (!uniqueNames(p.variants)) ctx.addIssue({ code: 'custom', path: ['variants'], message: CATALOG_MESSAGES.product.variantNamesUnique });
    p.variants.forEach((v, i) => {
      if (!uniqueNames(v.subVariants)) {
        ctx.addIssue({ code: 'custom', path: ['variants', i, 'subVariants'], message: CATALOG_MESSAGES.product.subVariantNamesUnique });
      }
      if (v.subVariants.length === 0 && (v.price === undefined || v.damageCharges === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['variants', i, 'price'], message: CATALOG_MESSAGES.product.variantPrice });
      }
    });
  });
export type ProductRequest = z.input<typeof ProductRequest>;
export type ProductInput = z.output<typeof ProductRequest>;

export const StockCounts = z.object({
  quantity: z.number().int(),
  availableQuantity: z.number().int(),
  rentedQuantity: z.number().int(),
  damagedQuantity: z.number().int(),
  lostQuantity: z.number().int(),
  soldQuantity: z.number().int(),
  /** Issue 26: units on their way back to the shelf (returned, cleaned, inspected, found), in repair, on hold, and gone (scrapped, written off). */
  servicingQuantity: z.number().int().default(0),
  repairQuantity: z.number().int().default(0),
  heldQuantity: z.number().int().default(0),
  retiredQuantity: z.number().int().default(0),
});
export type StockCounts = z.infer<typeof StockCounts>;

export const SubVariant = StockCounts.extend({
  id: z.string().uuid(),
  name: z.string(),
  price: z.string(),
  damageCharges: z.string(),
});
export type SubVariant = z.infer<typeof SubVariant>;

export const Variant = StockCounts.extend({
  id: z.string().uuid(),
  productID: z.string().uuid(),
  name: z.string(),
  /** null when the variant's sub-variants carry the prices. */
  price: z.string().nullable(),
  damageCharges: z.string().nullable(),
  subVariants: z.array(SubVariant),
});
export type Variant = z.infer<typeof Variant>;

export const Product = StockCounts.extend({
  id: z.string().uuid(),
  name: z.string(),
  brand: z.string(),
  description: z.string(),
  type: z.enum(PRODUCT_TYPES),
  image: z.string(),
  price: z.string(),
  damageCharges: z.string(),
  /** Days between two rentals of a unit (cleaning, inspection; issue 25). */
  turnaroundDays: z.number().int().default(DEFAULT_TURNAROUND_DAYS),
  /** The points answered when a returned unit is inspected (issue 26). */
  inspectionChecklist: z.array(z.string()).default([]),
  /** Its units' preventive maintenance plan (issue 26), if any. */
  maintenance: z.object({ everyRentalDays: z.number().int().nullable(), everyDays: z.number().int().nullable(), checklist: z.array(z.string()) }).nullable().default(null),
  /** A rental's money terms (issue 29): deposit, late fee per day, grace days, cap; null: none. */
  rentalTerms: RentalTermsSchema.nullable().default(null),
  /** Lowest and highest price the customer can pick (per day for rent). */
  priceMin: z.string(),
  priceMax: z.string(),
  archived: z.boolean(),
  variants: z.array(Variant),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Product = z.infer<typeof Product>;
export const ProductResponse = z.object({ product: Product });

/** A card of the shop grid. */
export const ProductCard = z.object({
  id: z.string().uuid(),
  name: z.string(),
  brand: z.string(),
  image: z.string(),
  type: z.enum(PRODUCT_TYPES),
  priceMin: z.string(),
  priceMax: z.string(),
  availableQuantity: z.number().int(),
  soldQuantity: z.number().int(),
  inStock: z.boolean(),
});
export type ProductCard = z.infer<typeof ProductCard>;

/** A price bound of the shop's filter in a query string: "25", "25.5" or "25.50" → cents. */
const queryMoney = z
  .string({ error: CATALOG_MESSAGES.product.badMoney })
  .regex(/^\d{1,6}(\.\d{1,2})?$/, { error: CATALOG_MESSAGES.product.badMoney })
  .transform((v) => toCents(v));

/**
 * The shop list (issue 27): `search` is ranked text search over name, brand and description
 * (typo-tolerant on name and brand); `minPrice`/`maxPrice` keep the products with a price the
 * customer can pick in that range (per day for rent); `available=true` only those in stock.
 */
/** What both product lists (the shop's, the warehouse's) are narrowed by: a page, a type and words. */
const ProductListBase = Pagination.extend({
  type: z.enum(PRODUCT_TYPES).optional(),
  search: searchParam(),
});

export const ProductListQuery = ProductListBase.extend({
  minPrice: queryMoney.optional(),
  maxPrice: queryMoney.optional(),
  available: z.enum(['true', 'false']).optional().transform((v) => v === 'true'),
}).refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, { error: CATALOG_MESSAGES.search.priceOrder, path: ['maxPrice'] });
export type ProductListQuery = z.input<typeof ProductListQuery>;
export const ProductCardListResponse = z.object({ items: z.array(ProductCard), total: z.number().int() });
export type ProductCardListResponse = z.infer<typeof ProductCardListResponse>;

export const AdminProductListQuery = ProductListBase.extend({
  includeArchived: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
});
export const ProductListResponse = z.object({ items: z.array(Product), total: z.number().int() });
export type ProductListResponse = z.infer<typeof ProductListResponse>;

export const ProductDeleteResponse = z.object({ result: z.enum(['deleted', 'archived']), message: z.string() });

// ---- stock
export const AddStockRequest = z.object({
  productID: z.string({ error: 'Please choose a product.' }).uuid({ error: 'Please choose a product.' }),
  warehouseBinID: z.string({ error: CATALOG_MESSAGES.stock.bin }).uuid({ error: CATALOG_MESSAGES.stock.bin }),
  /** A JSON number only: missing (or empty) → "Please input Quantity!", anything else that is not 1..500 → the range. */
  quantity: z
    .number({
      error: (iss) =>
        iss.input === undefined || iss.input === null || iss.input === '' ? CATALOG_MESSAGES.stock.quantity : CATALOG_MESSAGES.stock.quantityRange,
    })
    .int({ error: CATALOG_MESSAGES.stock.quantityRange })
    .min(1, { error: CATALOG_MESSAGES.stock.quantityRange })
    .max(500, { error: CATALOG_MESSAGES.stock.quantityRange }),
  productVariantID: z.string().uuid().nullish(),
  productSubVariantID: z.string().uuid().nullish(),
});
export type AddStockRequest = z.input<typeof AddStockRequest>;

export const StockItem = z.object({
  id: z.string().uuid(),
  serialCode: z.string(),
  status: z.enum(STOCK_STATUSES),
  inventoryType: z.enum(INVENTORY_TYPES),
  productID: z.string().uuid(),
  productName: z.string(),
  productVariantID: z.string().uuid().nullable(),
  variantName: z.string().nullable(),
  productSubVariantID: z.string().uuid().nullable(),
  subVariantName: z.string().nullable(),
  warehouseBinID: z.string().uuid(),
  warehouseBin: z.object({ name: z.string() }),
  batchID: z.string().uuid(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /**
   * Issue 27: an AVAILABLE unit taken today by a booking (a rental placed and not packed yet, or a
   * downtime): one of the units the product's available count leaves out. The order when it is an
   * order's; null when nothing takes the unit today.
   */
  reservedFor: z
    .object({
      kind: z.enum(['ORDER', 'DOWNTIME']),
      orderID: z.string().uuid().nullable(),
      orderNumber: z.string().nullable(),
      /** The booking's last day (YYYY-MM-DD, Manila). */
      until: z.string(),
    })
    .nullable(),
});
export type StockItem = z.infer<typeof StockItem>;

export const AddStockResponse = z.object({ batchID: z.string().uuid(), items: z.array(StockItem) });
export const StockItemResponse = z.object({ item: StockItem });
/** A serial code in a path (packing looks an item up by the code on its label). */
export const SerialParams = z.object({ serialCode: z.string().min(1).max(40).regex(/^[A-Za-z0-9-]+$/, { error: 'Not found.' }) });
export type AddStockResponse = z.infer<typeof AddStockResponse>;

export const StockListQuery = Pagination.extend({
  productID: z.string().uuid().optional(),
  productVariantID: z.string().uuid().optional(),
  productSubVariantID: z.string().uuid().optional(),
  warehouseBinID: z.string().uuid().optional(),
  status: z.enum(STOCK_STATUSES).optional(),
});
export const StockListResponse = z.object({ items: z.array(StockItem), total: z.number().int() });
export type StockListResponse = z.infer<typeof StockListResponse>;

export const QrQuery = z.object({
  /** serial: {"productID","serialCode"} (SPEC §3); id: {"stockID"} (bin stock list). */
  payload: z.enum(['serial', 'id']).default('serial'),
});

/** The QR payload of a stock item (SPEC §3). */
export function stockQrPayload(item: { productID: string; serialCode: string }): string {
  return JSON.stringify({ productID: item.productID, serialCode: item.serialCode });
}

/** The QR payload on the bin stock list: the stock id. */
export function binStockQrPayload(item: { id: string }): string {
  return JSON.stringify({ stockID: item.id });
}
