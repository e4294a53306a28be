import { runService } from '@dme/platform';
import { CatalogEnv } from './config';
import { createApp, entities, migrations } from './app';

await runService({
  name: 'catalog',
  schema: 'catalog',
  env: CatalogEnv,
  entities,
  migrations,
  createApp: ({ orm, config, logger, relay }) => createApp({ orm, config, logger, afterCommit: () => relay.kick() }),
});
