import { defineConfig } from 'vitest/config';

/**
 * One vitest run for every workspace. Each project has its own vitest.config.ts:
 * node projects (contracts, platform, services, gateway) and browser-like ones (happy-dom) for React.
 */
export default defineConfig({
  test: {
    projects: [
      'packages/*/vitest.config.ts',
      'services/*/vitest.config.ts',
      '{gateway,shell}/vitest.config.ts',
      'mf-*/vitest.config.ts',
      'scripts/vitest.config.ts',
      'deploy/vitest.config.ts',
    ],
  },
});
