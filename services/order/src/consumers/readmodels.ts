import type { EntityManager } from '@mikro-orm/postgresql';
import { startConsumer, type Logger, type NatsConnection, type RunningConsumer } from '@dme/platform';
import { applyCatalogEvent, applyIdentityEvent } from '../modules/readmodels/readmodels';

/** The order service's read models: customers (identity events) and products (catalog events). */
export async function startReadModelConsumers(opts: { nc: NatsConnection; em: EntityManager; logger: Logger; durablePrefix?: string }): Promise<RunningConsumer[]> {
  const prefix = opts.durablePrefix ?? 'order';
  return [
    await startConsumer({ ...opts, durable: `${prefix}-identity`, subjects: ['dme.identity.>'], handle: applyIdentityEvent }),
    await startConsumer({ ...opts, durable: `${prefix}-catalog`, subjects: ['dme.catalog.>'], handle: applyCatalogEvent }),
  ];
}
