import { describe, expect, it } from 'vitest';
import { isAllowed } from './permissions';
import { ROUTES } from './routes';
import { USER_TYPES } from './enums';
import { REMOTE_PATHS } from './navigation';
import { ROLE_WORK, WORK_SOURCES, workCount, workOf, workSources, type WorkItem } from './work';

const routeOf = (url: string) => {
  const path = url.split('?')[0]!;
  return Object.values(ROUTES).find((r) => r.method === 'GET' && r.path === path);
};

describe('"needs you now" (issue 27)', () => {
  it('every count a role sees reads a list route that role may read, and opens one of its screens', () => {
    for (const userType of USER_TYPES) {
      for (const item of workOf(userType)) {
        const route = routeOf(WORK_SOURCES[item.source]);
        expect(route, item.key).toBeDefined();
        expect(isAllowed(route!.access, userType), `${userType} ${item.key}`).toBe(true);
        const path = item.href.split('?')[0]!;
        expect(Object.values(REMOTE_PATHS).flat().some((p) => path === p || path.startsWith(`${p}/`)), item.href).toBe(true);
      }
    }
    expect(workOf('CUSTOMER')).toEqual([]);
    expect(workOf(undefined)).toEqual([]);
    expect(Object.keys(ROLE_WORK).sort()).toEqual(['ACCOUNTING_ADMIN', 'DRIVER', 'SUPERADMIN', 'WAREHOUSE_ADMIN', 'WAREHOUSE_STAFF']);
  });

  it('reads each list once however many counts come from it', () => {
    expect(workSources(workOf('ACCOUNTING_ADMIN'))).toEqual(['payments', 'reconciliation']);
    expect(workSources(workOf('WAREHOUSE_STAFF'))).toEqual(['rentalOrders', 'purchaseOrders', 'ongoingRentals', 'units', 'atRisk']);
  });

  it('takes a count from the answer: the total, the number of items, a tab (absent: none there)', () => {
    const item = (count: WorkItem['count']): WorkItem => ({ key: 'k', label: 'l', one: 'o', source: 'payments', count, href: '/admin/payments' });
    expect(workCount(item('total'), { items: [{}], total: 7 })).toBe(7);
    expect(workCount(item('items'), { items: [{}, {}] })).toBe(2);
    expect(workCount(item('counts.PENDING'), { items: [], total: 0, counts: { PENDING: 3 } })).toBe(3);
    expect(workCount(item('counts.PREPARING'), { items: [], total: 0, counts: { PENDING: 3 } })).toBe(0);
    // Issue 29: the payments list's count of refunds to pay back (an older answer without it: not counted).
    expect(workCount(item('refundsDue'), { items: [], total: 0, counts: {}, refundsDue: 2 })).toBe(2);
    expect(workCount(item('refundsDue'), { items: [], total: 0, counts: {} })).toBeUndefined();
    expect(workCount(item('mismatches'), { items: [], mismatches: 4 })).toBe(4);
    for (const bad of [undefined, null, 'x', {}, { total: -1 }, { total: 1.5 }, { counts: { PENDING: 'x' } }]) {
      expect(workCount(item(bad && typeof bad === 'object' && 'counts' in bad ? 'counts.PENDING' : 'total'), bad)).toBeUndefined();
    }
  });
});
