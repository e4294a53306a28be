import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'ui',
    environment: 'node',
    // Component tests (.test.tsx) run in happy-dom (their `@vitest-environment` line).
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
    // As the remotes' component tests: one test takes up to 1.3 s on a quiet machine, past vitest's
    // default 5 s when the machine is busy (the unit stage runs four files at a time on two cores).
    testTimeout: 20_000,
  },
});
