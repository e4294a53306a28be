import { z } from 'zod';
import { portSchema, serviceEnv } from '@dme/platform';

export const OrderEnv = z.object({
  ...serviceEnv,
  PORT: portSchema.default(4103),
  /** Rental reminders go out from this Manila time of day (issue 24; terms REMINDER_TIME). */
  REMINDER_TIME: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'must be HH:MM (24 h)' }).default('09:00'),
  /** How often every replica looks for reminders due (ms). */
  REMINDER_EVERY_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
});
export type OrderConfig = z.output<typeof OrderEnv>;
