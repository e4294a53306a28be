import { formatMoneyString } from '@dme/contracts';

/** A wire amount ("1234.5") shown as "$1,234.50". */
export function Money({ value }: { value: string }) {
  return <span style={{ fontVariantNumeric: 'tabular-nums' }}>{formatMoneyString(value)}</span>;
}
