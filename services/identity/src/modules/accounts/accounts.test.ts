import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@dme/contracts';
import { IDENTITY_HEADERS } from '@dme/platform';
import { cookieOf, startIdentity, type Harness } from '../../test/harness';
import { unsubscribeToken } from './unsubscribe';

// Issue 24: e-mail verification and password reset, against a real SMTP server (every message parsed back).
let h: Harness;
const MIN_MS = 300;
beforeAll(async () => {
  h = await startIdentity({ ACCOUNT_MAIL_MAX_PER_HOUR: '3', FORGOT_PASSWORD_MIN_MS: String(MIN_MS) });
});
afterAll(() => h?.close());

const tokenIn = (text: string, path: string) => {
  const m = new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(text);
  if (!m) throw new Error(`no ${path} link in:\n${text}`);
  return m[1]!;
};

async function register(overrides: Record<string, unknown> = {}) {
  const person = h.person(overrides);
  const res = await h.api.post('/api/auth/register', person);
  expect(res.status).toBe(201);
  return { person, user: res.body.user as { id: string; email: string } };
}

const login = (username: string, password: string) => h.api.post('/api/auth/login', { username, password });
const resolve = (cookie: string) => h.api.post('/internal/sessions/resolve', { token: cookie.split('=')[1] });
const asCustomer = (id: string) => ({ as: { userId: id, userType: 'CUSTOMER' as const } });

describe('e-mail verification', () => {
  it('registering sends one confirmation e-mail; its link confirms the address once', async () => {
    const { person, user } = await register({ email: 'ver-1@example.com' });
    const [mail, ...more] = await h.mailTo('ver-1@example.com');
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('Confirm your e-mail address for DME Supply');
    expect(mail!.html).toContain('Confirm my e-mail address');
    const token = tokenIn(mail!.text, '/verify-email');
    expect(mail!.html).toContain(`/verify-email?token=${token}`);

    const before = await login(person.username, person.password);
    expect(before.body.emailVerified).toBe(false);
    const ok = await h.api.post('/api/auth/verify-email', { token });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe(MESSAGES.account.verified);
    expect((await h.api.get('/api/auth/me', asCustomer(user.id))).body.emailVerified).toBe(true);

    const again = await h.api.post('/api/auth/verify-email', { token });
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe(MESSAGES.account.verifyLinkInvalid);
    expect((await h.api.post('/api/auth/verify-email', { token: 'x'.repeat(43) })).status).toBe(400);
    expect((await h.api.post('/api/auth/verify-email', {})).status).toBe(400);
  });

  it('a link sent to an address the account no longer has confirms nothing', async () => {
    const { person, user } = await register({ email: 'ver-old@example.com' });
    const token = tokenIn((await h.mailTo('ver-old@example.com'))[0]!.text, '/verify-email');
    const changed = await h.api.patch('/api/auth/me', { ...person, email: 'ver-new@example.com' }, asCustomer(user.id));
    expect(changed.status).toBe(200);
    expect((await h.api.post('/api/auth/verify-email', { token })).status).toBe(400);
    expect((await h.api.get('/api/auth/me', asCustomer(user.id))).body.emailVerified).toBe(false);
  });

  it('"send it again" sends a new link, at most ACCOUNT_MAIL_MAX_PER_HOUR an hour, and none once confirmed', async () => {
    const { user } = await register({ email: 'ver-again@example.com' });
    await h.mailTo('ver-again@example.com');
    const first = await h.api.post('/api/auth/me/verification-email', undefined, asCustomer(user.id));
    expect(first.status).toBe(202);
    expect(first.body.message).toBe(MESSAGES.account.verificationSent);
    await h.api.post('/api/auth/me/verification-email', undefined, asCustomer(user.id));
    const over = await h.api.post('/api/auth/me/verification-email', undefined, asCustomer(user.id));
    expect(over.status).toBe(429);
    const mails = await h.mailTo('ver-again@example.com', 3);
    expect(mails).toHaveLength(3);
    // The newest link works; using it ends the older ones.
    const tokens = mails.map((m) => tokenIn(m.text, '/verify-email'));
    expect(new Set(tokens).size).toBe(3);
    expect((await h.api.post('/api/auth/verify-email', { token: tokens[2] })).status).toBe(200);
    expect((await h.api.post('/api/auth/verify-email', { token: tokens[0] })).status).toBe(400);
    const done = await h.api.post('/api/auth/me/verification-email', undefined, asCustomer(user.id));
    expect(done.body.message).toBe(MESSAGES.account.alreadyVerified);
  });

  it('staff accounts are confirmed from the start', async () => {
    expect((await h.api.get('/api/auth/me', { as: h.admin })).body.emailVerified).toBe(true);
  });
});

describe('password reset', () => {
  it('forgot → e-mail with a link → new password; the link works once; every session ends; the owner is told', async () => {
    const { person, user } = await register({ email: 'reset-1@example.com' });
    const cookie = cookieOf(await login(person.username, person.password));
    expect((await resolve(cookie)).status).toBe(200);

    const asked = await h.api.post('/api/auth/forgot-password', { email: 'RESET-1@example.com' });
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe(MESSAGES.account.resetSent);
    const mails = await h.mailTo('reset-1@example.com', 2);
    const reset = mails.find((m) => m.subject === 'Reset your DME Supply password')!;
    expect(reset.text).toContain(person.username);
    const token = tokenIn(reset.text, '/reset-password');

    const weak = await h.api.post('/api/auth/reset-password', { token, password: 'short' });
    expect(weak.status).toBe(400);
    const ok = await h.api.post('/api/auth/reset-password', { token, password: 'brand-new-pass-1' });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe(MESSAGES.account.resetDone);

    expect((await resolve(cookie)).status).toBe(401);
    expect((await login(person.username, person.password)).status).toBe(401);
    expect((await login(person.username, 'brand-new-pass-1')).status).toBe(200);
    const reused = await h.api.post('/api/auth/reset-password', { token, password: 'another-pass-2' });
    expect(reused.status).toBe(400);
    expect(reused.body.detail).toBe(MESSAGES.account.resetLinkInvalid);

    const told = await h.mailTo('reset-1@example.com', 3);
    expect(told.map((m) => m.subject)).toContain('Your DME Supply password was changed');
    // Following the link proved the address.
    expect((await h.api.get('/api/auth/me', asCustomer(user.id))).body.emailVerified).toBe(true);
  });

  it('an unknown address gets the same answer, no e-mail, and no faster', async () => {
    const times: Record<string, number> = {};
    const answers: Record<string, { status: number; body: unknown }> = {};
    await register({ email: 'known-addr@example.com' });
    for (const email of ['known-addr@example.com', 'nobody-at-all@example.com']) {
      const t0 = Date.now();
      const res = await h.api.post('/api/auth/forgot-password', { email });
      times[email] = Date.now() - t0;
      answers[email] = { status: res.status, body: res.body };
    }
    expect(answers['nobody-at-all@example.com']).toEqual(answers['known-addr@example.com']);
    expect(times['known-addr@example.com']).toBeGreaterThanOrEqual(MIN_MS);
    expect(times['nobody-at-all@example.com']).toBeGreaterThanOrEqual(MIN_MS);
    await h.mailTo('known-addr@example.com', 2);
    expect(h.smtp.received.filter((m) => m.envelopeTo.includes('nobody-at-all@example.com'))).toHaveLength(0);
  });

  it('an expired link is refused and changes nothing', async () => {
    const { person } = await register({ email: 'reset-late@example.com' });
    await h.api.post('/api/auth/forgot-password', { email: 'reset-late@example.com' });
    const mail = (await h.mailTo('reset-late@example.com', 2)).find((m) => m.subject.startsWith('Reset'))!;
    const token = tokenIn(mail.text, '/reset-password');
    await h.orm.em.fork().execute(`update identity.account_tokens set expires_at = now() - interval '1 second' where purpose = 'RESET_PASSWORD'`);
    expect((await h.api.post('/api/auth/reset-password', { token, password: 'brand-new-pass-1' })).status).toBe(400);
    expect((await login(person.username, person.password)).status).toBe(200);
  });

  it('links to one address are limited per hour: the answer stays the same, no more e-mails', async () => {
    await register({ email: 'reset-many@example.com' });
    for (let i = 0; i < 5; i++) {
      const res = await h.api.post('/api/auth/forgot-password', { email: 'reset-many@example.com' });
      expect(res.status).toBe(202);
      expect(res.body.message).toBe(MESSAGES.account.resetSent);
    }
    await h.mailTo('reset-many@example.com', 4); // the confirmation + 3 resets
    await new Promise((r) => setTimeout(r, 500));
    const resets = h.smtp.received.filter((m) => m.envelopeTo.includes('reset-many@example.com') && m.subject.startsWith('Reset'));
    expect(resets).toHaveLength(3);
  });

  it('a deactivated account gets no link', async () => {
    const { user } = await register({ email: 'reset-off@example.com' });
    await h.mailTo('reset-off@example.com');
    expect((await h.api.call('PATCH', `/api/users/${user.id}/status`, { as: h.admin, body: { status: 'DEACTIVATED' } })).status).toBe(200);
    expect((await h.api.post('/api/auth/forgot-password', { email: 'reset-off@example.com' })).status).toBe(202);
    await new Promise((r) => setTimeout(r, 500));
    expect(h.smtp.received.filter((m) => m.envelopeTo.includes('reset-off@example.com'))).toHaveLength(1);
  });

  it('a malformed address is a 400 with the message', async () => {
    const res = await h.api.post('/api/auth/forgot-password', { email: 'not-an-address' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'email', message: MESSAGES.common.emailInvalid }]);
  });
});

describe('my account: preferences, password, address', () => {
  it('turning reminders off and on; the signed one-click link turns them off; a forged one changes nothing', async () => {
    const { user } = await register({ email: 'prefs@example.com' });
    expect((await h.api.get('/api/auth/me', asCustomer(user.id))).body.preferences).toEqual({ remindersEnabled: true });
    const off = await h.api.call('PUT', '/api/auth/me/preferences', { ...asCustomer(user.id), body: { remindersEnabled: false } });
    expect(off).toMatchObject({ status: 200, body: { preferences: { remindersEnabled: false } } });
    await h.api.call('PUT', '/api/auth/me/preferences', { ...asCustomer(user.id), body: { remindersEnabled: true } });
    expect((await h.api.call('PUT', '/api/auth/me/preferences', { ...asCustomer(user.id), body: { remindersEnabled: 'no' } })).status).toBe(400);

    const other = await register({ email: 'prefs-other@example.com' });
    const forged = `${other.user.id}.${unsubscribeToken(h.config.INTERNAL_TOKEN, user.id).split('.')[1]}`;
    expect((await h.api.post('/api/auth/unsubscribe', { token: forged })).status).toBe(400);
    expect((await h.api.post('/api/auth/unsubscribe', { token: unsubscribeToken('another-deployment-secret', user.id) })).status).toBe(400);
    const done = await h.api.post('/api/auth/unsubscribe', { token: unsubscribeToken(h.config.INTERNAL_TOKEN, user.id) });
    expect(done).toMatchObject({ status: 200, body: { message: MESSAGES.account.unsubscribed } });
    expect((await h.api.get('/api/auth/me', asCustomer(user.id))).body.preferences).toEqual({ remindersEnabled: false });
    expect((await h.api.get('/api/auth/me', asCustomer(other.user.id))).body.preferences).toEqual({ remindersEnabled: true });
  });

  it('change password: the current one is asked; my other sessions end, this one stays; I am told by e-mail', async () => {
    const { person, user } = await register({ email: 'change-pw@example.com' });
    const here = await login(person.username, person.password);
    const elsewhere = cookieOf(await login(person.username, person.password));
    const sessionId = (await resolve(cookieOf(here))).body.principal.sessionId as string;
    const mine = { ...asCustomer(user.id), headers: { [IDENTITY_HEADERS.sessionId]: sessionId } };
    const wrong = await h.api.post('/api/auth/me/password', { currentPassword: 'not-it-at-all', password: 'changed-pass-77' }, mine);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([{ field: 'currentPassword', message: MESSAGES.account.currentPasswordWrong }]);
    const ok = await h.api.post('/api/auth/me/password', { currentPassword: person.password, password: 'changed-pass-77' }, mine);
    expect(ok).toMatchObject({ status: 200, body: { message: MESSAGES.account.passwordChanged } });
    expect((await resolve(cookieOf(here))).status).toBe(200);
    expect((await resolve(elsewhere)).status).toBe(401);
    expect((await login(person.username, 'changed-pass-77')).status).toBe(200);
    const mails = await h.mailTo('change-pw@example.com', 2);
    expect(mails.map((m) => m.subject)).toContain('Your DME Supply password was changed');
  });

  it('a changed address is unconfirmed until the link sent to it is followed', async () => {
    const { person, user } = await register({ email: 'move-from@example.com' });
    await h.api.post('/api/auth/verify-email', { token: tokenIn((await h.mailTo('move-from@example.com'))[0]!.text, '/verify-email') });
    expect((await h.api.get('/api/auth/me', asCustomer(user.id))).body.emailVerified).toBe(true);
    // The same address in other letters is not a change.
    await h.api.patch('/api/auth/me', { ...person, email: 'MOVE-FROM@example.com' }, asCustomer(user.id));
    expect((await h.api.get('/api/auth/me', asCustomer(user.id))).body.emailVerified).toBe(true);
    await h.api.patch('/api/auth/me', { ...person, email: 'move-to@example.com' }, asCustomer(user.id));
    expect((await h.api.get('/api/auth/me', asCustomer(user.id))).body.emailVerified).toBe(false);
    const [mail] = await h.mailTo('move-to@example.com');
    expect((await h.api.post('/api/auth/verify-email', { token: tokenIn(mail!.text, '/verify-email') })).status).toBe(200);
    expect((await h.api.get('/api/auth/me', asCustomer(user.id))).body.emailVerified).toBe(true);
  });
});
