import { test as base, expect, type Request } from '@playwright/test';

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

/** Every request the page makes, for checks on what a role downloads. */
export const test = base.extend<{ requests: Request[] }>({
  requests: async ({ page }, use) => {
    const seen: Request[] = [];
    page.on('request', (r) => seen.push(r));
    await use(seen);
  },
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
