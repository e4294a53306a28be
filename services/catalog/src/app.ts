import type { MikroORM } from '@mikro-orm/postgresql';
import { createHttpApp, mountRoutes, type Logger } from '@dme/platform';
import type { CatalogConfig } from './config';
import { mediaHandlers } from './modules/media/media.routes';

export interface CatalogDeps {
  orm: MikroORM;
  config: CatalogConfig;
  logger: Logger;
  afterCommit?: () => void;
}

/** The catalog service's HTTP app (no listen: tests use it directly). */
export function createApp(deps: CatalogDeps) {
  const app = createHttpApp({ name: 'catalog', logger: deps.logger });
  app.use(async (ctx, next) => {
    ctx.state.em = deps.orm.em.fork();
    await next();
  });
  const api = mountRoutes('catalog', { ...mediaHandlers(deps.config) }, deps.config.INTERNAL_TOKEN);
  app.use(api.routes()).use(api.allowedMethods());
  return app;
}

export const entities = [];
export const migrations = [];
export { CatalogEnv } from './config';
