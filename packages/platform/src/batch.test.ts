import { describe, expect, it } from 'vitest';
import { MicroBatcher, type Settled } from './batch';

/** A batcher over numbers that records each run's items; `fail` decides a whole run's failure. */
function recorder(opts: { maxBatch?: number; fail?: (items: number[]) => boolean; refuse?: (n: number) => boolean; delayMs?: number } = {}) {
  const runs: number[][] = [];
  const batcher = new MicroBatcher<number, string>(
    async (items) => {
      runs.push([...items]);
      if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
      if (opts.fail?.(items)) throw new Error(`run of ${items.join(',')} failed`);
      return items.map((n): Settled<string> => (opts.refuse?.(n) ? { ok: false, error: new Error(`refused ${n}`) } : { ok: true, value: `done ${n}` }));
    },
    { maxBatch: opts.maxBatch },
  );
  return { runs, batcher };
}

describe('MicroBatcher', () => {
  it('items that arrive together go in one run, in the order they came, each with its own answer', async () => {
    const { runs, batcher } = recorder();
    const answers = await Promise.all([1, 2, 3, 4].map((n) => batcher.add(n)));
    expect(answers).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    expect(runs).toEqual([[1, 2, 3, 4]]);
  });

  it('items that arrive while a run is under way wait and go together as the next run; runs never overlap', async () => {
    const { runs, batcher } = recorder({ delayMs: 30 });
    const first = batcher.add(1);
    await new Promise((r) => setTimeout(r, 5)); // the first run has started
    const later = [2, 3, 4].map((n) => batcher.add(n));
    expect(await Promise.all([first, ...later])).toEqual(['done 1', 'done 2', 'done 3', 'done 4']);
    expect(runs).toEqual([[1], [2, 3, 4]]);
  });

  it('takes at most maxBatch items per run', async () => {
    const { runs, batcher } = recorder({ maxBatch: 2 });
    await Promise.all([1, 2, 3, 4, 5].map((n) => batcher.add(n)));
    expect(runs).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('an item its run refuses is rejected alone; the others get their answers', async () => {
    const { batcher } = recorder({ refuse: (n) => n === 2 });
    const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.add(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['done 1', 'refused 2', 'done 3']);
  });

  it('a run that fails as a whole is tried again item by item, so one poison item fails alone', async () => {
    const { runs, batcher } = recorder({ fail: (items) => items.includes(3) });
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => batcher.add(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(['done 1', 'done 2', 'run of 3 failed', 'done 4']);
    expect(runs).toEqual([[1, 2, 3, 4], [1], [2], [3], [4]]);
  });

  it('keeps working after a failed run', async () => {
    let broken = true;
    const batcher = new MicroBatcher<number, number>(async (items) => {
      if (broken) throw new Error('database gone');
      return items.map((n) => ({ ok: true as const, value: n * 2 }));
    });
    await expect(batcher.add(1)).rejects.toThrow('database gone');
    broken = false;
    expect(await batcher.add(2)).toBe(4);
  });
});
