import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowed, routesOf, type UserType } from '@dme/contracts';
import type { Caller } from '@dme/testing';
import { startCatalog, type CatalogHarness } from './test/harness';

/**
 * Every catalog route of the contract table, checked in the service itself (not only in the
 * gateway): anonymous callers reach only the public routes, roles without the route's permission
 * get 403 before anything is read or written, warehouse staff pass on every catalog route.
 */
let h: CatalogHarness;
beforeAll(async () => {
  h = await startCatalog();
});
afterAll(() => h?.close());

const routes = routesOf('catalog');
const pathOf = (path: string) => path.replace(':id', randomUUID()).replace(':name', 'x.png');
const as = (userType: UserType): Caller => ({ userId: randomUUID(), userType });
const tableCount = async () =>
  (await h.orm.em.fork().execute<Array<{ n: number }>>(
    `select (select count(*) from catalog.products) + (select count(*) from catalog.warehouse_bins) + (select count(*) from catalog.stock_items)
       + (select count(*) from catalog.outbox) as n`,
  ))[0]!.n;

describe('catalog route access (in the service)', () => {
  it('the catalog serves bins, products, stock, labels and uploads', () => {
    expect(routes.map(([, r]) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'GET /api/warehouse-bins', 'POST /api/warehouse-bins', 'GET /api/warehouse-bins/:id', 'PATCH /api/warehouse-bins/:id',
        'DELETE /api/warehouse-bins/:id', 'GET /api/warehouse-bins/:id/stocks', 'GET /api/products', 'GET /api/products/:id',
        'POST /api/products', 'PATCH /api/products/:id', 'DELETE /api/products/:id', 'GET /api/admin/products',
        'GET /api/stocks', 'POST /api/stocks', 'GET /api/stocks/:id/qr.png', 'GET /api/stock-batches/:id/labels.pdf',
      ]),
    );
  });

  it('anonymous callers get 401 on every non-public route and reach the public ones', async () => {
    for (const [id, r] of routes) {
      const res = await h.api.call(r.method, pathOf(r.path), r.method === 'GET' ? {} : { body: {} });
      if (r.access === 'public') expect([401, 403], id).not.toContain(res.status);
      else expect(res.status, id).toBe(401);
    }
  });

  it.each(['CUSTOMER', 'ACCOUNTING_ADMIN', 'DRIVER'] as UserType[])('%s gets 403 on every catalog route beyond the shop, and nothing changes', async (role) => {
    const before = await tableCount();
    const caller = as(role);
    for (const [id, r] of routes) {
      if (r.access === 'public') continue;
      const res = await h.api.call(r.method, pathOf(r.path), r.method === 'GET' ? { as: caller } : { as: caller, body: {} });
      // A customer's own notices of bookings at risk (issue 25) are the one customer route here.
      if (isAllowed(r.access, role)) expect([role, id, res.status]).toEqual(['CUSTOMER', 'myBookingNotices', 200]);
      else expect(res.status, id).toBe(403);
    }
    expect(await tableCount()).toBe(before);
  });

  it.each(['WAREHOUSE_STAFF', 'WAREHOUSE_ADMIN', 'SUPERADMIN'] as UserType[])('%s passes the permission check on every catalog route but a customer\'s own (and, but for the superadmin, recalls)', async (role) => {
    const caller = as(role);
    for (const [id, r] of routes) {
      const res = await h.api.call(r.method, pathOf(r.path), r.method === 'GET' ? { as: caller } : { as: caller, body: {} });
      // Staff reach every catalog route but the customer's own notices (issue 25); recalls are the superadmin's (issue 26).
      if (id === 'myBookingNotices' || (r.access === 'recall:manage' && role !== 'SUPERADMIN')) {
        expect(isAllowed(r.access, role), id).toBe(false);
        expect(res.status, id).toBe(403);
        continue;
      }
      expect(isAllowed(r.access, role), id).toBe(true);
      // Unknown ids are 404 and empty bodies 400 (uploads: 400/415), but never 401/403.
      expect([401, 403], `${id} → ${res.status}`).not.toContain(res.status);
      expect(res.status, id).toBeLessThan(500);
    }
  });
});
