import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly issues: Array<{ variable: string; message: string }>) {
    super(`Invalid configuration: ${issues.map((i) => `${i.variable}: ${i.message}`).join('; ')}`);
  }
}

/** Parses environment variables with a zod schema; a bad value names its variable. */
export function parseConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => ({ variable: String(issue.path[0] ?? '?'), message: issue.message })),
  );
}

/** Like parseConfig, but stops the process with one line per bad variable (for main.ts). */
export function loadConfigOrExit<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  try {
    return parseConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const issue of err.issues) console.error(`Configuration error: ${issue.variable}: ${issue.message}`);
      process.exit(1);
    }
    throw err;
  }
}

const port = z.coerce.number().int().min(1).max(65535);

/** Variables every service reads. */
export const serviceEnv = {
  DATABASE_URL: z.string().url({ error: 'must be a postgres:// URL' }),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  INTERNAL_TOKEN: z.string().min(16, { error: 'must be at least 16 characters (shared by gateway and services)' }),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
};

export { port as portSchema };
