import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from './logger';
import { startPeriodic } from './polling';

describe('startPeriodic', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then every everyMs; a failure is logged and the next tick runs again; stop ends it', async () => {
    const warn = vi.fn();
    let calls = 0;
    const loop = startPeriodic(
      async () => {
        calls += 1;
        if (calls === 2) throw new Error('database gone');
      },
      { logger: { warn } as unknown as Logger, failure: 'fold failed, will retry', everyMs: 1000 },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    expect(warn).toHaveBeenCalledWith({ err: expect.objectContaining({ message: 'database gone' }) }, 'fold failed, will retry');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(3);
    await loop.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toBe(3);
  });
});
