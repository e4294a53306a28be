import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@dme/contracts';
import type { Json } from '@dme/testing';
import { startIdentity, type Harness, type Replica } from '../../test/harness';
import { addressKey, delayPolicyOf, loginDelayMs, purgeExpiredThrottle, throttleKeys, type DelayPolicy } from './throttle';

describe('loginDelayMs (the account delay formula)', () => {
  const defaults: DelayPolicy = { afterFailures: 3, baseMs: 250, maxMs: 5000 };

  it('is 0 below 3 failures, then 250 ms doubling, capped at 5 s', () => {
    expect(Array.from({ length: 11 }, (_, f) => loginDelayMs(f, defaults))).toEqual([0, 0, 0, 250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
    expect(loginDelayMs(1_000_000, defaults)).toBe(5000);
  });

  it('follows its policy, and a zero base or cap turns it off', () => {
    expect(loginDelayMs(0, { afterFailures: 0, baseMs: 10, maxMs: 100 })).toBe(10);
    expect(loginDelayMs(4, { afterFailures: 0, baseMs: 10, maxMs: 100 })).toBe(100);
    expect(loginDelayMs(50, { ...defaults, baseMs: 0 })).toBe(0);
    expect(loginDelayMs(50, { ...defaults, maxMs: 0 })).toBe(0);
  });
});

describe('addressKey', () => {
  it('keeps IPv4, unwraps IPv4-mapped IPv6, and counts IPv6 by its /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('[2001:db8::1]')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('')).toBe('unknown');
  });

  it('keys are hashes of the lower-cased username and the address', () => {
    expect(throttleKeys('Alice', '2001:db8::1')).toEqual(throttleKeys('alice', '2001:db8::2'));
    expect(throttleKeys('alice', '203.0.113.1').pair).not.toBe(throttleKeys('alice', '203.0.113.2').pair);
    expect(JSON.stringify(throttleKeys('alice', '203.0.113.1'))).not.toMatch(/alice|203\.0/);
  });
});

let h: Harness;
let replica: Replica;
let policy: DelayPolicy;
const MAX_PER_IP = 20;

beforeAll(async () => {
  // Shorter delays and a lower per-address limit than the defaults keep the file fast; the
  // assertions are computed from the same config.
  h = await startIdentity({ LOGIN_DELAY_BASE_MS: '100', LOGIN_DELAY_MAX_MS: '800', LOGIN_MAX_PER_IP: String(MAX_PER_IP) });
  replica = await h.startReplica();
  policy = delayPolicyOf(h.config);
});
afterAll(() => h?.close());

let n = 0;
/** A fresh address for each call (TEST-NET-2), or the given one. */
const newIp = () => `198.51.100.${++n}`;

async function login(username: string, password: string, ip: string, api = h.api) {
  const started = performance.now();
  const res = await api.post('/api/auth/login', { username, password }, { headers: { 'x-dme-client-ip': ip } });
  return { ...res, ms: performance.now() - started };
}

async function newCustomer() {
  const person = h.person();
  const res = await h.api.post('/api/auth/register', person);
  expect(res.status).toBe(201);
  return { id: res.body.user.id as string, username: person.username, password: person.password };
}

function expect429(res: { status: number; headers: Headers; body: Json }) {
  expect(res.status).toBe(429);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body.detail).toBe(MESSAGES.login.tooMany);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(h.config.LOGIN_WINDOW_MINUTES * 60);
}

describe('sign-in throttling', () => {
  it('ten wrong passwords from ten other addresses do not stop the owner signing in from a new address', async () => {
    const u = await newCustomer();
    const wrong = await Promise.all(Array.from({ length: 10 }, () => login(u.username, 'wrong-password', newIp())));
    expect(wrong.map((r) => r.status)).toEqual(Array(10).fill(401));
    const ok = await login(u.username, u.password, newIp());
    expect(ok.status).toBe(200);
    // ...after the account's delay (a lower bound, not a timing budget).
    expect(ok.ms).toBeGreaterThanOrEqual(loginDelayMs(10, policy));
  });

  it('a burst of wrong passwords on one account slows down: each answer waits the computed delay', async () => {
    const u = await newCustomer();
    for (let f = 0; f < 7; f++) {
      const res = await login(u.username, 'wrong-password', newIp());
      expect(res.status).toBe(401);
      expect(res.ms).toBeGreaterThanOrEqual(loginDelayMs(f, policy));
    }
    expect(loginDelayMs(6, policy)).toBeGreaterThan(0);
  });

  it('unknown usernames are slowed down the same way (no hint which accounts exist)', async () => {
    const ghost = `ghost_${Date.now()}`;
    for (let f = 0; f < 5; f++) {
      const res = await login(ghost, 'whatever-1', newIp());
      expect(res.status).toBe(401);
      expect(res.body.detail).toBe(MESSAGES.login.invalidCredentials);
      expect(res.ms).toBeGreaterThanOrEqual(loginDelayMs(f, policy));
    }
  });

  it('five wrong from one address: the sixth from there is 429 even with the right password; another address still signs in', async () => {
    const u = await newCustomer();
    const ip = newIp();
    for (let i = 0; i < 5; i++) expect((await login(u.username, 'wrong-password', ip)).status).toBe(401);
    expect429(await login(u.username, u.password, ip));
    expect429(await login(u.username.toUpperCase(), 'wrong-password', ip));
    expect((await login(u.username, u.password, newIp())).status).toBe(200);
    // It is that pair only: the address can still sign in to other accounts.
    const other = await newCustomer();
    expect((await login(other.username, other.password, ip)).status).toBe(200);
  });

  it('a blocked unknown username from one address gets the same 429', async () => {
    const ghost = `nobody_${Date.now()}`;
    const ip = newIp();
    for (let i = 0; i < 5; i++) expect((await login(ghost, 'whatever-1', ip)).status).toBe(401);
    expect429(await login(ghost, 'whatever-1', ip));
  });

  it('parallel guesses cannot slip past the pair limit while their checks are in flight', async () => {
    const u = await newCustomer();
    const ip = newIp();
    // 60 at once: enough to expose counters locked in different orders (a deadlock, answered 500).
    const parallel = 60;
    const results = await Promise.all(Array.from({ length: parallel }, () => login(u.username, 'wrong-password', ip)));
    expect(results.filter((r) => r.status !== 401 && r.status !== 429).map((r) => `${r.status} ${r.text}`)).toEqual([]);
    expect(results.filter((r) => r.status === 401)).toHaveLength(h.config.LOGIN_MAX_FAILURES_PER_PAIR);
    expect(results.filter((r) => r.status === 429)).toHaveLength(parallel - h.config.LOGIN_MAX_FAILURES_PER_PAIR);
  });

  it('a success clears the pair (not the account delay)', async () => {
    const u = await newCustomer();
    const ip = newIp();
    for (let i = 0; i < 4; i++) expect((await login(u.username, 'wrong-password', ip)).status).toBe(401);
    expect((await login(u.username, u.password, ip)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(u.username, 'wrong-password', ip)).status).toBe(401);
    expect429(await login(u.username, u.password, ip));
    // The account's failures stay: 9 in the window, so the next sign-in from anywhere waits.
    const ok = await login(u.username, u.password, newIp());
    expect(ok.status).toBe(200);
    expect(ok.ms).toBeGreaterThanOrEqual(loginDelayMs(9, policy));
  });

  it('successful sign-ins from one address never lead to 429 (30 in a row, over the per-address limit)', async () => {
    const u = await newCustomer();
    const ip = newIp();
    for (let i = 0; i < 30; i++) expect((await login(u.username, u.password, ip)).status).toBe(200);
  });

  it('invalid bodies (400) and a deactivated account with the right password (403) are not failures', async () => {
    const u = await newCustomer();
    const ip = newIp();
    for (let i = 0; i < 6; i++) {
      const res = await h.api.post('/api/auth/login', { username: u.username }, { headers: { 'x-dme-client-ip': ip } });
      expect(res.status).toBe(400);
    }
    expect((await h.api.patch(`/api/users/${u.id}/status`, { status: 'DEACTIVATED' }, { as: h.admin })).status).toBe(200);
    for (let i = 0; i < 6; i++) {
      const res = await login(u.username, u.password, ip);
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe(MESSAGES.login.deactivated);
    }
    expect((await h.api.patch(`/api/users/${u.id}/status`, { status: 'ACTIVE' }, { as: h.admin })).status).toBe(200);
    expect((await login(u.username, u.password, ip)).status).toBe(200);
    const [row] = await h.orm.em.fork().execute<Array<{ failures: number }>>(`select failures from identity.login_throttle where key = ?`, [
      throttleKeys(u.username, ip).account,
    ]);
    expect(row?.failures ?? 0).toBe(0);
  });

  it(`after ${MAX_PER_IP} failed sign-ins an address gets 429 for any account; other addresses do not`, async () => {
    const ip = newIp();
    const stamp = Date.now();
    const results = await Promise.all(Array.from({ length: MAX_PER_IP }, (_, i) => login(`spray_${stamp}_${i}`, 'whatever-1', ip)));
    expect(results.map((r) => r.status)).toEqual(Array(MAX_PER_IP).fill(401));
    const u = await newCustomer();
    expect429(await login(u.username, u.password, ip));
    expect((await login(u.username, u.password, newIp())).status).toBe(200);
  });

  it('the limits are shared by two identity replicas on the same database', async () => {
    const u = await newCustomer();
    const ip = newIp();
    for (let i = 0; i < 3; i++) expect((await login(u.username, 'wrong-password', ip, h.api)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await login(u.username, 'wrong-password', ip, replica.api)).status).toBe(401);
    expect429(await login(u.username, u.password, ip, h.api));
    expect429(await login(u.username, u.password, ip, replica.api));
    // The account delay counts the failures both replicas saw.
    const ok = await login(u.username, u.password, newIp(), replica.api);
    expect(ok.status).toBe(200);
    expect(ok.ms).toBeGreaterThanOrEqual(loginDelayMs(5, policy));
  });

  it('a blocked pair signs in again once its window has passed; housekeeping deletes ended windows', async () => {
    const u = await newCustomer();
    const ip = newIp();
    for (let i = 0; i < 5; i++) expect((await login(u.username, 'wrong-password', ip)).status).toBe(401);
    expect429(await login(u.username, u.password, ip));
    const keys = throttleKeys(u.username, ip);
    const em = h.orm.em.fork();
    await em.execute(`update identity.login_throttle set window_ends_at = now() - interval '1 second' where key in (?, ?)`, [keys.pair, keys.account]);
    expect((await login(u.username, u.password, ip)).status).toBe(200);

    // Stored keys name neither the username nor the address.
    const all = await em.execute<Array<{ key: string }>>(`select key from identity.login_throttle`);
    expect(all.length).toBeGreaterThan(0);
    expect(all.some((r) => r.key.includes(u.username) || r.key.includes(ip))).toBe(false);

    await em.execute(`update identity.login_throttle set window_ends_at = now() - interval '1 second'`);
    expect(await purgeExpiredThrottle(em)).toBe(all.length);
    expect(await em.execute(`select 1 from identity.login_throttle`)).toHaveLength(0);
  });
});
