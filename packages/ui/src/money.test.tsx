// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { Money, money } from './money';

describe('money', () => {
  it('formats integer cents, including the edges of a cent and of a dollar', () => {
    expect(money(0)).toBe('$0.00');
    expect(money(1)).toBe('$0.01');
    expect(money(9)).toBe('$0.09');
    expect(money(10)).toBe('$0.10');
    expect(money(99)).toBe('$0.99');
    expect(money(100)).toBe('$1.00');
    expect(money(1999)).toBe('$19.99');
    expect(money(-1)).toBe('-$0.01');
    expect(money(-123456)).toBe('-$1,234.56');
    expect(money(99999)).toBe('$999.99');
    expect(money(100000)).toBe('$1,000.00');
    expect(money(123456789)).toBe('$1,234,567.89');
  });

  it('formats wire money strings', () => {
    expect(money('19.99')).toBe('$19.99');
    expect(money('1234.5')).toBe('$1,234.50');
    expect(money('15')).toBe('$15.00');
    expect(money('0.05')).toBe('$0.05');
    expect(money('-3.10')).toBe('-$3.10');
  });

  it('refuses what is not money rather than rounding it', () => {
    expect(() => money(12.5)).toThrow(RangeError);
    expect(() => money(Number.NaN)).toThrow(RangeError);
    expect(() => money('12.345')).toThrow(RangeError);
    expect(() => money('abc')).toThrow(RangeError);
  });

  it('<Money> shows the formatted amount and nothing else', () => {
    const { container, rerender } = render(<Money value={1999} />);
    expect(container.textContent).toBe('$19.99');
    rerender(<Money value="270" />);
    expect(container.textContent).toBe('$270.00');
  });
});
