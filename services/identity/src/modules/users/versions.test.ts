import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmployeeCreateRequest, EmployeeUpdateRequest, RegisterRequest } from '@dme/contracts';
import { createOrm, migrate, type Orm } from '@dme/platform';
import { createTestDatabase, validPerson } from '@dme/testing';
import { migrations, SessionEntity, UserEntity } from '../../app';
import { createEmployee, deleteUser, registerCustomer, setStatus, updateEmployee } from './user.service';

/** Every user event carries the user's version, bumped in the same transaction (DESIGN §7). */
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
const admin = randomUUID();

beforeAll(async () => {
  db = await createTestDatabase('identityversions');
  orm = await createOrm({ url: db.url, schema: 'identity', entities: [UserEntity, SessionEntity], migrations, poolMax: 20 });
  await migrate(orm, 'identity', db.url);
});
afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

const events = (userId: string) =>
  orm.em
    .fork()
    .execute<Array<{ subject: string; version: number }>>(
      `select subject, (payload->>'version')::int as version from identity.outbox where payload->>'aggregateId' = ? order by seq`,
      [userId],
    );
const storedVersion = async (id: string) =>
  (await orm.em.fork().execute<Array<{ version: number }>>('select version from identity.users where id = ?', [id]))[0]?.version;

const employeeFields = (overrides: Record<string, unknown> = {}) => ({ ...validPerson(), userType: 'WAREHOUSE_STAFF', position: 'Picker', ...overrides });
const employee = (overrides: Record<string, unknown> = {}) => EmployeeCreateRequest.parse(employeeFields(overrides));
const employeeUpdate = (overrides: Record<string, unknown> = {}) => EmployeeUpdateRequest.parse(employeeFields(overrides));
const customer = () => RegisterRequest.parse(validPerson());

describe('user versions', () => {
  it('registered = 1; status changes and deletion + 1 each', async () => {
    const user = await registerCustomer(orm.em.fork(), customer());
    expect(await storedVersion(user.id)).toBe(1);
    await setStatus(orm.em.fork(), user.id, 'DEACTIVATED', admin);
    await setStatus(orm.em.fork(), user.id, 'ACTIVE', admin);
    await deleteUser(orm.em.fork(), user.id, admin);
    expect(await storedVersion(user.id)).toBe(4);
    expect((await events(user.id)).map((e) => [e.subject, e.version])).toEqual([
      ['dme.identity.user_registered', 1],
      ['dme.identity.user_status_changed', 2],
      ['dme.identity.user_status_changed', 3],
      ['dme.identity.user_deleted', 4],
    ]);
  });

  it('employee_created = 1, user_updated + 1; a refused change leaves the version alone', async () => {
    const e = await createEmployee(orm.em.fork(), employee());
    await updateEmployee(orm.em.fork(), e.id, employeeUpdate({ firstName: 'Ana' }), admin);
    // Changing one's own user type is refused: nothing is bumped.
    await expect(updateEmployee(orm.em.fork(), e.id, employeeUpdate({ userType: 'DRIVER' }), e.id)).rejects.toThrow();
    await expect(setStatus(orm.em.fork(), randomUUID(), 'DEACTIVATED', admin)).rejects.toThrow();
    expect(await storedVersion(e.id)).toBe(2);
    expect((await events(e.id)).map((x) => [x.subject, x.version])).toEqual([
      ['dme.identity.employee_created', 1],
      ['dme.identity.user_updated', 2],
    ]);
  });

  it('concurrent changes get distinct, consecutive versions', async () => {
    const e = await createEmployee(orm.em.fork(), employee());
    await Promise.all(Array.from({ length: 6 }, (_, i) => updateEmployee(orm.em.fork(), e.id, employeeUpdate({ firstName: `Name${i}` }), admin)));
    expect((await events(e.id)).map((x) => x.version).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // The event with the highest version describes the row as it ended up.
    const [last] = await orm.em
      .fork()
      .execute<Array<{ first_name: string }>>(`select payload->'data'->>'firstName' as first_name from identity.outbox where payload->>'aggregateId' = ? order by (payload->>'version')::int desc limit 1`, [e.id]);
    const [row] = await orm.em.fork().execute<Array<{ first_name: string }>>('select first_name from identity.users where id = ?', [e.id]);
    expect(last!.first_name).toBe(row!.first_name);
  });
});
