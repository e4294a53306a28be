import { z } from 'zod';
import { portSchema, serviceEnv } from '@dme/platform';

export const OrderEnv = z.object({
  ...serviceEnv,
  PORT: portSchema.default(4103),
});
export type OrderConfig = z.output<typeof OrderEnv>;
