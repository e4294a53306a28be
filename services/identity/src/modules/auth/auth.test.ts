import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@dme/contracts';
import { TINY_PNG } from '@dme/testing';
import { cookieOf, startIdentity, type Harness } from '../../test/harness';
import { UserEntity } from '../users/user.entity';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity({ SESSION_IDLE_MINUTES: '30' });
});
afterAll(() => h?.close());

async function outboxSubjects(aggregateId: string): Promise<string[]> {
  const rows = await h.orm.em.fork().execute<Array<{ subject: string }>>(
    `select subject from identity.outbox where payload->>'aggregateId' = ? order by seq`,
    [aggregateId],
  );
  return rows.map((r) => r.subject);
}

async function resolve(cookie: string) {
  const token = cookie.split('=')[1];
  return h.api.post('/internal/sessions/resolve', { token });
}

describe('register', () => {
  it('creates an ACTIVE customer with an account number, computed age, hashed password and an event', async () => {
    const person = h.person({ birthDate: '2000-01-15', middleName: '', suffix: '' });
    const res = await h.api.post('/api/auth/register', { ...person, age: 99 });
    expect(res.status).toBe(201);
    const user = res.body.user;
    expect(user).toMatchObject({ username: person.username, status: 'ACTIVE', userType: 'CUSTOMER', middleName: '', suffix: '' });
    expect(user.idNumber).toMatch(/^CUS-\d{6}$/);
    expect(user.age).toBeGreaterThanOrEqual(26);
    expect(user.age).not.toBe(99);
    expect(user).not.toHaveProperty('password');
    expect(user).not.toHaveProperty('passwordHash');
    const [row] = await h.orm.em.fork().execute<Array<{ password_hash: string }>>(`select password_hash from identity.users where id = ?`, [user.id]);
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain(person.password);
    expect(await outboxSubjects(user.id)).toEqual(['dme.identity.user_registered']);
  });

  it('every rule answers 400 with its message and creates nothing', async () => {
    const before = await h.orm.em.fork().count(UserEntity, {});
    const res = await h.api.post('/api/auth/register', { ...h.person(), address: 'x'.repeat(13), zipcode: '123', firstName: '' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'address', message: MESSAGES.common.addressMax },
        { field: 'zipcode', message: MESSAGES.common.zipcodeMin },
        { field: 'firstName', message: 'Please input your First Name!' },
      ]),
    );
    expect(await h.orm.em.fork().count(UserEntity, {})).toBe(before);
  });

  it('refuses an image that names no upload with 400 naming `image`, and creates nothing', async () => {
    const person = h.person({ image: '/api/uploads/0123456789abcdef0123456789abcdef.png' });
    const res = await h.api.post('/api/auth/register', person);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.errors).toEqual([{ field: 'image', message: MESSAGES.upload.notFound }]);
    const rows = await h.orm.em.fork().execute(`select 1 from identity.users where username = ?`, [person.username]);
    expect(rows).toHaveLength(0);

    const image = await h.uploads.store(TINY_PNG);
    const ok = await h.api.post('/api/auth/register', { ...person, image });
    expect(ok.status).toBe(201);
    expect(ok.body.user.image).toBe(image);
  });

  it('refuses a username already taken, whatever its case, with 409 and the message', async () => {
    const person = h.person();
    expect((await h.api.post('/api/auth/register', person)).status).toBe(201);
    const again = await h.api.post('/api/auth/register', { ...h.person(), username: person.username.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(MESSAGES.common.usernameTaken);
    expect(again.body.errors).toEqual([{ field: 'username', message: MESSAGES.common.usernameTaken }]);
  });

  it('lets only one of many simultaneous registrations of a username succeed', async () => {
    const username = `race_${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 8 }, () => h.api.post('/api/auth/register', h.person({ username }))));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  });

  it('answers bad JSON with 400, not 500', async () => {
    const res = await h.api.call('POST', '/api/auth/register', { body: '{"username":', headers: {} });
    expect(res.status).toBe(400);
  });

  it('answers an oversized body with 413', async () => {
    const res = await h.api.post('/api/auth/register', { ...h.person(), firstName: 'x'.repeat(200_000) });
    expect(res.status).toBe(413);
  });
});

describe('login, sessions and logout', () => {
  it('signs in with a session cookie that resolves to the user; wrong password is 401', async () => {
    const person = h.person();
    await h.api.post('/api/auth/register', person);
    const bad = await h.api.post('/api/auth/login', { username: person.username, password: 'wrong-password' });
    expect(bad.status).toBe(401);
    expect(bad.body.detail).toBe(MESSAGES.login.invalidCredentials);
    const unknown = await h.api.post('/api/auth/login', { username: 'nobody-here', password: 'whatever-1' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.detail).toBe(MESSAGES.login.invalidCredentials);

    const ok = await h.api.post('/api/auth/login', { username: person.username.toUpperCase(), password: person.password });
    expect(ok.status).toBe(200);
    expect(ok.body.permissions).toContain('order:place');
    const setCookie = ok.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^dme_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    const resolved = await resolve(cookieOf(ok));
    expect(resolved.status).toBe(200);
    expect(resolved.body.principal).toMatchObject({ userId: ok.body.user.id, userType: 'CUSTOMER' });

    // Only the hash of the token is stored.
    const token = cookieOf(ok).split('=')[1]!;
    const stored = await h.orm.em.fork().execute(`select 1 from identity.sessions where token_hash = ?`, [token]);
    expect(stored).toHaveLength(0);
  });

  it('login needs username and password (400 with the spec messages)', async () => {
    const res = await h.api.post('/api/auth/login', {});
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'username', message: 'Please input your Username!' },
      { field: 'password', message: 'Please input your Password!' },
    ]);
  });

  it('logout ends the session at once and clears the cookie', async () => {
    const person = h.person();
    await h.api.post('/api/auth/register', person);
    const ok = await h.api.post('/api/auth/login', { username: person.username, password: person.password });
    const cookie = cookieOf(ok);
    const out = await h.api.post('/api/auth/logout', undefined, { headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await resolve(cookie)).status).toBe(401);
  });

  it('a session idle longer than the idle timeout, or past its absolute end, is refused', async () => {
    const person = h.person();
    await h.api.post('/api/auth/register', person);
    const a = cookieOf(await h.api.post('/api/auth/login', { username: person.username, password: person.password }));
    const b = cookieOf(await h.api.post('/api/auth/login', { username: person.username, password: person.password }));
    const hash = async (c: string) => (await import('../sessions/session.service')).hashToken(c.split('=')[1]!);
    await h.orm.em.fork().execute(`update identity.sessions set last_seen_at = now() - interval '31 minutes' where token_hash = ?`, [await hash(a)]);
    await h.orm.em.fork().execute(`update identity.sessions set expires_at = now() - interval '1 second' where token_hash = ?`, [await hash(b)]);
    expect((await resolve(a)).status).toBe(401);
    expect((await resolve(b)).status).toBe(401);
  });

  it('me returns the signed-in user and permissions; without identity it is 401', async () => {
    const me = await h.api.get('/api/auth/me', { as: h.admin });
    expect(me.status).toBe(200);
    expect(me.body.user.username).toBe('boss');
    expect(me.body.permissions).toContain('user:manage');
    expect((await h.api.get('/api/auth/me')).status).toBe(401);
  });

  it('refuses requests that did not come through the gateway', async () => {
    const res = await h.api.call('GET', '/api/auth/me', { headers: { 'x-dme-internal-token': 'guess-guess-guess-guess' } });
    expect(res.status).toBe(403);
    const direct = await fetch(`${h.server.url}/api/users`, { headers: { 'x-dme-user-id': h.admin.userId, 'x-dme-user-type': 'SUPERADMIN' } });
    expect(direct.status).toBe(403);
    const internal = await fetch(`${h.server.url}/internal/sessions/resolve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"token":"x"}' });
    expect(internal.status).toBe(403);
  });
});
