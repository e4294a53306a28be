import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'scripts',
    environment: 'node',
    include: ['lib/**/*.test.ts'],
    // As the services' suites: the year's sample is generated again inside a test (2 s alone, past
    // vitest's default 5 s when four files share two cores, which failed a CI run).
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
