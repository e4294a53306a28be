import { formatMoneyString, type ProductType } from '@dme/contracts';

/** "$15.00" or "$15.00 – $24.00", per day for rentals (DESIGN §5). */
export function priceRange(min: string, max: string, type: ProductType): string {
  const range = min === max ? formatMoneyString(min) : `${formatMoneyString(min)} – ${formatMoneyString(max)}`;
  return type === 'FOR_RENT' ? `${range} / day` : range;
}

export function TypeLabel({ type }: { type: ProductType }) {
  return <span>{type === 'FOR_RENT' ? 'For Rent' : 'For Sale'}</span>;
}
