/**
 * The shop's search and filters (issue 27) as they live in the URL, so Back and reload keep them:
 * `?search=&type=&minPrice=&maxPrice=&available=&page=`. Defaults are left out of the URL; a value
 * the URL carries that the API would refuse (a bad amount, a lowest price above the highest) is
 * dropped rather than shown as an error.
 */
import type { CardQuery } from '../../lib/catalogApi';

export type ShopType = CardQuery['type'];

export interface ShopFilters {
  search: string;
  /** '' = both sections. */
  type: '' | ShopType;
  /** Amounts as typed ("25", "25.50"); '' = no bound. */
  minPrice: string;
  maxPrice: string;
  /** Only products in stock today. */
  available: boolean;
  /** Pages of cards shown in each section ("Load more"), 1 or more. */
  page: number;
}

export const NO_FILTERS: ShopFilters = { search: '', type: '', minPrice: '', maxPrice: '', available: false, page: 1 };

/** The same amounts the API takes (ProductListQuery's minPrice/maxPrice). */
const AMOUNT = /^\d{1,6}(\.\d{1,2})?$/;
const MAX_PAGES = 50;

export const isAmount = (v: string) => AMOUNT.test(v);
/** Compares two valid amounts without floating point ("9.5" < "10"). */
const cents = (v: string) => {
  const [units = '0', fraction = ''] = v.split('.');
  return Number(units) * 100 + Number(fraction.padEnd(2, '0'));
};
export const priceOrderOk = (min: string, max: string) => !min || !max || cents(min) <= cents(max);

export function filtersFromUrl(params: URLSearchParams): ShopFilters {
  const type = params.get('type');
  let minPrice = params.get('minPrice')?.trim() ?? '';
  let maxPrice = params.get('maxPrice')?.trim() ?? '';
  if (!isAmount(minPrice)) minPrice = '';
  if (!isAmount(maxPrice)) maxPrice = '';
  if (!priceOrderOk(minPrice, maxPrice)) maxPrice = '';
  const page = Number(params.get('page'));
  return {
    search: (params.get('search') ?? '').trim().slice(0, 100),
    type: type === 'FOR_RENT' || type === 'FOR_SALE' ? type : '',
    minPrice,
    maxPrice,
    available: params.get('available') === 'true',
    page: Number.isInteger(page) && page >= 1 ? Math.min(page, MAX_PAGES) : 1,
  };
}

export function filtersToUrl(f: ShopFilters): URLSearchParams {
  const out = new URLSearchParams();
  if (f.search) out.set('search', f.search);
  if (f.type) out.set('type', f.type);
  if (f.minPrice) out.set('minPrice', f.minPrice);
  if (f.maxPrice) out.set('maxPrice', f.maxPrice);
  if (f.available) out.set('available', 'true');
  if (f.page > 1) out.set('page', String(f.page));
  return out;
}

/** True when the customer narrowed the list (a search or any filter). */
export const isFiltered = (f: ShopFilters) => Boolean(f.search || f.type || f.minPrice || f.maxPrice || f.available);

export function cardQuery(type: ShopType, f: Pick<ShopFilters, 'search' | 'minPrice' | 'maxPrice' | 'available'>): CardQuery {
  return {
    type,
    ...(f.search ? { search: f.search } : {}),
    ...(f.minPrice ? { minPrice: f.minPrice } : {}),
    ...(f.maxPrice ? { maxPrice: f.maxPrice } : {}),
    ...(f.available ? { available: 'true' as const } : {}),
  };
}
