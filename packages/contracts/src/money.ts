/**
 * Money (DESIGN §5): integer cents in code, strings with two decimals on the wire ("123.45"),
 * shown as "$1,234.50". No floating point arithmetic on money.
 */
export type Cents = number;

const MONEY_RE = /^(-)?(\d{1,10})(?:\.(\d{1,2}))?$/;

/** Parses "123.45", "123.4", "123" (or a safe integer-valued number of units) into cents. */
export function toCents(value: string | number): Cents {
  const text = typeof value === 'number' ? numberToText(value) : value.trim();
  const m = MONEY_RE.exec(text);
  if (!m) throw new RangeError(`Not a money amount: ${String(value)}`);
  const units = Number(m[2]);
  const fraction = Number((m[3] ?? '').padEnd(2, '0'));
  const cents = units * 100 + fraction;
  return m[1] ? -cents : cents;
}

function numberToText(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`Not a money amount: ${n}`);
  // A number is accepted only when it has at most two decimals; we go through its decimal text.
  const text = n.toFixed(2);
  if (Math.abs(Number(text) - n) > 1e-9) throw new RangeError(`More than two decimals: ${n}`);
  return text;
}

export function isMoneyString(value: string): boolean {
  return MONEY_RE.test(value.trim());
}

/** 12345 → "123.45" (the wire format). */
export function centsToString(cents: Cents): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100);
  const fraction = abs % 100;
  return `${sign}${units}.${String(fraction).padStart(2, '0')}`;
}

/** 123450 → "$1,234.50" (what the user sees). */
export function formatMoney(cents: Cents): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${units}.${String(abs % 100).padStart(2, '0')}`;
}

/** Formats a wire amount ("1234.5") for display ("$1,234.50"). */
export function formatMoneyString(value: string): string {
  return formatMoney(toCents(value));
}

/** quantity × unit price (× days for rentals), in cents. */
export function lineTotal(unitPriceCents: Cents, quantity: number, days = 1): Cents {
  assertCents(unitPriceCents);
  if (!Number.isInteger(quantity) || quantity < 0) throw new RangeError(`Bad quantity: ${quantity}`);
  if (!Number.isInteger(days) || days < 0) throw new RangeError(`Bad days: ${days}`);
  return assertCents(unitPriceCents * quantity * days);
}

export function sumCents(values: readonly Cents[]): Cents {
  return assertCents(values.reduce((a, b) => a + b, 0));
}

function assertCents(cents: Cents): Cents {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not an integer number of cents: ${cents}`);
  return cents;
}

/** "$15.00" or "$15.00 – $24.00", with " / day" for rentals (prices are per day, DESIGN §5). */
export function formatPriceRange(min: string, max: string, perDay: boolean): string {
  const range = min === max ? formatMoneyString(min) : `${formatMoneyString(min)} – ${formatMoneyString(max)}`;
  return perDay ? `${range} / day` : range;
}

/** An amount that is there and not zero ("0.00", null or absent: none), for showing a row only when it says something. */
export function isNonZeroAmount(v: string | null | undefined): v is string {
  return !!v && toCents(v) !== 0;
}
