import { formatMoneyString } from '@dme/contracts';

export const money = (v: string) => formatMoneyString(v);

/** "$15.00 – $24.00 / day" for rent, "$19.99" for sale. */
export function priceRange(min: string, max: string, rent: boolean): string {
  const range = min === max ? money(min) : `${money(min)} – ${money(max)}`;
  return rent ? `${range} / day` : range;
}

export const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
