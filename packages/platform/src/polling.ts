import type { Logger } from './logger';

/**
 * The loop of a relay (the event outbox's, the message outbox's): runs a round at once when
 * started or kicked, then again after `intervalMs`, or at once while rounds come back full (the
 * round answers how much it handled). One round at a time; a kick during a round runs another
 * right after it. A round that throws is logged and retried on the next tick.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private again = false;
  private stopped = true;
  private idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly round: () => Promise<number>,
    private readonly opts: { intervalMs: number; batchSize: number; logger: Logger; failure: string },
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.idle;
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running) return;
    this.running = true;
    let handled = 0;
    this.idle = (async () => {
      try {
        handled = await this.round();
      } catch (err) {
        this.opts.logger.warn({ err }, this.opts.failure);
      }
    })();
    await this.idle;
    this.running = false;
    if (this.stopped) return;
    const more = this.again || handled >= this.opts.batchSize;
    this.again = false;
    this.schedule(more ? 0 : this.opts.intervalMs);
  }
}

/**
 * Runs `work` in the background every `everyMs` (default 5 s), the first time at once, until the
 * returned loop is stopped; a failure is logged as `failure` and the next tick tries again (e.g.
 * the folds of kept counts and sums, which take their own advisory lock: every replica may run one).
 */
export function startPeriodic(work: () => Promise<unknown>, opts: { logger: Logger; failure: string; everyMs?: number }): PollingLoop {
  const loop = new PollingLoop(async () => (await work(), 0), { intervalMs: opts.everyMs ?? 5000, batchSize: 1, logger: opts.logger, failure: opts.failure });
  loop.start();
  return loop;
}
