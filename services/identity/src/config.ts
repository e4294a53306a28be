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
});
export type IdentityConfig = z.output<typeof IdentityEnv>;
