import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The replicas suite (issue 14): starts its own stack of two replicas per process on a fresh
 * database and its own NATS streams. Not a project of the root vitest.config.ts: the unit stage
 * never runs it.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  cacheDir: fileURLToPath(new URL('../../node_modules/.vite/e2e-replicas', import.meta.url)),
  test: {
    name: 'replicas',
    environment: 'node',
    include: ['**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 240_000,
    pool: 'forks',
  },
});
