/**
 * A one-second micro-cache for the shop's public product list, with request coalescing: under
 * load every visitor of the dashboard asks for the same first pages, and they share one query a
 * second. A catalog write clears it at once on every replica (createApp, over NATS); reservations do not (a card's
 * availability may be up to a second old; the product page and checkout read live counts).
 */
export class MicroCache<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  constructor(
    private ttlMs = 1000,
    private readonly maxEntries = 500,
  ) {}

  /** How long an answer is reused; 0 turns the cache off (every call loads). */
  setTtl(ms: number): void {
    this.ttlMs = ms;
    this.entries.clear();
  }

  get(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = load();
    this.entries.set(key, { at: now, value });
    // A failed load is not kept.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
