import type { Context } from 'koa';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES, permissionsOf } from '@dme/contracts';
import {
  assertUploadsExist,
  clientAddress,
  forbidden,
  HttpProblem,
  qualified,
  unauthorized,
  type HandlersOf,
  type Logger,
  type NatsConnection,
} from '@dme/platform';
import type { IdentityConfig } from '../../config';
import { findUser, registerCustomer, toUser } from '../users/user.service';
import { verifyAgainstDummy, verifyPassword } from '../users/password';
import { closeSession, openSession, SESSION_COOKIE } from '../sessions/session.service';
import { announceRevocation } from '../sessions/revocation';
import { loginThrottle } from './throttle';
import { sendVerification } from '../accounts/accounts';
import type { UserRow } from '../users/user.entity';

type AuthHandlers = Pick<HandlersOf<'identity'>, 'authRegister' | 'authLogin' | 'authLogout' | 'authMe'>;

export function sessionCookie(value: string, expires: Date | undefined, secure: boolean): string {
  const parts = [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (expires) {
    parts.push(`Expires=${expires.toUTCString()}`);
    parts.push(`Max-Age=${Math.max(0, Math.floor((expires.getTime() - Date.now()) / 1000))}`);
  } else {
    parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'Max-Age=0');
  }
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export const em = (ctx: Context) => ctx.state.em as EntityManager;


export interface AuthDeps {
  config: IdentityConfig;
  logger: Logger;
  afterCommit: () => void;
  /** For asking the catalog whether an uploaded image exists. */
  nc: NatsConnection;
  uploadsSubject?: string;
  /** Called after a transaction that queued messages committed (kicks the mail relay). */
  afterMail?: () => void;
}

/** What GET /api/auth/me (and a sign-in) answers about a user. */
export function meOf(user: UserRow) {
  return {
    user: toUser(user),
    permissions: [...permissionsOf(user.userType)],
    emailVerified: user.emailVerifiedAt != null,
    preferences: { remindersEnabled: user.remindersEnabled },
  };
}

export function authHandlers({ config, logger, afterCommit, nc, uploadsSubject, afterMail }: AuthDeps): AuthHandlers {
  const policy = { idleMinutes: config.SESSION_IDLE_MINUTES, absoluteHours: config.SESSION_ABSOLUTE_HOURS };
  const throttle = loginThrottle(config, logger);
  return {
    async authRegister(ctx, { body }) {
      await assertUploadsExist(nc, { image: body.image }, uploadsSubject);
      // The confirmation e-mail is queued in the transaction that creates the account.
      const user = await registerCustomer(em(ctx), body, (tem, u) => sendVerification(tem, config, u));
      afterCommit();
      afterMail?.();
      return { user: toUser(user) };
    },

    async authLogin(ctx, { body }) {
      const ip = clientAddress(ctx);
      // 429 when this address, or this username from this address, failed too often; otherwise
      // answered after a delay that grows with the account's failures (throttle.ts).
      const attempt = await throttle.begin(em(ctx), body.username, ip);
      try {
        const rows = await em(ctx).execute<Array<{ id: string; password_hash: string; status: string }>>(
          `select id, password_hash, status from ${qualified(em(ctx), 'users')}
            where lower(username) = lower(?) and deleted_at is null limit 1`,
          [body.username],
        );
        const row = rows[0];
        if (!row) {
          await verifyAgainstDummy(body.password);
          throw unauthorized(MESSAGES.login.invalidCredentials);
        }
        if (!(await verifyPassword(row.password_hash, body.password))) throw unauthorized(MESSAGES.login.invalidCredentials);
        if (row.status !== 'ACTIVE') throw forbidden(MESSAGES.login.deactivated);
        await attempt.succeeded();
        return await signIn(ctx, row.id, ip);
      } catch (err) {
        if (err instanceof HttpProblem && err.status === 401) await attempt.failed();
        else await attempt.notAFailure();
        throw err;
      }
    },

    async authLogout(ctx) {
      const token = ctx.cookies.get(SESSION_COOKIE);
      const closed = token ? await closeSession(em(ctx), token) : undefined;
      // Committed; announced before the answer, so no gateway serves this session from its cache.
      if (closed) await announceRevocation({ nc, logger }, { ...closed, reason: 'logout' });
      ctx.set('Set-Cookie', sessionCookie('', undefined, config.COOKIE_SECURE));
      return undefined;
    },

    async authMe(ctx, { principal }) {
      try {
        return meOf(await findUser(em(ctx), principal.userId));
      } catch (err) {
        if (err instanceof HttpProblem && err.status === 404) throw unauthorized();
        throw err;
      }
    },
  };

  async function signIn(ctx: Context, userId: string, ip: string) {
    const session = await openSession(em(ctx), userId, policy, { ip, userAgent: ctx.get('user-agent') });
    const user = await findUser(em(ctx), userId);
    ctx.set('Set-Cookie', sessionCookie(session.token, session.expiresAt, config.COOKIE_SECURE));
    return meOf(user);
  }
}
