/**
 * Identity announces ended sessions on SESSION_REVOKED_SUBJECT (core NATS) after the change
 * committed and before it answers, so gateways that cache resolved sessions drop them at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_REVOKED_SUBJECT, SessionRevoked } from '@dme/contracts';
import { connectNats, createLogger, rehearse, type NatsConnection } from '@dme/platform';
import { eventually, testNatsUrl } from '@dme/testing';
import { cookieOf, startIdentity, type Harness } from '../../test/harness';
import { createApp } from '../../app';
import { resolveRehearsal } from './session.routes';

let h: Harness;
let listener: NatsConnection;
const heard: SessionRevoked[] = [];

beforeAll(async () => {
  h = await startIdentity();
  listener = await connectNats(testNatsUrl(), 'revocation-listener');
  // Other test files share the NATS server: each test looks only at its own ids.
  listener.subscribe(SESSION_REVOKED_SUBJECT, {
    callback: (err, msg) => {
      if (!err) heard.push(SessionRevoked.parse(msg.json()));
    },
  });
  await listener.flush();
});

afterAll(async () => {
  await listener?.close();
  await h?.close();
});

async function signedIn(): Promise<{ id: string; cookie: string; person: ReturnType<Harness['person']> }> {
  const person = h.person();
  const reg = await h.api.post('/api/auth/register', person);
  expect(reg.status).toBe(201);
  const ok = await h.api.post('/api/auth/login', { username: person.username, password: person.password });
  return { id: reg.body.user.id, cookie: cookieOf(ok), person };
}

const heardFor = (userId: string) => eventually(() => heard.filter((r) => r.userId === userId).length > 0 && heard.filter((r) => r.userId === userId));

describe('identity announces the end of sessions', () => {
  it('logout: that session only, after it is deleted', async () => {
    const u = await signedIn();
    const resolved = await h.api.post('/internal/sessions/resolve', { token: u.cookie.split('=')[1] });
    expect(resolved.status).toBe(200);
    expect(Date.parse(resolved.body.validUntil)).toBeGreaterThan(Date.now());
    const out = await h.api.post('/api/auth/logout', undefined, { headers: { cookie: u.cookie } });
    expect(out.status).toBe(204);
    expect(await heardFor(u.id)).toEqual([{ sessionId: resolved.body.principal.sessionId, userId: u.id, reason: 'logout' }]);
    // A logout without a live session announces nothing.
    const again = await h.api.post('/api/auth/logout', undefined, { headers: { cookie: u.cookie } });
    expect(again.status).toBe(204);
    await listener.flush();
    expect(heard.filter((r) => r.userId === u.id)).toHaveLength(1);
  });

  it('deactivation and deletion: every session of the user', async () => {
    const a = await signedIn();
    expect((await h.api.patch(`/api/users/${a.id}/status`, { status: 'DEACTIVATED' }, { as: h.admin })).status).toBe(200);
    expect(await heardFor(a.id)).toEqual([{ userId: a.id, reason: 'deactivated' }]);
    // Activating again ends nothing and announces nothing.
    expect((await h.api.patch(`/api/users/${a.id}/status`, { status: 'ACTIVE' }, { as: h.admin })).status).toBe(200);
    const b = await signedIn();
    expect((await h.api.del(`/api/users/${b.id}`, { as: h.admin })).status).toBe(204);
    expect(await heardFor(b.id)).toEqual([{ userId: b.id, reason: 'deleted' }]);
    await listener.flush();
    expect(heard.filter((r) => r.userId === a.id)).toHaveLength(1);
  });

  it("an employee's edit (the user type may change): every session of the employee", async () => {
    const person = h.person();
    const created = await h.api.post('/api/employees', { ...person, userType: 'WAREHOUSE_STAFF', position: 'Staff' }, { as: h.admin });
    expect(created.status).toBe(201);
    const { username: _u, password: _p, ...fields } = person;
    const edited = await h.api.patch(`/api/employees/${created.body.user.id}`, { ...fields, userType: 'WAREHOUSE_ADMIN', position: 'Lead' }, { as: h.admin });
    expect(edited.status).toBe(200);
    expect(await heardFor(created.body.user.id)).toEqual([{ userId: created.body.user.id, reason: 'updated' }]);
  });
});

describe("identity's start-up rehearsal (issue 30)", () => {
  it('goes through both session lookups (the internal token passes, no session matches) and changes nothing', async () => {
    const { cookie } = await signedIn();
    const token = cookie.split('=')[1]!;
    const before = await h.api.post('/internal/sessions/resolve', { token });
    expect(before.status).toBe(200);
    const state = () =>
      h.orm.em.fork().getConnection().execute<Array<{ sessions: number; seen: string; users: number; outbox: number }>>(
        `select (select count(*)::int from identity.sessions) as sessions, (select max(last_seen_at)::text from identity.sessions) as seen,
                (select count(*)::int from identity.users) as users, (select count(*)::int from identity.outbox) as outbox`,
      );
    const was = await state();
    const app = createApp({ orm: h.orm, config: h.config, logger: createLogger('rehearsal-test', 'silent'), nc: h.nc });
    const r = await rehearse(app, resolveRehearsal(h.config.INTERNAL_TOKEN), { budgetMs: 30_000, requests: 25, concurrency: 4 });
    // One cookie (401) and ten at once (200, every answer null), in turn.
    expect(r.statuses).toEqual({ 401: 13, 200: 12 });
    expect(await state()).toEqual(was);
    // A real session still resolves as before.
    expect((await h.api.post('/internal/sessions/resolve', { token })).body.principal).toEqual(before.body.principal);
  });
});
