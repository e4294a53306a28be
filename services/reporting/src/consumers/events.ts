import type { EntityManager } from '@mikro-orm/postgresql';
import { startConsumer, type ConnectionSource, type Logger, type NatsConnection, type RunningConsumer } from '@dme/platform';
import { applyReportingEvents, REPORTING_SUBJECTS } from '../modules/readmodel/apply';

/** Durable consumer names (one per subject tree; shared by every replica). */
export const REPORTING_CONSUMERS = {
  'dme.catalog.>': 'reporting-catalog',
  'dme.order.>': 'reporting-orders',
  'dme.payment.>': 'reporting-payments',
} as const satisfies Record<(typeof REPORTING_SUBJECTS)[number], string>;

/**
 * The read models' feed: catalog products, orders and their status changes, payments. Each
 * consumer handles batches in stream order in one transaction with its inbox records (each
 * event's effect happens once); events of one order on different subjects may come in any order
 * (modules/readmodel/apply.ts keeps facts and recomputes the order from them).
 */
export async function startReportingConsumers(opts: {
  nc: NatsConnection;
  em: EntityManager;
  logger: Logger;
  connections?: ConnectionSource;
  /** Durable names per subject (tests use names private to their run). */
  durables?: Partial<Record<(typeof REPORTING_SUBJECTS)[number], string>>;
}): Promise<RunningConsumer[]> {
  const running: RunningConsumer[] = [];
  for (const subject of REPORTING_SUBJECTS) {
    running.push(
      await startConsumer({
        nc: opts.nc,
        em: opts.em,
        logger: opts.logger,
        durable: opts.durables?.[subject] ?? REPORTING_CONSUMERS[subject],
        subjects: [subject],
        handleBatch: applyReportingEvents,
        ...(opts.connections ? { connections: opts.connections } : {}),
      }),
    );
  }
  return running;
}
