/**
 * Rebuilds the reporting read models from the event stream into an empty schema:
 *
 *   DATABASE_URL=postgres://… NATS_URL=nats://… npx tsx services/reporting/src/rebuild.ts [schema]
 *
 * The schema (default `reporting_rebuild`) is dropped and built again from every event in the
 * stream; the live `reporting` schema is left alone. Compare the two, or swap them while the
 * service is stopped (see modules/rebuild/rebuild.ts).
 */
import { z } from 'zod';
import { connectNats, createLogger, loadConfigOrExit, serviceEnv } from '@dme/platform';
import { DEFAULT_REBUILD_SCHEMA, rebuild } from './modules/rebuild/rebuild';

const env = loadConfigOrExit(
  z.object({ DATABASE_URL: serviceEnv.DATABASE_URL, NATS_URL: serviceEnv.NATS_URL, NATS_PREFIX: serviceEnv.NATS_PREFIX, LOG_LEVEL: serviceEnv.LOG_LEVEL }),
);
const logger = createLogger('reporting-rebuild', env.LOG_LEVEL);
const schema = process.argv[2] ?? DEFAULT_REBUILD_SCHEMA;
const nc = await connectNats(env.NATS_URL, 'reporting-rebuild', { prefix: env.NATS_PREFIX });
try {
  const started = Date.now();
  const result = await rebuild({ databaseUrl: env.DATABASE_URL, nc, logger, schema });
  logger.info({ ...result, ms: Date.now() - started }, `rebuilt schema "${result.schema}" from ${result.messages} stream messages`);
} catch (err) {
  logger.error({ err }, 'rebuild failed');
  process.exitCode = 1;
} finally {
  await nc.drain();
}
