import { defineConfig } from 'vitest/config';

/**
 * One vitest run for every workspace. Each project has its own vitest.config.ts:
 * node projects (contracts, platform, services, gateway) and browser-like ones (happy-dom) for React.
 */
export default defineConfig({
  test: {
    // Four files at a time. vitest's default is one fewer worker than cores: 1 on this machine
    // kind's 2 cores, which left the CPU half idle — most files wait on PostgreSQL and NATS, not
    // on the CPU. Files cannot disturb each other: each service test has a database of its own
    // (createTestDatabase), and durable consumers and request subjects named after its run, or a
    // NATS prefix of its own (testNatsPrefix). Measured on 2 cores: 740 s at one worker, 458 s at
    // three, 293 s at four (docs/decisions.md, "Unit stage: four files at a time").
    maxWorkers: 4,
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
