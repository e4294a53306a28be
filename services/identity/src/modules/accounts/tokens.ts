import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { qualified } from '@dme/platform';
import { hashToken } from '../sessions/session.service';

/**
 * One-time links (issue 24): a random 256-bit token goes into the e-mail; only its SHA-256 is kept
 * (identity.account_tokens), with its purpose, the address it was sent to and its end. Using one
 * is a single UPDATE ... WHERE used_at IS NULL AND expires_at > now(): two clicks at once cannot
 * both use it.
 */
export type TokenPurpose = 'VERIFY_EMAIL' | 'RESET_PASSWORD';

export async function issueToken(em: EntityManager, userId: string, purpose: TokenPurpose, email: string, validMinutes: number): Promise<{ id: string; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const id = randomUUID();
  await em.execute(
    `insert into ${qualified(em, 'account_tokens')} (id, user_id, purpose, token_hash, email, expires_at)
     values (?, ?, ?, ?, ?, now() + make_interval(mins => ?))`,
    [id, userId, purpose, hashToken(token), email, validMinutes],
    'run',
  );
  return { id, token };
}

/**
 * Uses a token: answers whose it was and the address it was sent to, or undefined when it is
 * unknown, of another purpose, used, or expired. Other unused tokens of the same purpose for the
 * account are ended too (the newest link used makes the older ones void).
 */
export async function useToken(em: EntityManager, purpose: TokenPurpose, token: string): Promise<{ id: string; userId: string; email: string } | undefined> {
  const t = qualified(em, 'account_tokens');
  const rows = await em.execute<Array<{ id: string; user_id: string; email: string }>>(
    `update ${t} set used_at = now()
      where token_hash = ? and purpose = ? and used_at is null and expires_at > now()
      returning id, user_id, email`,
    [hashToken(token), purpose],
  );
  const row = rows[0];
  if (!row) return undefined;
  await em.execute(`update ${t} set used_at = now() where user_id = ? and purpose = ? and used_at is null`, [row.user_id, purpose], 'run');
  return { id: row.id, userId: row.user_id, email: row.email };
}

/**
 * Links of a purpose sent in the last hour to an account or to an address: what a request for
 * another one is measured against. The account's row is locked first, so two requests at once
 * count each other.
 */
export async function linksSentLastHour(em: EntityManager, userId: string, email: string, purpose: TokenPurpose): Promise<number> {
  await em.execute(`select 1 from ${qualified(em, 'users')} where id = ? for update`, [userId]);
  const rows = await em.execute<Array<{ n: string }>>(
    `select count(*) as n from ${qualified(em, 'account_tokens')}
      where purpose = ? and (user_id = ? or lower(email) = lower(?)) and created_at > now() - interval '1 hour'`,
    [purpose, userId, email],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Removes links that ended more than a day ago (housekeeping). */
export async function purgeOldTokens(em: EntityManager): Promise<number> {
  const res = await em.execute<{ affectedRows: number }>(`delete from ${qualified(em, 'account_tokens')} where expires_at < now() - interval '1 day'`, [], 'run');
  return res.affectedRows;
}
