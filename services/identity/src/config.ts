import { z } from 'zod';
import { portSchema, serviceEnv } from '@dme/platform';

export const IdentityEnv = z.object({
  ...serviceEnv,
  PORT: portSchema.default(4101),
  /** A session ends after this many minutes without a request. */
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(120),
  /** A session ends this many hours after sign-in, whatever happens. */
  SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(24),
  /** Send the session cookie with Secure (set true behind HTTPS). */
  COOKIE_SECURE: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),

  // Sign-in throttling (modules/auth/throttle.ts, OWASP "Authentication: account lockout").
  // Counters live in PostgreSQL (identity.login_throttle), so every replica shares them.
  /** A failed sign-in counts for this many minutes (the window of every counter below). */
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(15),
  /** Failed sign-ins for one username from one address before that pair gets 429 for the rest of the window. */
  LOGIN_MAX_FAILURES_PER_PAIR: z.coerce.number().int().min(1).max(1000).default(5),
  /** Failed sign-ins from one address (any username; IPv6 by /64) before that address gets 429. */
  LOGIN_MAX_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /** Failed sign-ins on one account (from anywhere) before its sign-ins are answered with a delay. */
  LOGIN_DELAY_AFTER_FAILURES: z.coerce.number().int().min(0).max(1000).default(3),
  /** The first delay (ms); it doubles with every further failure. 0 turns the delay off. */
  LOGIN_DELAY_BASE_MS: z.coerce.number().int().min(0).max(60_000).default(250),
  /** The longest delay (ms). Accounts are slowed down, never locked. */
  LOGIN_DELAY_MAX_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /**
   * Requests one address may make in an hour to register and to the account links (forgot and
   * reset password, verify e-mail, unsubscribe), together; more get 429. Counted in PostgreSQL
   * (identity.rate_limits), so every replica shares the count.
   */
  REGISTER_MAX_PER_IP: z.coerce.number().int().min(1).default(30),

  // E-mail (issue 24, modules/messages). Without SMTP_URL messages are queued and kept, not sent.
  /** The relay: smtp://user:pass@host:port or smtps://...; `npm start` runs a local mail catcher. */
  SMTP_URL: z.string().regex(/^smtps?:\/\//, { error: 'must be an smtp:// or smtps:// URL' }).optional(),
  /** The sender of every message. */
  MAIL_FROM: z.string().min(3).default('"DME Supply" <no-reply@dme-shop.local>'),
  /** The shop's address as customers reach it: the links in messages start with it. */
  PUBLIC_URL: z.string().url({ error: 'must be a URL' }).default('http://localhost:8080').transform((u) => u.replace(/\/+$/, '')),
  /** A password-reset link works this many minutes, once. */
  RESET_TOKEN_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(30),
  /** An e-mail verification link works this many hours, once. */
  VERIFY_TOKEN_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(72),
  /** Reset or verification e-mails one address or account may ask for per hour (more are answered the same, and not sent). */
  ACCOUNT_MAIL_MAX_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /**
   * The least time (ms) a forgot-password answer takes, whether the address is known or not, so the
   * answer's timing does not tell which addresses have accounts.
   */
  FORGOT_PASSWORD_MIN_MS: z.coerce.number().int().min(0).max(10_000).default(400),
});
export type IdentityConfig = z.output<typeof IdentityEnv>;
