import { describe, expect, it } from 'vitest';
import { nodeArgs, restartDelay } from './stack';

describe('the launcher (scripts/lib/stack.ts)', () => {
  it('runs each process from its built JavaScript, never through tsx', () => {
    for (const name of ['identity', 'catalog', 'order', 'payment', 'reporting', 'gateway']) {
      const args = nodeArgs(name);
      expect(args.slice(-2)).toEqual(['--enable-source-maps', 'dist/main.js']);
      expect(args.join(' ')).not.toMatch(/tsx|\.ts\b/);
    }
    // The report export's memory budget needs the small young generation.
    expect(nodeArgs('reporting')).toContain('--max-semi-space-size=4');
  });

  it('restarts a process killed once at once, and backs off while it keeps crashing', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(restartDelay)).toEqual([0, 250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});
