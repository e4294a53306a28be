import { createLogger, exitWithParent, listenHttp, loadConfigOrExit } from '@dme/platform';
import { GatewayEnv } from './config';
import { createApp } from './app';
import { followRevocations, sessionResolver } from './session';

const config = loadConfigOrExit(GatewayEnv);
const logger = createLogger('gateway', config.LOG_LEVEL);
const sessions = sessionResolver(config, logger);
const app = createApp({ config, logger, sessions });
process.on('unhandledRejection', (err) => logger.error({ err }, 'gateway: unhandled rejection'));
process.on('uncaughtException', (err) => {
  logger.fatal({ err }, 'gateway: uncaught exception, exiting');
  process.exit(1);
});
const server = await listenHttp(app, config.PORT, config.HOST).catch((err: unknown) => {
  logger.fatal({ err }, 'gateway could not start');
  process.exit(1);
});
logger.info({ port: config.PORT, sessionCacheSeconds: config.SESSION_CACHE_SECONDS }, 'gateway listening');
// In the background: the gateway serves without NATS (resolving every request) until it connects.
const revocations = config.SESSION_CACHE_SECONDS > 0 ? followRevocations(config.NATS_URL, sessions, logger) : undefined;
const stop = () => {
  void revocations?.stop();
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
exitWithParent(stop);
