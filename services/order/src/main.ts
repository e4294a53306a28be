import { runService } from '@dme/platform';
import { OrderEnv } from './config';
import { createApp, entities, migrations } from './app';
import { startReadModelConsumers } from './consumers/readmodels';

await runService({
  name: 'order',
  schema: 'ordering',
  env: OrderEnv,
  entities,
  migrations,
  createApp: ({ orm, config, logger, relay, nc }) => createApp({ orm, config, logger, nc, afterCommit: () => relay.kick() }),
  consumers: ({ nc, orm, logger }) => startReadModelConsumers({ nc, em: orm.em, logger }),
});
