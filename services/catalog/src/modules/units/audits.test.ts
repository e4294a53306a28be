import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNIT_MESSAGES } from '@dme/contracts';
import type { Json } from '@dme/testing';
import { simpleProduct, startCatalog, type CatalogHarness } from '../../test/harness';
import { rentOut } from '../../test/units';

let h: CatalogHarness;
beforeAll(async () => {
  h = await startCatalog();
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
const bin = async (name: string) => (await h.api.post('/api/warehouse-bins', { name: `${name} ${randomUUID().slice(0, 4)}`, description: 'audit' }, { as: h.staff })).body.bin as { id: string; name: string };

describe('a physical audit of a bin (issue 26)', () => {
  it('scanned labels against what the bin holds: found, from another bin (moved here with one click), missing, unknown; kept with who and when', async () => {
    const a = await bin('Aisle A');
    const b = await bin('Aisle B');
    const p = (await h.api.post('/api/products', simpleProduct({ type: 'FOR_RENT' }), { as: h.staff })).body.product;
    const inA = (await h.api.post('/api/stocks', { productID: p.id, warehouseBinID: a.id, quantity: 4 }, { as: h.staff })).body.items.map((i: Json) => i.serialCode as string);
    const inB = (await h.api.post('/api/stocks', { productID: p.id, warehouseBinID: b.id, quantity: 1 }, { as: h.staff })).body.items.map((i: Json) => i.serialCode as string);
    // One of A's units is out with a customer: the bin is not expected to hold it.
    await rentOut(em, p, [inA[3]!], { userId: randomUUID(), username: 'wendy' });

    const res = await h.api.post(`/api/warehouse-bins/${a.id}/audits`, { serialCodes: [inA[0]!.toLowerCase(), inA[1]!, inA[1]!, inB[0]!, 'NOPE-0000001'] }, { as: h.staff });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const audit = res.body.audit;
    expect(audit).toMatchObject({ binID: a.id, binName: a.name, by: 'tester', expected: 3, scanned: 4, unknown: ['NOPE-0000001'] });
    expect(audit.found.map((u: Json) => u.serialCode)).toEqual([inA[0], inA[1]]);
    expect(audit.missing.map((u: Json) => u.serialCode)).toEqual([inA[2]]);
    expect(audit.wrongBin).toEqual([{ serialCode: inB[0], productName: p.name, status: 'AVAILABLE', binName: b.name }]);
    const list = (await h.api.get(`/api/warehouse-bins/${a.id}/audits`, { as: h.staff })).body;
    expect(list).toMatchObject({ total: 1, items: [{ id: audit.id, expected: 3 }] });

    // Moved here: its bin changes, its status does not, its history says so.
    const moved = await h.api.post(`/api/units/${inB[0]}/move`, { warehouseBinID: a.id }, { as: h.staff });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.unit).toMatchObject({ status: 'AVAILABLE', warehouseBin: { id: a.id } });
    expect(moved.body.history.at(-1)).toMatchObject({ kind: 'MOVED', bin: a.name, status: null });
    // A unit out cannot be moved; an unknown bin or unit is refused; customers may not audit.
    const out = await h.api.post(`/api/units/${inA[3]}/move`, { warehouseBinID: b.id }, { as: h.staff });
    expect(out.status).toBe(409);
    expect(out.body.detail).toBe(UNIT_MESSAGES.notInWarehouse(inA[3]!));
    expect((await h.api.post(`/api/units/${inA[0]}/move`, { warehouseBinID: randomUUID() }, { as: h.staff })).status).toBe(400);
    expect((await h.api.post('/api/units/NOPE-0000001/move', { warehouseBinID: a.id }, { as: h.staff })).status).toBe(404);
    expect((await h.api.post(`/api/warehouse-bins/${a.id}/audits`, { serialCodes: [] }, { as: h.customer })).status).toBe(403);
    expect((await h.api.post(`/api/warehouse-bins/${randomUUID()}/audits`, { serialCodes: [] }, { as: h.staff })).status).toBe(404);
  });
});
