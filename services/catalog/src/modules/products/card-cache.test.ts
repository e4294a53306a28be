import { describe, expect, it, vi } from 'vitest';
import { MicroCache } from './card-cache';

describe('MicroCache', () => {
  it('shares one load among concurrent and recent callers, reloads after the ttl or a clear', async () => {
    const cache = new MicroCache<number>(1000);
    const load = vi.fn().mockResolvedValue(1);
    const [a, b] = await Promise.all([cache.get('k', load, 0), cache.get('k', load, 10)]);
    expect([a, b]).toEqual([1, 1]);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('k', load, 999);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get('k', load, 1000);
    expect(load).toHaveBeenCalledTimes(2);
    cache.clear();
    await cache.get('k', load, 1001);
    expect(load).toHaveBeenCalledTimes(3);
    await cache.get('other', load, 1002);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it('does not keep a failed load', async () => {
    const cache = new MicroCache<number>(1000);
    await expect(cache.get('k', () => Promise.reject(new Error('db down')), 0)).rejects.toThrow('db down');
    await expect(cache.get('k', () => Promise.resolve(2), 1)).resolves.toBe(2);
  });

  it('with a ttl of 0 (PRODUCT_LIST_CACHE_MS=0) every call loads', async () => {
    const cache = new MicroCache<number>(1000);
    cache.setTtl(0);
    const load = vi.fn().mockResolvedValue(1);
    await Promise.all([cache.get('k', load, 0), cache.get('k', load, 0)]);
    await cache.get('k', load, 1);
    expect(load).toHaveBeenCalledTimes(3);
  });
});
