import { MESSAGES } from '@dme/contracts';
import type { HandlersOf, Logger, NatsConnection } from '@dme/platform';
import type { IdentityConfig } from '../../config';
import { em } from '../auth/auth.routes';
import { changePassword, confirmEmail, requestPasswordReset, resendVerification, resetPassword, setPreferences, unsubscribe } from './accounts';

export const ACCOUNT_ROUTES = [
  'authForgotPassword',
  'authResetPassword',
  'authVerifyEmail',
  'authResendVerification',
  'authUnsubscribe',
  'authPreferences',
  'authChangePassword',
] as const;
export type AccountHandlers = Pick<HandlersOf<'identity'>, (typeof ACCOUNT_ROUTES)[number]>;

export interface AccountDeps {
  config: IdentityConfig;
  logger: Logger;
  nc: NatsConnection;
  /** Called after a transaction that queued messages committed (kicks the mail relay). */
  afterMail: () => void;
}

export function accountHandlers({ config, logger, nc, afterMail }: AccountDeps): AccountHandlers {
  return {
    async authForgotPassword(ctx, { body }) {
      const sent = await requestPasswordReset(em(ctx), config, body.email, logger);
      if (sent) afterMail();
      return { message: MESSAGES.account.resetSent };
    },
    async authResetPassword(ctx, { body }) {
      await resetPassword(em(ctx), config, { nc, logger }, body);
      afterMail();
      return { message: MESSAGES.account.resetDone };
    },
    async authVerifyEmail(ctx, { body }) {
      await confirmEmail(em(ctx), body.token);
      return { message: MESSAGES.account.verified };
    },
    async authResendVerification(ctx, { principal }) {
      const outcome = await resendVerification(em(ctx), config, principal.userId);
      if (outcome === 'sent') afterMail();
      return { message: outcome === 'sent' ? MESSAGES.account.verificationSent : MESSAGES.account.alreadyVerified };
    },
    async authUnsubscribe(ctx, { body }) {
      await unsubscribe(em(ctx), config.INTERNAL_TOKEN, body.token);
      return { message: MESSAGES.account.unsubscribed };
    },
    authPreferences: async (ctx, { body, principal }) => ({ preferences: await setPreferences(em(ctx), principal.userId, body) }),
    async authChangePassword(ctx, { body, principal }) {
      await changePassword(em(ctx), config, { nc, logger }, principal, body);
      afterMail();
      return { message: MESSAGES.account.passwordChanged };
    },
  };
}
