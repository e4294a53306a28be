/**
 * identity's resolve-many (issue 30): a gateway asks for the sessions of the requests that reached
 * it together in one call. Each answer must be exactly its own cookie's session, as the one-cookie
 * route answers it: a wrong mapping would sign a request in as someone else.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_LOOKUP_MAX } from '@dme/contracts';
import { serviceClient } from '@dme/testing';
import { cookieOf, startIdentity, type Harness } from '../../test/harness';

let h: Harness;

beforeAll(async () => {
  h = await startIdentity();
});
afterAll(async () => {
  await h?.close();
});

async function signedIn(): Promise<{ id: string; token: string; username: string }> {
  const person = h.person();
  const reg = await h.api.post('/api/auth/register', person);
  expect(reg.status).toBe(201);
  const ok = await h.api.post('/api/auth/login', { username: person.username, password: person.password });
  return { id: reg.body.user.id, token: cookieOf(ok).split('=')[1]!, username: person.username };
}

const unknown = () => randomBytes(32).toString('base64url');
const many = (tokens: string[]) => h.api.post('/internal/sessions/resolve-many', { tokens });
const one = (token: string) => h.api.post('/internal/sessions/resolve', { token });

describe('resolve-many: several cookies in one call', () => {
  it("answers each cookie with its own session, in the order asked, null where there is none, as the one-cookie route does", async () => {
    const people = await Promise.all(Array.from({ length: 5 }, signedIn));
    const ended = await signedIn();
    expect((await h.api.post('/api/auth/logout', undefined, { headers: { cookie: `dme_session=${ended.token}` } })).status).toBe(204);
    // Interleaved, with a cookie asked twice, unknown cookies and an ended session among them.
    const tokens = [unknown(), people[3]!.token, ended.token, people[0]!.token, people[4]!.token, unknown(), people[1]!.token, people[3]!.token, people[2]!.token];
    const res = await many(tokens);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const answers = res.body.answers as Array<{ principal: { userId: string; username: string }; validUntil: string } | null>;
    expect(answers).toHaveLength(tokens.length);
    const owner = (t: string) => people.find((p) => p.token === t);
    tokens.forEach((t, i) => {
      const p = owner(t);
      if (!p) expect(answers[i], `cookie ${i} has no session`).toBeNull();
      else expect(answers[i]!.principal, `cookie ${i} is ${p.username}'s`).toMatchObject({ userId: p.id, username: p.username, userType: 'CUSTOMER' });
    });
    // The same answers the one-cookie route gives.
    for (const [i, t] of tokens.entries()) {
      const single = await one(t);
      if (answers[i] === null) expect(single.status).toBe(401);
      else expect(single.body.principal).toEqual(answers[i]!.principal);
    }
  });

  it("moves a session's idle deadline as the one-cookie route does (at most once a minute)", async () => {
    const p = await signedIn();
    const seen = async () =>
      (await h.orm.em.fork().getConnection().execute<Array<{ seen: string }>>(`select last_seen_at::text as seen from identity.sessions where user_id = ?`, [p.id]))[0]!.seen;
    await h.orm.em.fork().getConnection().execute(`update identity.sessions set last_seen_at = now() - interval '5 minutes' where user_id = ?`, [p.id], 'run');
    const stale = await seen();
    const res = await many([p.token, unknown()]);
    expect(res.body.answers[0].principal.userId).toBe(p.id);
    const moved = await seen();
    expect(Date.parse(moved)).toBeGreaterThan(Date.parse(stale) + 4 * 60_000);
    // Within the minute it is not written again.
    await many([p.token, unknown()]);
    expect(await seen()).toBe(moved);
  });

  it('refuses a caller without the internal token (403), and an empty or too long list (400), changing nothing', async () => {
    const p = await signedIn();
    expect((await serviceClient(h.server.url, 'not-the-internal-token').post('/internal/sessions/resolve-many', { tokens: [p.token] })).status).toBe(403);
    expect((await many([])).status).toBe(400);
    expect((await many(Array.from({ length: SESSION_LOOKUP_MAX + 1 }, unknown))).status).toBe(400);
    expect((await many(['x'.repeat(201)])).status).toBe(400);
    expect((await h.api.post('/internal/sessions/resolve-many', { token: p.token })).status).toBe(400);
    expect((await one(p.token)).body.principal.userId).toBe(p.id);
  });
});
