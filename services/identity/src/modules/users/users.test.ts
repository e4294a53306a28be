import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@dme/contracts';
import { TINY_JPEG } from '@dme/testing';
import { cookieOf, startIdentity, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h?.close());

async function newCustomer() {
  const person = h.person();
  const res = await h.api.post('/api/auth/register', person);
  return { ...res.body.user, password: person.password };
}

async function signIn(username: string, password: string) {
  return h.api.post('/api/auth/login', { username, password });
}

const resolve = (cookie: string) => h.api.post('/internal/sessions/resolve', { token: cookie.split('=')[1] });

const employee = (overrides: Record<string, unknown> = {}) => ({
  ...h.person(),
  userType: 'WAREHOUSE_STAFF',
  position: 'Picker',
  ...overrides,
});

describe('users (superadmin)', () => {
  it('lists customers only when filtered by CUSTOMER, newest first, with the total', async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    const res = await h.api.get('/api/users?userType=CUSTOMER&limit=100', { as: h.admin });
    expect(res.status).toBe(200);
    expect(res.body.items.every((u: { userType: string }) => u.userType === 'CUSTOMER')).toBe(true);
    const ids = res.body.items.map((u: { id: string }) => u.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(res.body.total).toBe(res.body.items.length);
    const staff = await h.api.get('/api/users?userType=SUPERADMIN', { as: h.admin });
    expect(staff.body.items.map((u: { username: string }) => u.username)).toEqual(['boss']);
  });

  it('pages with limit and offset, and refuses a limit over 100', async () => {
    await newCustomer();
    await newCustomer();
    const page = await h.api.get('/api/users?userType=CUSTOMER&limit=1&offset=1', { as: h.admin });
    expect(page.body.items).toHaveLength(1);
    expect(page.body.total).toBeGreaterThanOrEqual(2);
    expect((await h.api.get('/api/users?limit=101', { as: h.admin })).status).toBe(400);
    expect((await h.api.get('/api/users?userType=ALIEN', { as: h.admin })).status).toBe(400);
  });

  it('gets one user; an unknown or malformed id is 404', async () => {
    const c = await newCustomer();
    const res = await h.api.get(`/api/users/${c.id}`, { as: h.admin });
    expect(res.body.user.username).toBe(c.username);
    expect((await h.api.get('/api/users/7f1a1f40-0000-4000-8000-000000000000', { as: h.admin })).status).toBe(404);
    expect((await h.api.get('/api/users/not-a-uuid', { as: h.admin })).status).toBe(404);
  });

  it('deactivation ends open sessions at once, blocks sign-in, and is recorded as an event', async () => {
    const c = await newCustomer();
    const cookie = cookieOf(await signIn(c.username, c.password));
    expect((await resolve(cookie)).status).toBe(200);

    const off = await h.api.patch(`/api/users/${c.id}/status`, { status: 'DEACTIVATED' }, { as: h.admin });
    expect(off.status).toBe(200);
    expect(off.body.user.status).toBe('DEACTIVATED');
    expect((await resolve(cookie)).status).toBe(401);
    const login = await signIn(c.username, c.password);
    expect(login.status).toBe(403);
    expect(login.body.detail).toBe(MESSAGES.login.deactivated);

    const on = await h.api.patch(`/api/users/${c.id}/status`, { status: 'ACTIVE' }, { as: h.admin });
    expect(on.body.user.status).toBe('ACTIVE');
    expect((await signIn(c.username, c.password)).status).toBe(200);

    const events = await h.orm.em.fork().execute<Array<{ payload: { data: { status: string; previousStatus: string } } }>>(
      `select payload from identity.outbox where subject = 'dme.identity.user_status_changed' and payload->>'aggregateId' = ? order by seq`,
      [c.id],
    );
    expect(events.map((e) => e.payload.data.status)).toEqual(['DEACTIVATED', 'ACTIVE']);
  });

  it('a bad status is 400 and changes nothing', async () => {
    const c = await newCustomer();
    const res = await h.api.patch(`/api/users/${c.id}/status`, { status: 'BANNED' }, { as: h.admin });
    expect(res.status).toBe(400);
    expect((await h.api.get(`/api/users/${c.id}`, { as: h.admin })).body.user.status).toBe('ACTIVE');
  });

  it('a superadmin cannot deactivate or delete their own account', async () => {
    const res = await h.api.patch(`/api/users/${h.admin.userId}/status`, { status: 'DEACTIVATED' }, { as: h.admin });
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(MESSAGES.user.cannotChangeSelf);
    expect((await h.api.del(`/api/users/${h.admin.userId}`, { as: h.admin })).status).toBe(409);
  });

  it('delete closes the account: gone from lists and lookups, cannot sign in, username stays reserved', async () => {
    const c = await newCustomer();
    const cookie = cookieOf(await signIn(c.username, c.password));
    expect((await h.api.del(`/api/users/${c.id}`, { as: h.admin })).status).toBe(204);
    expect((await resolve(cookie)).status).toBe(401);
    expect((await h.api.get(`/api/users/${c.id}`, { as: h.admin })).status).toBe(404);
    const list = await h.api.get('/api/users?userType=CUSTOMER', { as: h.admin });
    expect(list.body.items.map((u: { id: string }) => u.id)).not.toContain(c.id);
    expect((await signIn(c.username, c.password)).status).toBe(401);
    expect((await h.api.post('/api/auth/register', h.person({ username: c.username }))).status).toBe(409);
    expect((await h.api.del(`/api/users/${c.id}`, { as: h.admin })).status).toBe(404);
  });

  it('checks permissions in the service too: a customer gets 403, anonymous 401', async () => {
    const c = await newCustomer();
    const as = { userId: c.id, userType: 'CUSTOMER' as const };
    expect((await h.api.get('/api/users', { as })).status).toBe(403);
    expect((await h.api.patch(`/api/users/${c.id}/status`, { status: 'DEACTIVATED' }, { as })).status).toBe(403);
    expect((await h.api.get('/api/users')).status).toBe(401);
  });
});

describe('employees (superadmin)', () => {
  it('creates an employee with type, position and an employee number; the list holds only staff', async () => {
    const res = await h.api.post('/api/employees', employee({ userType: 'DRIVER', position: 'Delivery Driver' }), { as: h.admin });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ userType: 'DRIVER', position: 'Delivery Driver', status: 'ACTIVE' });
    expect(res.body.user.idNumber).toMatch(/^EMP-\d{6}$/);
    await newCustomer();
    const list = await h.api.get('/api/employees', { as: h.admin });
    expect(list.body.items.some((u: { id: string }) => u.id === res.body.user.id)).toBe(true);
    expect(list.body.items.every((u: { userType: string }) => u.userType !== 'CUSTOMER')).toBe(true);
    const drivers = await h.api.get('/api/employees?userType=DRIVER', { as: h.admin });
    expect(drivers.body.items.every((u: { userType: string }) => u.userType === 'DRIVER')).toBe(true);
  });

  it('the new employee can sign in and gets their role permissions', async () => {
    const body = employee({ userType: 'ACCOUNTING_ADMIN', position: 'Accountant' });
    await h.api.post('/api/employees', body, { as: h.admin });
    const login = await signIn(body.username as string, body.password as string);
    expect(login.status).toBe(200);
    expect(login.body.permissions).toEqual(['payment:read', 'payment:confirm']);
  });

  it('create rules: messages of SPEC §5, CUSTOMER is not an employee type, username must be free', async () => {
    const missing = await h.api.post('/api/employees', { ...employee(), userType: undefined, position: '', zipcode: '12' }, { as: h.admin });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'userType', message: 'Please input User Type!' },
        { field: 'position', message: 'Please input Position!' },
        { field: 'zipcode', message: MESSAGES.common.zipcodeMin },
      ]),
    );
    expect((await h.api.post('/api/employees', employee({ userType: 'CUSTOMER' }), { as: h.admin })).status).toBe(400);
    const taken = await h.api.post('/api/employees', employee({ username: 'BOSS' }), { as: h.admin });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe(MESSAGES.common.usernameTaken);
    // The field it is about, so the form keeps the message on Username (SPEC §7 409).
    expect(taken.body.errors).toEqual([{ field: 'username', message: MESSAGES.common.usernameTaken }]);
  });

  it('edits an employee without touching username or password', async () => {
    const body = employee();
    const created = (await h.api.post('/api/employees', body, { as: h.admin })).body.user;
    const { username: _u, password: _p, ...edit } = body;
    const res = await h.api.patch(
      `/api/employees/${created.id}`,
      { ...edit, username: 'hijack', password: 'new-password-1', userType: 'WAREHOUSE_ADMIN', position: 'Lead', firstName: 'Renamed' },
      { as: h.admin },
    );
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ username: body.username, userType: 'WAREHOUSE_ADMIN', position: 'Lead', firstName: 'Renamed' });
    expect((await signIn(body.username as string, body.password as string)).status).toBe(200);
    expect((await signIn('hijack', 'new-password-1')).status).toBe(401);
  });

  it('create and edit refuse an image that names no upload (400 naming `image`) and accept a stored one', async () => {
    const missing = '/api/uploads/fedcba9876543210fedcba9876543210.jpg';
    const body = employee({ image: missing });
    const refused = await h.api.post('/api/employees', body, { as: h.admin });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([{ field: 'image', message: MESSAGES.upload.notFound }]);
    expect(await h.orm.em.fork().execute(`select 1 from identity.users where username = ?`, [body.username])).toHaveLength(0);

    const created = await h.api.post('/api/employees', { ...body, image: h.image }, { as: h.admin });
    expect(created.status).toBe(201);
    const { username: _u, password: _p, ...edit } = body;
    const badEdit = await h.api.patch(`/api/employees/${created.body.user.id}`, { ...edit, image: missing, firstName: 'Changed' }, { as: h.admin });
    expect(badEdit.status).toBe(400);
    expect(badEdit.body.errors).toEqual([{ field: 'image', message: MESSAGES.upload.notFound }]);
    expect((await h.api.get(`/api/employees/${created.body.user.id}`, { as: h.admin })).body.user).toMatchObject({ image: h.image, firstName: body.firstName });

    const jpeg = await h.uploads.store(TINY_JPEG, 'jpg');
    const edited = await h.api.patch(`/api/employees/${created.body.user.id}`, { ...edit, image: jpeg }, { as: h.admin });
    expect(edited.status).toBe(200);
    expect(edited.body.user.image).toBe(jpeg);
  });

  it('employee routes do not reach customers (404)', async () => {
    const c = await newCustomer();
    expect((await h.api.get(`/api/employees/${c.id}`, { as: h.admin })).status).toBe(404);
    const { username: _u, password: _p, ...edit } = employee();
    expect((await h.api.patch(`/api/employees/${c.id}`, edit, { as: h.admin })).status).toBe(404);
    expect((await h.api.del(`/api/employees/${c.id}`, { as: h.admin })).status).toBe(404);
  });

  it('deactivates, activates and deletes an employee', async () => {
    const created = (await h.api.post('/api/employees', employee(), { as: h.admin })).body.user;
    expect((await h.api.patch(`/api/employees/${created.id}/status`, { status: 'DEACTIVATED' }, { as: h.admin })).body.user.status).toBe('DEACTIVATED');
    expect((await h.api.patch(`/api/employees/${created.id}/status`, { status: 'ACTIVE' }, { as: h.admin })).body.user.status).toBe('ACTIVE');
    expect((await h.api.del(`/api/employees/${created.id}`, { as: h.admin })).status).toBe(204);
    expect((await h.api.get(`/api/employees/${created.id}`, { as: h.admin })).status).toBe(404);
  });
});

describe('profiles (SPEC §7 users/update.php): a customer by the superadmin, anyone their own', () => {
  const profile = (u: Record<string, unknown>, overrides: Record<string, unknown> = {}) => ({
    firstName: u.firstName,
    middleName: u.middleName,
    lastName: u.lastName,
    suffix: u.suffix,
    birthDate: u.birthDate,
    gender: u.gender,
    contactNumber: u.contactNumber,
    email: u.email,
    address: u.address,
    city: u.city,
    state: u.state,
    zipcode: u.zipcode,
    image: u.image,
    ...overrides,
  });

  it("the superadmin updates a customer's profile; username, type and status stay; a staff id is 404; others 403", async () => {
    const c = await newCustomer();
    const res = await h.api.patch(`/api/users/${c.id}`, profile(c, { firstName: 'Rosa', city: 'Pasig', username: 'hijack', userType: 'SUPERADMIN', status: 'DEACTIVATED' }), { as: h.admin });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: c.id, firstName: 'Rosa', city: 'Pasig', username: c.username, userType: 'CUSTOMER', status: 'ACTIVE' });
    expect((await h.api.get(`/api/users/${c.id}`, { as: h.admin })).body.user.firstName).toBe('Rosa');
    const bad = await h.api.patch(`/api/users/${c.id}`, profile(c, { zipcode: '12', firstName: '' }), { as: h.admin });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['firstName', 'zipcode']);
    const staff = (await h.api.post('/api/employees', employee(), { as: h.admin })).body.user;
    expect((await h.api.patch(`/api/users/${staff.id}`, profile(c), { as: h.admin })).status).toBe(404);
    expect((await h.api.patch(`/api/users/${c.id}`, profile(c), { as: { userId: c.id, userType: 'CUSTOMER' } })).status).toBe(403);
    expect((await h.api.patch(`/api/users/${c.id}`, profile(c), { as: { userId: staff.id, userType: 'WAREHOUSE_ADMIN' } })).status).toBe(403);
  });

  it('a customer updates their own profile through /api/auth/me, and only their own', async () => {
    const c = await newCustomer();
    const other = await newCustomer();
    const res = await h.api.patch('/api/auth/me', profile(c, { lastName: 'Dela Cruz', userType: 'SUPERADMIN' }), { as: { userId: c.id, userType: 'CUSTOMER' } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: c.id, lastName: 'Dela Cruz', userType: 'CUSTOMER' });
    expect((await h.api.get(`/api/users/${other.id}`, { as: h.admin })).body.user.lastName).toBe(other.lastName);
  });
});
