import { describe, expect, it } from 'vitest';
import { centsToString, formatMoney, formatMoneyString, formatPriceRange, lineTotal, sumCents, toCents } from './money';

describe('money', () => {
  it('parses wire amounts into integer cents without floating point error', () => {
    expect(toCents('123.45')).toBe(12345);
    expect(toCents('0.1')).toBe(10);
    expect(toCents('19.99')).toBe(1999);
    expect(toCents('1000')).toBe(100000);
    expect(toCents(0.29)).toBe(29);
    expect(toCents('-5.50')).toBe(-550);
  });

  it('refuses amounts that are not money', () => {
    for (const bad of ['abc', '1.234', '', '1,000.00', '1e3', 'NaN']) expect(() => toCents(bad)).toThrow(RangeError);
    expect(() => toCents(1.005)).toThrow(RangeError);
  });

  it('writes cents as two-decimal strings and as dollars with thousands separators', () => {
    expect(centsToString(12345)).toBe('123.45');
    expect(centsToString(5)).toBe('0.05');
    expect(centsToString(-550)).toBe('-5.50');
    expect(formatMoney(123450)).toBe('$1,234.50');
    expect(formatMoney(100000000)).toBe('$1,000,000.00');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoneyString('1234.5')).toBe('$1,234.50');
  });

  it('computes rental and purchase line totals in cents (quantity × price × days)', () => {
    expect(lineTotal(1999, 3)).toBe(5997);
    expect(lineTotal(2550, 2, 7)).toBe(35700);
    // 0.1 + 0.2 style error cannot happen: cents are integers
    expect(sumCents([10, 20])).toBe(30);
    expect(() => lineTotal(10.5, 1)).toThrow(RangeError);
    expect(() => lineTotal(100, -1)).toThrow(RangeError);
  });
});

describe('price ranges', () => {
  it('shows one price or a range, per day for rentals', () => {
    expect(formatPriceRange('15.00', '24.00', true)).toBe('$15.00 – $24.00 / day');
    expect(formatPriceRange('19.99', '19.99', false)).toBe('$19.99');
    expect(formatPriceRange('1200.00', '1200.00', true)).toBe('$1,200.00 / day');
  });
});
