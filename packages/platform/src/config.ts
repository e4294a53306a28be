import { z } from 'zod';
import { natsPrefixProblem } from './naming';

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

/**
 * NATS_PREFIX: the deployment's prefix on NATS (streams, consumers, subjects), so deployments that
 * share one NATS cluster stay apart. Empty (the default): the unprefixed names.
 */
export const natsPrefixSchema = z
  .string()
  .default('')
  .superRefine((prefix, ctx) => {
    const problem = natsPrefixProblem(prefix);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * SHUTDOWN_DRAIN_MS: on SIGTERM, how long a process keeps taking requests while /health/ready
 * already answers 503, so a load balancer stops sending before the listener closes. 0 (default,
 * one machine): close at once. Behind a load balancer: a little more than its probe interval
 * times its failure threshold; with the 9 s for requests in flight it must fit the orchestrator's
 * grace period.
 */
export const shutdownDrainSchema = z.coerce.number().int().min(0).max(60_000).default(0);

/**
 * REHEARSAL_MS: at start, before it listens, how long a process may spend sending its own hot path
 * requests that change nothing (rehearsal.ts), so the first customers after a start do not wait
 * for the path's first executions. 0 skips it.
 */
export const rehearsalMsSchema = z.coerce.number().int().min(0).max(10_000).default(300);

/** NATS_STREAM_REPLICAS: copies of each stream in a JetStream cluster (1 on one server, 3 on three nodes). */
export const streamReplicasSchema = z.coerce.number().int().min(1).max(5).default(1);

/** Variables every service reads. */
export const serviceEnv = {
  DATABASE_URL: z.string().url({ error: 'must be a postgres:// URL' }),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  NATS_PREFIX: natsPrefixSchema,
  NATS_STREAM_REPLICAS: streamReplicasSchema,
  INTERNAL_TOKEN: z.string().min(16, { error: 'must be at least 16 characters (shared by gateway and services)' }),
  HOST: z.string().default('127.0.0.1'),
  SHUTDOWN_DRAIN_MS: shutdownDrainSchema,
  REHEARSAL_MS: rehearsalMsSchema,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
};

export { port as portSchema };
