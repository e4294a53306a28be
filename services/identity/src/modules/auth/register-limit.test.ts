import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDENTITY_HEADERS } from '@dme/platform';
import { ADDRESS_LIMITED, addressLimitAnswer } from '@dme/testing';
import { startIdentity, type Harness, type Replica } from '../../test/harness';

/**
 * Issue 30: registration and the account links (forgot and reset password, verify e-mail,
 * unsubscribe: the routes whose contract says `rateLimit: 'register'`) are limited per address
 * (REGISTER_MAX_PER_IP an hour, together) by identity, in PostgreSQL, so every replica shares the
 * count (it used to be each gateway's memory). The harness's second replica has its own ORM (pool).
 */
const MAX = 3;
let h: Harness;
let replica: Replica;

beforeAll(async () => {
  h = await startIdentity({ REGISTER_MAX_PER_IP: String(MAX) });
  replica = await h.startReplica();
});
afterAll(() => h?.close());

const from = (ip: string) => ({ headers: { [IDENTITY_HEADERS.clientIp]: ip } });
const exists = async (username: string) => (await h.orm.em.fork().execute('select 1 from identity.users where username = ?', [username])).length > 0;

describe('registration per address, shared by the replicas', () => {
  it('counts requests through both replicas together; the next one gets 429 problem+json with Retry-After and creates nothing', async () => {
    const ip = '203.0.113.10';
    const first = h.person();
    expect((await h.api.post('/api/auth/register', first, from(ip))).status).toBe(201);
    expect((await replica.api.post('/api/auth/register', h.person(), from(ip))).status).toBe(201);
    // The account links count with registrations.
    expect((await h.api.post('/api/auth/forgot-password', { email: 'nobody@example.com' }, from(ip))).status).toBe(202);

    for (const api of [replica.api, h.api]) {
      const person = h.person();
      const refused = await api.post('/api/auth/register', person, from(ip));
      expect(addressLimitAnswer(refused)).toEqual(ADDRESS_LIMITED);
      expect(await exists(person.username)).toBe(false);
    }
    // A link refused queues no e-mail (read in the database: a reset is queued in the request's own transaction,
    // while the registrations' mails may still be on their way to the SMTP server).
    const queued = async () => (await h.orm.em.fork().execute<Array<{ n: number }>>('select count(*)::int as n from identity.mail_outbox where recipient = ?', [first.email]))[0]!.n;
    const before = await queued();
    expect((await h.api.post('/api/auth/forgot-password', { email: first.email }, from(ip))).status).toBe(429);
    expect(await queued()).toBe(before);
  });

  it('another address is not affected', async () => {
    const ip = '203.0.113.20';
    for (let i = 0; i < MAX; i++) expect((await (i % 2 ? replica.api : h.api).post('/api/auth/register', h.person(), from(ip))).status).toBe(201);
    expect((await h.api.post('/api/auth/register', h.person(), from(ip))).status).toBe(429);
    const person = h.person();
    expect((await replica.api.post('/api/auth/register', person, from('203.0.113.21'))).status).toBe(201);
    expect(await exists(person.username)).toBe(true);
  });

  it('an IPv6 client counts by its /64 network', async () => {
    for (let i = 1; i <= MAX; i++) expect((await h.api.post('/api/auth/register', h.person(), from(`2001:db8:30:1::${i}`))).status).toBe(201);
    expect((await replica.api.post('/api/auth/register', h.person(), from('2001:db8:30:1::ffff'))).status).toBe(429);
    expect((await replica.api.post('/api/auth/register', h.person(), from('2001:db8:30:2::1'))).status).toBe(201);
  });
});
