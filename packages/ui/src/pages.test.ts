import { describe, expect, it } from 'vitest';
import { nextOffset, uniqueRows } from './pages';

describe('paged lists', () => {
  it('asks for the next page while the server has more, and stops at the end or on an empty page', () => {
    expect(nextOffset({ items: [1, 2], total: 5 }, undefined, 0)).toBe(2);
    expect(nextOffset({ items: [3, 4], total: 5 }, undefined, 2)).toBe(4);
    expect(nextOffset({ items: [5], total: 5 }, undefined, 4)).toBeUndefined();
    expect(nextOffset({ items: [], total: 5 }, undefined, 4)).toBeUndefined();
  });

  it('shows each row once when offsets shifted between pages', () => {
    const a = { id: 'a' };
    const b = { id: 'b' };
    const c = { id: 'c' };
    expect(uniqueRows([{ items: [a, b] }, { items: [b, c] }])).toEqual([a, b, c]);
    expect(uniqueRows(undefined)).toEqual([]);
  });
});
