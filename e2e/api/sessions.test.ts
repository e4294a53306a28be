/**
 * Sessions across two gateway processes (DESIGN §9): each gateway keeps resolved sessions in
 * memory for a short time, and identity's revocations over NATS drop them at once. A logout or a
 * deactivation through gateway A (the started stack's) is refused at gateway B (a second gateway
 * process, started here on the same identity and NATS) on the very next request, although B had
 * the session cached by a request just before; and the other way round.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validPerson } from '@dme/testing';
import { pngUploadForm } from '@dme/testing';
import { env } from './lib/env';
import { startGateway, type SecondGateway } from './lib/gateway';
import { cookieFrom, json, send, type RawRequest, type RawResponse } from './lib/http';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function outcome(r: RawResponse): string {
  if (r.kind !== 'answer') return r.kind === 'timeout' ? 'no answer (timeout)' : `no answer: ${r.message}`;
  return `${r.status} ${r.body.subarray(0, 200).toString('utf8')}`;
}
const status = (r: RawResponse) => (r.kind === 'answer' ? r.status : outcome(r));

const jsonRequest = (method: string, path: string, body: unknown, headers: Record<string, string> = {}): RawRequest => ({
  method,
  path,
  headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
  body: Buffer.from(JSON.stringify(body)),
});
const me = (cookie: string): RawRequest => ({ method: 'GET', path: '/api/auth/me', headers: { cookie, accept: 'application/json' } });

/** The NATS server of the started stack (`npm test` hands it over as E2E_NATS_URL). */
function stackNatsUrl(): string {
  const url = process.env.E2E_NATS_URL;
  if (!url) throw new Error('E2E_NATS_URL is not set (run through `npm test -- api`)');
  return url;
}

let gatewayB: SecondGateway | undefined;
let urlA = '';
let urlB = '';
let image = '';

async function signIn(base: string, username: string, password: string): Promise<string> {
  const r = await send(base, jsonRequest('POST', '/api/auth/login', { username, password }));
  const token = cookieFrom(r, 'dme_session');
  if (!token) throw new Error(`sign-in as ${username} through ${base}: ${outcome(r)}`);
  return `dme_session=${token}`;
}

/** A fresh customer, registered through gateway A; signed in through `base`. */
async function customer(base: string): Promise<{ id: string; cookie: string; username: string; password: string }> {
  const person = validPerson({ image });
  const reg = await send(urlA, jsonRequest('POST', '/api/auth/register', person));
  expect(status(reg), `register: ${outcome(reg)}`).toBe(201);
  const id = (json(reg) as { user: { id: string } }).user.id;
  return { id, cookie: await signIn(base, person.username, person.password), username: person.username, password: person.password };
}

/** Gateway `base` has this session: two requests just before the change, both accepted. */
async function warm(base: string, cookie: string, what: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const r = await send(base, me(cookie));
    expect(status(r), `${what}: GET /api/auth/me before the change`).toBe(200);
  }
}

/**
 * Precondition: `base` really serves sessions from its cache (else the tests below would prove
 * nothing). A session deleted behind identity's back (no announcement) is still accepted there.
 */
async function expectCaching(base: string, name: string): Promise<void> {
  const until = Date.now() + 20_000;
  const client = new pg.Client({ connectionString: env.databaseUrl });
  await client.connect();
  try {
    for (;;) {
      const c = await customer(base);
      await warm(base, c.cookie, `${name} precondition`);
      await client.query('delete from identity.sessions where user_id = $1', [c.id]);
      const r = await send(base, me(c.cookie));
      if (r.kind === 'answer' && r.status === 200) return;
      if (Date.now() > until) throw new Error(`gateway ${name} does not cache resolved sessions (is it connected to NATS?):\n${gatewayB?.tail.join('\n') ?? ''}`);
      await sleep(500);
    }
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  urlA = env.baseUrl;
  const form = pngUploadForm();
  const up = await send(urlA, { method: 'POST', path: '/api/uploads', headers: { 'content-type': form.contentType }, body: form.body });
  if (up.kind !== 'answer' || up.status !== 201) throw new Error(`upload: ${outcome(up)}`);
  image = (json(up) as { imagePath: string }).imagePath;

  gatewayB = await startGateway({ NATS_URL: stackNatsUrl(), SESSION_CACHE_SECONDS: '30', LOG_LEVEL: 'info' });
  urlB = gatewayB.url;
  await expectCaching(urlB, 'B');
  await expectCaching(urlA, 'A');
}, 90_000);

afterAll(async () => {
  await gatewayB?.stop();
});

describe('an ended session is refused on the very next request at the other gateway', () => {
  it('logout through A → the next request through B, which had the session cached, is 401 (and the other way round)', async () => {
    const c = await customer(urlA);
    await warm(urlA, c.cookie, 'A');
    await warm(urlB, c.cookie, 'B');
    const out = await send(urlA, { method: 'POST', path: '/api/auth/logout', headers: { cookie: c.cookie } });
    expect(status(out), `logout through A: ${outcome(out)}`).toBe(204);
    const next = await send(urlB, me(c.cookie));
    expect(status(next), `the next request through B: ${outcome(next)}`).toBe(401);
    expect(status(await send(urlA, me(c.cookie)))).toBe(401);

    const d = await customer(urlB);
    await warm(urlA, d.cookie, 'A');
    await warm(urlB, d.cookie, 'B');
    const out2 = await send(urlB, { method: 'POST', path: '/api/auth/logout', headers: { cookie: d.cookie } });
    expect(status(out2), `logout through B: ${outcome(out2)}`).toBe(204);
    const next2 = await send(urlA, me(d.cookie));
    expect(status(next2), `the next request through A: ${outcome(next2)}`).toBe(401);
  });

  it('deactivation by the superadmin through A → the next request through B is 401; every session of the user', async () => {
    const admin = await signIn(urlA, 'superadmin', env.demoPassword);
    const c = await customer(urlB);
    const second = await signIn(urlA, c.username, c.password);
    await warm(urlA, c.cookie, 'A');
    await warm(urlB, c.cookie, 'B');
    await warm(urlB, second, 'B (second session)');
    const off = await send(urlA, jsonRequest('PATCH', `/api/users/${c.id}/status`, { status: 'DEACTIVATED' }, { cookie: admin }));
    expect(status(off), `deactivate through A: ${outcome(off)}`).toBe(200);
    const next = await send(urlB, me(c.cookie));
    expect(status(next), `the next request through B: ${outcome(next)}`).toBe(401);
    expect(status(await send(urlB, me(second))), 'the second session through B').toBe(401);
    expect(status(await send(urlA, me(c.cookie)))).toBe(401);
  });

  it('deactivation through B → the next request through A is 401', async () => {
    const admin = await signIn(urlB, 'superadmin', env.demoPassword);
    const c = await customer(urlA);
    await warm(urlA, c.cookie, 'A');
    await warm(urlB, c.cookie, 'B');
    const off = await send(urlB, jsonRequest('PATCH', `/api/users/${c.id}/status`, { status: 'DEACTIVATED' }, { cookie: admin }));
    expect(status(off), `deactivate through B: ${outcome(off)}`).toBe(200);
    const next = await send(urlA, me(c.cookie));
    expect(status(next), `the next request through A: ${outcome(next)}`).toBe(401);
  });
});
