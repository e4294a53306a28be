import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Browser, type BrowserContext, type Request } from '@playwright/test';

export const DEMO_PASSWORD = process.env.E2E_DEMO_PASSWORD ?? 'demo-pass-2026';

export const DEMO = {
  superadmin: { username: 'superadmin', userType: 'SUPERADMIN', home: '/admin/users', remote: undefined },
  warehouseadmin: { username: 'warehouseadmin', userType: 'WAREHOUSE_ADMIN', home: '/admin/warehouse-bins', remote: 'mf-warehouse' },
  warehousestaff: { username: 'warehousestaff', userType: 'WAREHOUSE_STAFF', home: '/admin/warehouse-bins', remote: 'mf-warehouse' },
  accounting: { username: 'accounting', userType: 'ACCOUNTING_ADMIN', home: '/admin/payments', remote: 'mf-accounting' },
  driver: { username: 'driver', userType: 'DRIVER', home: '/admin/for-delivery', remote: 'mf-driver' },
  customer: { username: 'customer', userType: 'CUSTOMER', home: '/dashboard', remote: 'mf-shop' },
} as const;

export const REMOTES = ['mf-shop', 'mf-warehouse', 'mf-accounting', 'mf-driver'] as const;

/**
 * Every request the page makes, for checks on what a role downloads; and, for a failed test, what
 * went wrong on the network in any of its browser contexts (answers of 500 and above, API calls
 * that never got an answer), kept beside its page snapshot (network.txt) for `npm test` to print.
 * The browser contexts a test opens are closed when it ends.
 */
export const test = base.extend<{ requests: Request[]; networkTrouble: void }>({
  requests: async ({ page }, use) => {
    const seen: Request[] = [];
    page.on('request', (r) => seen.push(r));
    await use(seen);
  },
  networkTrouble: [
    async ({ browser, context }, use, testInfo) => {
      const lines: string[] = [];
      const at = () => new Date().toISOString().slice(11, 23);
      const watch = (ctx: BrowserContext) => {
        ctx.on('response', (r) => {
          if (r.status() >= 500) lines.push(`${at()} ${r.status()} ${r.request().method()} ${r.url()}`);
        });
        ctx.on('requestfailed', (r) => {
          if (new URL(r.url()).pathname.startsWith('/api/')) lines.push(`${at()} no answer (${r.failure()?.errorText ?? '?'}) ${r.method()} ${r.url()}`);
        });
      };
      watch(context);
      const opened: BrowserContext[] = [];
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<Browser['newContext']>) => {
        const ctx = await newContext(...args);
        watch(ctx);
        opened.push(ctx);
        return ctx;
      };
      await use();
      browser.newContext = newContext;
      // Every browser context the test opened is closed with it: one left open keeps its pages,
      // their live stream and their refetches on every order event for the rest of the run.
      await Promise.all(opened.map((ctx) => ctx.close().catch(() => undefined)));
      if (testInfo.status !== testInfo.expectedStatus && lines.length > 0) {
        mkdirSync(testInfo.outputDir, { recursive: true });
        writeFileSync(join(testInfo.outputDir, 'network.txt'), lines.join('\n'));
      }
    },
    { auto: true },
  ],
});

export { expect };

export function remotesRequested(requests: Request[]): string[] {
  const names = new Set<string>();
  for (const r of requests) {
    const m = /\/remotes\/([a-z-]+)\//.exec(new URL(r.url()).pathname);
    if (m) names.add(m[1]!);
  }
  return [...names].sort();
}
