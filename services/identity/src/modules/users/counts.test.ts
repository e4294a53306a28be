import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldKeptCounts, readKeptCounts, sql } from '@dme/platform';
import { startIdentity, type Harness } from '../../test/harness';
import { USER_COUNTS } from './counts';

// Issue 30: the users screen's totals come from counts of open accounts per user type, kept by the
// users table's triggers (migration 0007) and folded now and then; they must equal counting the open
// accounts, whatever happened in between — a closed account (deleted_at set) is not counted.
let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h?.close());

const em = () => h.orm.em.fork();
/** Counting the open accounts: what the kept counts must say. */
async function counted(): Promise<Record<string, number>> {
  const rows = await sql<{ user_type: string; n: number }>(em(), 'select user_type, count(*)::int as n from identity.users where deleted_at is null group by user_type');
  return Object.fromEntries(rows.map((r) => [r.user_type, r.n]));
}
const expectExact = async () => expect(await readKeptCounts(em(), USER_COUNTS)).toEqual(await counted());
async function newCustomer(): Promise<string> {
  const res = await h.api.post('/api/auth/register', h.person());
  expect(res.status).toBe(201);
  return res.body.user.id;
}
const total = async (query: string) => (await h.api.get(`/api/users?limit=1${query}`, { as: h.admin })).body.total as number;

describe("the users screen's kept counts", () => {
  it('equal counting the open accounts through sign-ups, closings, reopenings, type changes and deletes, before and after folding; the list answers them', async () => {
    await expectExact();
    const ids = [await newCustomer(), await newCustomer(), await newCustomer(), await newCustomer(), await newCustomer()];
    const staff = await h.api.post('/api/employees', { ...h.person(), userType: 'WAREHOUSE_STAFF', position: 'Picker' }, { as: h.admin });
    expect(staff.status).toBe(201);
    await expectExact();
    // Closing an account through the API: it leaves the count.
    expect((await h.api.del(`/api/users/${ids[0]}`, { as: h.admin })).status).toBe(204);
    await expectExact();
    // Statements changing many rows at once: closing two, changing another column of one, reopening one, moving one to another type.
    await sql(em(), `update identity.users set deleted_at = now() where id = any($1::uuid[])`, [ids.slice(1, 3)]);
    await sql(em(), `update identity.users set first_name = 'Checked' where id = $1`, [ids[3]]);
    await sql(em(), `update identity.users set deleted_at = now() where id = $1`, [ids[1]]); // closed again: no change
    await sql(em(), `update identity.users set deleted_at = null where id = $1`, [ids[2]]);
    await sql(em(), `update identity.users set user_type = 'DRIVER' where id = $1`, [ids[3]]);
    await expectExact();
    expect(await foldKeptCounts(em(), USER_COUNTS)).toBeGreaterThan(0);
    expect(await foldKeptCounts(em(), USER_COUNTS)).toBe(0);
    await expectExact();
    // Deleting rows: an open one leaves the count, a closed one was not in it.
    await sql(em(), `delete from identity.users where id = any($1::uuid[])`, [[ids[0], ids[2]]]);
    await expectExact();
    // The list's totals say the same: one type, every type, and a search its own matches.
    const exact = await counted();
    expect(exact.CUSTOMER).toBeGreaterThan(0);
    expect(await total('&userType=CUSTOMER')).toBe(exact.CUSTOMER);
    expect(await total('&userType=DRIVER')).toBe(exact.DRIVER);
    expect(await total('&userType=ACCOUNTING_ADMIN')).toBe(0);
    expect(await total('')).toBe(Object.values(exact).reduce((a, b) => a + b, 0));
    expect(await total('&search=Checked')).toBe(1);
    const employees = Object.entries(exact).filter(([type]) => type !== 'CUSTOMER').reduce((a, [, n]) => a + n, 0);
    expect((await h.api.get('/api/employees?limit=1', { as: h.admin })).body.total).toBe(employees);
    const page = (await h.api.get('/api/users?userType=CUSTOMER&limit=100', { as: h.admin })).body;
    expect(page.items).toHaveLength(exact.CUSTOMER!);
    expect(page.items.map((u: { id: string }) => u.id)).not.toContain(ids[0]);
  });

  it('stay exact while accounts are opened and folds from two replicas run at once', async () => {
    const folds = async () => {
      for (let i = 0; i < 15; i++) {
        await Promise.all([foldKeptCounts(em(), USER_COUNTS), foldKeptCounts(em(), USER_COUNTS)]);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await Promise.all([folds(), Promise.all(Array.from({ length: 6 }, () => newCustomer()))]);
    await expectExact();
    await foldKeptCounts(em(), USER_COUNTS);
    await expectExact();
    const [left] = await sql<{ n: number }>(em(), 'select count(*)::int as n from identity.user_count_changes');
    expect(left!.n).toBe(0);
  });
});
