import type { Context } from 'koa';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES, permissionsOf } from '@dme/contracts';
import { forbidden, HttpProblem, IDENTITY_HEADERS, qualified, unauthorized, type HandlersOf } from '@dme/platform';
import type { IdentityConfig } from '../../config';
import { findUser, registerCustomer, toUser } from '../users/user.service';
import { verifyAgainstDummy, verifyPassword } from '../users/password';
import { closeSession, openSession, SESSION_COOKIE } from '../sessions/session.service';

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

export function authHandlers(config: IdentityConfig, afterCommit: () => void): AuthHandlers {
  const policy = { idleMinutes: config.SESSION_IDLE_MINUTES, absoluteHours: config.SESSION_ABSOLUTE_HOURS };
  return {
    async authRegister(ctx, { body }) {
      const user = await registerCustomer(em(ctx), body);
      afterCommit();
      return { user: toUser(user) };
    },

    async authLogin(ctx, { body }) {
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
      const ip = ctx.get(IDENTITY_HEADERS.clientIp) || ctx.ip || '';
      const session = await openSession(em(ctx), row.id, policy, { ip, userAgent: ctx.get('user-agent') });
      const user = await findUser(em(ctx), row.id);
      ctx.set('Set-Cookie', sessionCookie(session.token, session.expiresAt, config.COOKIE_SECURE));
      return { user: toUser(user), permissions: [...permissionsOf(user.userType)] };
    },

    async authLogout(ctx) {
      const token = ctx.cookies.get(SESSION_COOKIE);
      if (token) await closeSession(em(ctx), token);
      ctx.set('Set-Cookie', sessionCookie('', undefined, config.COOKIE_SECURE));
      return undefined;
    },

    async authMe(ctx, { principal }) {
      try {
        const user = await findUser(em(ctx), principal.userId);
        return { user: toUser(user), permissions: [...permissionsOf(user.userType)] };
      } catch (err) {
        if (err instanceof HttpProblem && err.status === 404) throw unauthorized();
        throw err;
      }
    },
  };
}
