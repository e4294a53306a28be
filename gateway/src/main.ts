import { createLogger, exitWithParent, listenHttp, loadConfigOrExit } from '@dme/platform';
import { GatewayEnv } from './config';
import { createApp } from './app';

const config = loadConfigOrExit(GatewayEnv);
const logger = createLogger('gateway', config.LOG_LEVEL);
const app = createApp({ config, logger });
process.on('unhandledRejection', (err) => logger.error({ err }, 'gateway: unhandled rejection'));
process.on('uncaughtException', (err) => {
  logger.fatal({ err }, 'gateway: uncaught exception, exiting');
  process.exit(1);
});
const server = await listenHttp(app, config.PORT, config.HOST).catch((err: unknown) => {
  logger.fatal({ err }, 'gateway could not start');
  process.exit(1);
});
logger.info({ port: config.PORT }, 'gateway listening');
const stop = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
exitWithParent(stop);
