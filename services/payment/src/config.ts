import { z } from 'zod';
import { portSchema, serviceEnv } from '@dme/platform';

export const PaymentEnv = z.object({
  ...serviceEnv,
  PORT: portSchema.default(4104),
});
export type PaymentConfig = z.output<typeof PaymentEnv>;
