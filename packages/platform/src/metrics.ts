import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * A process's Prometheus metrics (issue 14): request rate and latency per route, method and
 * status (the histogram's _count is the rate), Node's own process metrics, and gauges a process
 * adds (outbox lag, pool usage). One registry per app, so several apps in one test process do
 * not mix their figures.
 */
export interface ProcessMetrics {
  registry: Registry;
  http: Histogram<'method' | 'route' | 'status'>;
  /** A gauge read when Prometheus scrapes. */
  gauge: (name: string, help: string, read: () => Promise<number> | number) => void;
  /** The bearer token /metrics asks for (none: /metrics is not served). */
  token?: string;
}

export function createProcessMetrics(service: string): ProcessMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    http,
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          this.set(await read());
        },
      });
    },
  };
}

/** What the lag gauge reads of a consumer (consumer.ts's RunningConsumer). */
export interface LaggingConsumer {
  name: string;
  pending(): Promise<number>;
}

/**
 * consumer_pending_messages{consumer}: per consumer, the events not yet delivered plus those
 * delivered but not acknowledged, read from JetStream when Prometheus scrapes. Each read has
 * `timeoutMs`: a consumer NATS does not answer for in time has no series in that scrape, so a
 * slow NATS never holds /metrics up.
 */
export function watchConsumers(metrics: ProcessMetrics, consumers: LaggingConsumer[], timeoutMs = 1000): void {
  new Gauge({
    name: 'consumer_pending_messages',
    help: 'Events waiting for a consumer: not yet delivered plus delivered and not yet acknowledged',
    labelNames: ['consumer'] as const,
    registers: [metrics.registry],
    async collect() {
      const read = await Promise.allSettled(consumers.map((c) => within(timeoutMs, c.pending())));
      this.reset();
      read.forEach((r, i) => {
        if (r.status === 'fulfilled') this.set({ consumer: consumers[i]!.name }, r.value);
      });
    },
  });
}

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Whether an Authorization header carries the metrics token (compared in constant time). */
export function metricsAuthorized(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}
