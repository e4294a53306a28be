import { formatMoney, formatMoneyString } from '@dme/contracts/browser';

/** An amount for display: integer cents (12345) or a wire string ("123.45") → "$123.45" (contracts' formatting). */
export function money(value: number | string): string {
  return typeof value === 'number' ? formatMoney(value) : formatMoneyString(value);
}

/** An amount as the user sees it ("$1,234.50"); `value` is integer cents or a wire money string. */
export function Money({ value }: { value: number | string }) {
  return <>{money(value)}</>;
}
