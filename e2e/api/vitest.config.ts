import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/** Files in name order: the fuzz (which must see a healthy stack) before resilience (which kills a service). */
class ByName extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
  override async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return files;
  }
}

/**
 * The system suite against the running stack (`npm test -- api` starts it and sets E2E_*).
 * Not a project of the root vitest.config.ts: the unit stage never runs it.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  cacheDir: fileURLToPath(new URL('../../node_modules/.vite/e2e-api', import.meta.url)),
  test: {
    name: 'system',
    environment: 'node',
    include: ['**/*.test.ts'],
    fileParallelism: false,
    sequence: { sequencer: ByName },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
