/** The result of one item of a batch: its value, or the error that item alone is refused with. */
export type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

export interface MicroBatcherOptions {
  /** Most items handed to one run (default 64). */
  maxBatch?: number;
}

/**
 * Work items that arrive while the previous batch is running wait and go together as the next
 * batch (application-level group commit): under load, one statement and one commit serve many
 * requests, and a hot row is locked once per batch instead of once per request. Alone, an item
 * costs what it did without batching (one turn of the event loop later).
 *
 * Batches run one after another, items in the order they arrived. `run` answers one Settled per
 * item, in order. If `run` fails as a whole (the database gone, a deadlock), each item of that
 * batch is run again alone, so one item can never fail the others.
 */
export class MicroBatcher<I, O> {
  private readonly waiting: Array<{ item: I; resolve: (value: O) => void; reject: (error: unknown) => void }> = [];
  private running = false;
  private readonly maxBatch: number;

  constructor(
    private readonly run: (items: I[]) => Promise<Array<Settled<O>>>,
    opts: MicroBatcherOptions = {},
  ) {
    this.maxBatch = Math.max(1, opts.maxBatch ?? 64);
  }

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      // The items that came in the same turn of the event loop go together.
      await new Promise((r) => setImmediate(r));
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0, this.maxBatch);
        let results: Array<Settled<O>>;
        try {
          results = await this.run(batch.map((b) => b.item));
          if (results.length !== batch.length) throw new Error(`MicroBatcher: ${results.length} results for ${batch.length} items`);
        } catch (err) {
          if (batch.length === 1) {
            batch[0]!.reject(err);
            continue;
          }
          results = [];
          for (const b of batch) {
            results.push(await this.run([b.item]).then(([r]) => r ?? { ok: false as const, error: new Error('MicroBatcher: no result') }, (error: unknown) => ({ ok: false as const, error })));
          }
        }
        results.forEach((r, i) => (r.ok ? batch[i]!.resolve(r.value) : batch[i]!.reject(r.error)));
      }
    } finally {
      this.running = false;
    }
  }
}
