import { createLogger, exitWithParent, loadConfigOrExit } from '@dme/platform';
import { GatewayEnv } from './config';
import { createApp } from './app';

const config = loadConfigOrExit(GatewayEnv);
const logger = createLogger('gateway', config.LOG_LEVEL);
const app = createApp({ config, logger });
const server = app.listen(config.PORT, config.HOST);
server.keepAliveTimeout = 65_000;
server.on('listening', () => logger.info({ port: config.PORT }, 'gateway listening'));
server.on('error', (err) => {
  logger.fatal({ err }, 'gateway could not start');
  process.exit(1);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 3000).unref();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
exitWithParent(stop);
