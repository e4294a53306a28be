import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './chromium';

const baseURL = process.env.E2E_BASE_URL ?? 'http://localhost:8080';

/**
 * End-to-end suites against the real stack started by `npm test` (or `npm start`: set
 * E2E_BASE_URL). Debian's Chromium, never a downloaded browser (STACK P18).
 */
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // Whole journeys (create a bin, a product with 2×2 variants, stock, decode a QR...) take 40-55 s
  // on a loaded 2-core machine. Each step waits for a state, up to 20 s: under the full suite (six
  // processes, two browsers, PostgreSQL on two cores) a role's first screen has taken over 10 s to
  // draw where it takes 1.5 s on a quiet machine, which is slowness, not a wrong state.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list'], ['json']],
  use: {
    baseURL,
    headless: true,
    // A failed test keeps its trace (each step's DOM, network and console) but not the trace's
    // screencast: its screenshots cost the browser a frame on every change of every page, and took
    // a third of the suite's time (a sample of specs: 78 s with them, 53 s without, 49 s untraced).
    // The failure's own screenshot is still taken (below).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_EXECUTABLE,
      args: CHROMIUM_ARGS,
    },
  },
  outputDir: '../.data/test-results/playwright',
});
