import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@dme/contracts';
import { HttpProblem, qualified, tooManyRequests, type Logger, type NatsConnection } from '@dme/platform';
import type { IdentityConfig } from '../../config';
import { hashPassword, verifyPassword } from '../users/password';
import { unsubscribeUserOf } from './unsubscribe';
import { announceRevocation } from '../sessions/revocation';
import { queueMessage } from '../messages/outbox';
import { passwordChanged, passwordReset, TEMPLATES, verifyEmail } from '../messages/templates';
import { issueToken, linksSentLastHour, useToken } from './tokens';

/**
 * E-mail verification and password reset (issue 24). Every link is a one-time token
 * (tokens.ts); every e-mail is queued in the transaction that made its token (the message outbox).
 */
export type AccountConfig = Pick<
  IdentityConfig,
  'MAIL_FROM' | 'PUBLIC_URL' | 'RESET_TOKEN_MINUTES' | 'VERIFY_TOKEN_HOURS' | 'ACCOUNT_MAIL_MAX_PER_HOUR' | 'FORGOT_PASSWORD_MIN_MS'
>;

interface AccountRow {
  id: string;
  email: string;
  first_name: string;
  username: string;
}

/** Queues a confirmation link for the account's current address (registration, "send it again"). */
export async function sendVerification(tem: EntityManager, config: AccountConfig, user: { id: string; email: string; firstName: string }): Promise<void> {
  const { id, token } = await issueToken(tem, user.id, 'VERIFY_EMAIL', user.email, config.VERIFY_TOKEN_HOURS * 60);
  const url = `${config.PUBLIC_URL}/verify-email?token=${token}`;
  await queueMessage(tem, config.MAIL_FROM, user.email, TEMPLATES.verifyEmail, verifyEmail(user, url, config.VERIFY_TOKEN_HOURS), {
    ref: user.id,
    dedupeKey: `token:${id}`,
  });
}

/** "Send me a new confirmation link": at most ACCOUNT_MAIL_MAX_PER_HOUR an hour (then 429). */
export async function resendVerification(em: EntityManager, config: AccountConfig, userId: string): Promise<'sent' | 'already'> {
  return em.transactional(async (tem) => {
    const rows = await tem.execute<Array<AccountRow & { email_verified_at: Date | null }>>(
      `select id, email, first_name, username, email_verified_at from ${qualified(tem, 'users')} where id = ? and deleted_at is null`,
      [userId],
    );
    const user = rows[0];
    if (!user) throw new HttpProblem(404, 'User not found.');
    if (user.email_verified_at) return 'already';
    if ((await linksSentLastHour(tem, user.id, user.email, 'VERIFY_EMAIL')) >= config.ACCOUNT_MAIL_MAX_PER_HOUR) {
      throw tooManyRequests('You asked for several links already. Please use the last one, or wait an hour.', 3600);
    }
    await sendVerification(tem, config, { id: user.id, email: user.email, firstName: user.first_name });
    return 'sent';
  });
}

/** Follows a confirmation link: the address it was sent to is confirmed, if it is still the account's. */
export async function confirmEmail(em: EntityManager, token: string): Promise<void> {
  await em.transactional(async (tem) => {
    const used = await useToken(tem, 'VERIFY_EMAIL', token);
    const rows = used
      ? await tem.execute<Array<{ id: string }>>(
          `update ${qualified(tem, 'users')} set email_verified_at = coalesce(email_verified_at, now())
            where id = ? and lower(email) = lower(?) and deleted_at is null returning id`,
          [used.userId, used.email],
        )
      : [];
    if (!rows.length) throw new HttpProblem(400, MESSAGES.account.verifyLinkInvalid);
  });
}

/**
 * "Forgot password": a reset link to every active account with this address (an address may
 * belong to several accounts; each link names its username), at most ACCOUNT_MAIL_MAX_PER_HOUR an
 * hour per account and per address. The answer is the same, and takes at least
 * FORGOT_PASSWORD_MIN_MS, whether or not a link was sent: it does not tell which addresses have
 * accounts.
 */
export async function requestPasswordReset(em: EntityManager, config: AccountConfig, email: string, logger: Logger): Promise<number> {
  const started = Date.now();
  try {
    return await em.transactional(async (tem) => {
      const accounts = await tem.execute<AccountRow[]>(
        `select id, email, first_name, username from ${qualified(tem, 'users')}
          where lower(email) = lower(?) and deleted_at is null and status = 'ACTIVE' order by created_at limit 5`,
        [email],
      );
      let sent = 0;
      for (const a of accounts) {
        if ((await linksSentLastHour(tem, a.id, a.email, 'RESET_PASSWORD')) >= config.ACCOUNT_MAIL_MAX_PER_HOUR) {
          logger.warn({ userId: a.id }, 'password reset: hourly limit reached, no link sent');
          continue;
        }
        const { id, token } = await issueToken(tem, a.id, 'RESET_PASSWORD', a.email, config.RESET_TOKEN_MINUTES);
        const url = `${config.PUBLIC_URL}/reset-password?token=${token}`;
        const content = passwordReset({ id: a.id, email: a.email, firstName: a.first_name }, url, config.RESET_TOKEN_MINUTES, a.username);
        await queueMessage(tem, config.MAIL_FROM, a.email, TEMPLATES.passwordReset, content, { ref: a.id, dedupeKey: `token:${id}` });
        sent++;
      }
      return sent;
    });
  } finally {
    const left = config.FORGOT_PASSWORD_MIN_MS - (Date.now() - started);
    if (left > 0) await sleep(left);
  }
}

/**
 * Sets a new password with a reset link: once, within its time, for an account still active.
 * Every session of the account ends (announced to the gateways), and the owner is told by e-mail.
 * Following the link proves the address it went to, so an unconfirmed one becomes confirmed.
 */
export async function resetPassword(
  em: EntityManager,
  config: AccountConfig,
  deps: { nc: NatsConnection; logger: Logger },
  body: { token: string; password: string },
): Promise<void> {
  const passwordHash = await hashPassword(body.password);
  const userId = await em.transactional(async (tem) => {
    const used = await useToken(tem, 'RESET_PASSWORD', body.token);
    const users = qualified(tem, 'users');
    const rows = used
      ? await tem.execute<AccountRow[]>(
          `update ${users} set password_hash = ?, updated_at = now(),
                  email_verified_at = case when lower(email) = lower(?) then coalesce(email_verified_at, now()) else email_verified_at end
            where id = ? and deleted_at is null and status = 'ACTIVE' returning id, email, first_name, username`,
          [passwordHash, used.email, used.userId],
        )
      : [];
    const user = rows[0];
    if (!used || !user) throw new HttpProblem(400, MESSAGES.account.resetLinkInvalid);
    await tem.execute(`delete from ${qualified(tem, 'sessions')} where user_id = ?`, [user.id], 'run');
    const content = passwordChanged({ id: user.id, email: user.email, firstName: user.first_name }, { publicUrl: config.PUBLIC_URL });
    await queueMessage(tem, config.MAIL_FROM, user.email, TEMPLATES.passwordChanged, content, { ref: user.id, dedupeKey: `password-changed:${used.id}` });
    return user.id;
  });
  await announceRevocation(deps, { userId, reason: 'password_reset' });
}

/** The one-click link of a reminder: reminders off for its account. */
export async function unsubscribe(em: EntityManager, secret: string, token: string): Promise<void> {
  const userId = unsubscribeUserOf(secret, token);
  const rows = userId
    ? await em.execute<Array<{ id: string }>>(`update ${qualified(em, 'users')} set reminders_enabled = false where id = ? and deleted_at is null returning id`, [userId])
    : [];
  if (!rows.length) throw new HttpProblem(400, MESSAGES.account.unsubscribeLinkInvalid);
}

export async function setPreferences(em: EntityManager, userId: string, prefs: { remindersEnabled: boolean }): Promise<{ remindersEnabled: boolean }> {
  const rows = await em.execute<Array<{ reminders_enabled: boolean }>>(
    `update ${qualified(em, 'users')} set reminders_enabled = ? where id = ? and deleted_at is null returning reminders_enabled`,
    [prefs.remindersEnabled, userId],
  );
  if (!rows.length) throw new HttpProblem(404, 'User not found.');
  return { remindersEnabled: rows[0]!.reminders_enabled };
}

/**
 * Change my password: the current one must be right (400 otherwise, counted like a failed
 * sign-in is not: the caller is signed in already). Every other session of the account ends; the
 * owner is told by e-mail.
 */
export async function changePassword(
  em: EntityManager,
  config: AccountConfig,
  deps: { nc: NatsConnection; logger: Logger },
  who: { userId: string; sessionId?: string },
  body: { currentPassword: string; password: string },
): Promise<void> {
  const users = qualified(em, 'users');
  const [row] = await em.execute<Array<AccountRow & { password_hash: string }>>(
    `select id, email, first_name, username, password_hash from ${users} where id = ? and deleted_at is null`,
    [who.userId],
  );
  if (!row) throw new HttpProblem(404, 'User not found.');
  if (!(await verifyPassword(row.password_hash, body.currentPassword))) {
    throw new HttpProblem(400, MESSAGES.account.currentPasswordWrong, [{ field: 'currentPassword', message: MESSAGES.account.currentPasswordWrong }]);
  }
  const passwordHash = await hashPassword(body.password);
  await em.transactional(async (tem) => {
    await tem.execute(`update ${users} set password_hash = ?, updated_at = now() where id = ?`, [passwordHash, row.id], 'run');
    await tem.execute(`delete from ${qualified(tem, 'sessions')} where user_id = ? and id is distinct from ?`, [row.id, who.sessionId ?? null], 'run');
    const content = passwordChanged({ id: row.id, email: row.email, firstName: row.first_name }, { publicUrl: config.PUBLIC_URL });
    await queueMessage(tem, config.MAIL_FROM, row.email, TEMPLATES.passwordChanged, content, { ref: row.id, dedupeKey: `password-changed:${randomUUID()}` });
  });
  // The gateways drop every cached session of the account; the current one resolves again.
  await announceRevocation(deps, { userId: row.id, reason: 'password_reset' });
}
