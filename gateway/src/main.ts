import { closeHttpGracefully, createLogger, exitWithParent, listenHttp, loadConfigOrExit, metricsOf, rehearsalLog } from '@dme/platform';
import { GatewayEnv } from './config';
import { createApp } from './app';
import { connectInBackground, sessionResolver } from './session';
import { LiveHub, liveOptions } from './live';
import { rehearseCheckout } from './rehearsal';

const config = loadConfigOrExit(GatewayEnv);
const logger = createLogger('gateway', config.LOG_LEVEL);
// Checkouts placed against stand-ins before anything else (rehearsal.ts): the first customers
// after a start meet a path that has run.
const rehearsal = await rehearseCheckout(config, logger, { budgetMs: config.REHEARSAL_MS, requests: 300, concurrency: 4 });
const sessions = sessionResolver(config, logger);
const live = new LiveHub(liveOptions(config, sessions, logger));
const app = createApp({ config, logger, sessions, live });
// GET /metrics for Prometheus, with the internal token as bearer token (refused without it).
metricsOf(app).token = config.INTERNAL_TOKEN;
process.on('unhandledRejection', (err) => logger.error({ err }, 'gateway: unhandled rejection'));
process.on('uncaughtException', (err) => {
  logger.fatal({ err }, 'gateway: uncaught exception, exiting');
  process.exit(1);
});
await app.screensLoaded;
const server = await listenHttp(app, config.PORT, config.HOST).catch((err: unknown) => {
  logger.fatal({ err }, 'gateway could not start');
  process.exit(1);
});
logger.info({ port: config.PORT, sessionCacheSeconds: config.SESSION_CACHE_SECONDS, rehearsal: rehearsalLog(rehearsal) }, 'gateway listening');
// In the background: the gateway serves without NATS (resolving every request, live updates with
// heartbeats only) until it connects. One connection: identity's revocations and the live feed.
const nats = connectInBackground(config.NATS_URL, logger, (nc) => {
  // Revocations drop cached sessions (when caching) and end the live streams of ended sessions.
  sessions.follow(nc);
  if (config.SESSION_CACHE_SECONDS > 0) logger.info('gateway: following session revocations over NATS; resolved sessions are cached');
  live.attach(nc);
}, { prefix: config.NATS_PREFIX });
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  // Open event streams would hold the server open: end them (EventSource reconnects elsewhere).
  live.close();
  // /health/ready answers 503 at once; after the drain, requests already accepted are answered
  // (within 9 s), then NATS is drained.
  void closeHttpGracefully(server, 9000, config.SHUTDOWN_DRAIN_MS)
    .then(() => nats.stop())
    .finally(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
exitWithParent(stop);
