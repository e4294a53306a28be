import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import { EVENT_DATA, EVENTS, EventEnvelope, inOrderScope, LIVE_EVENTS_PATH, liveAudienceOf, orderScopeOf, type LiveAudience, type LiveEvent, type OrderStatus } from '@dme/contracts';
import { BODY_MESSAGES, hasBody, HttpProblem, namesOf, tooManyRequests, unauthorized, type Logger, type NatsConnection } from '@dme/platform';
import type { GatewayConfig } from './config';
import { SESSION_COOKIE, type EndedSessions, type Principal, type SessionResolver } from './session';

/**
 * Live updates (GET /api/events, server-sent events), served by the gateway itself.
 *
 * One set of core NATS subscriptions per gateway process (the domain events are published to
 * JetStream subjects; a core subscription receives them too, best-effort: clients refetch when
 * they reconnect) feeds every open stream. Each event is mapped to a LiveEvent and sent only to
 * the streams whose user may see it (decided here, on the server, from the session's role):
 *
 * - holders of order:read or payment:read (staff) receive every event;
 * - everyone else hears of the orders they may see, by the one rule of contracts' orderScopeOf /
 *   inOrderScope: a driver (order:drive without order:read) of the status changes of orders
 *   assigned to them (the event names the driver the order has after the step; an order waiting
 *   for a driver is not theirs until their scan takes it), a customer (order:read-own) of the
 *   events of their own orders; anyone else receives nothing but heartbeats.
 *
 * A stream ends when its session ends (a revocation or a logout seen by this gateway ends it at
 * once; a re-check through the session cache every LIVE_SESSION_CHECK_SECONDS catches the rest),
 * after LIVE_STREAM_MAX_SECONDS (EventSource reconnects by itself), when the client goes away
 * or reads too slowly, and when the gateway stops.
 */

/** The subjects the gateway listens to (core subscriptions). */
export const LIVE_SUBJECTS = ['dme.order.>', 'dme.payment.>', 'dme.request.>'] as const;

/** The reconnection delay sent to EventSource first (ms). */
export const LIVE_RETRY_MS = 3000;

/** A stream with more than this many bytes not yet taken by its client is ended (too slow). */
const MAX_BUFFERED_BYTES = 256 * 1024;

const OrderPlaced = EVENT_DATA[EVENTS.order.placed].pick({ orderId: true, customerId: true, type: true });
const OrderStatusChanged = EVENT_DATA[EVENTS.order.statusChanged].pick({ orderId: true, customerId: true, type: true, to: true, by: true, driverId: true });
const PaymentConfirmed = EVENT_DATA[EVENTS.payment.confirmed].pick({ orderId: true, customerId: true, orderType: true });
const PaymentRefundDue = EVENT_DATA[EVENTS.payment.refundDue].pick({ orderId: true, customerId: true, orderType: true });
const RequestChanged = EVENT_DATA[EVENTS.request.changed].pick({ orderId: true, customerId: true });

/** A mapped event with what decides who may receive it. */
export interface RoutedEvent {
  event: LiveEvent;
  customerId: string;
  /** Order status changes only: where the order went, who moved it, and its driver after the step. */
  statusChange?: { to: OrderStatus; by: string | null; driverId: string | null };
}

const decoder = new TextDecoder();

/** Maps a domain event (an EventEnvelope as published) to a live event; undefined for anything else or anything malformed. */
export function routeEvent(payload: Uint8Array | string): RoutedEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(typeof payload === 'string' ? payload : decoder.decode(payload));
  } catch {
    return undefined;
  }
  const envelope = EventEnvelope.safeParse(json);
  if (!envelope.success) return undefined;
  const { type, data, occurredAt: at } = envelope.data;
  switch (type) {
    case EVENTS.order.placed: {
      const d = OrderPlaced.safeParse(data);
      if (!d.success) return undefined;
      return { event: { kind: 'order', orderId: d.data.orderId, orderType: d.data.type, status: 'PENDING', at }, customerId: d.data.customerId };
    }
    case EVENTS.order.statusChanged: {
      const d = OrderStatusChanged.safeParse(data);
      if (!d.success) return undefined;
      return {
        event: { kind: 'order', orderId: d.data.orderId, orderType: d.data.type, status: d.data.to, at },
        customerId: d.data.customerId,
        statusChange: { to: d.data.to, by: d.data.by, driverId: d.data.driverId },
      };
    }
    case EVENTS.payment.confirmed: {
      const d = PaymentConfirmed.safeParse(data);
      if (!d.success) return undefined;
      return { event: { kind: 'payment', orderId: d.data.orderId, orderType: d.data.orderType, status: null, at }, customerId: d.data.customerId };
    }
    // A payment taken for an order cancelled meanwhile (issue 22): accounting's lists and the customer's order refresh.
    case EVENTS.payment.refundDue: {
      const d = PaymentRefundDue.safeParse(data);
      if (!d.success) return undefined;
      return { event: { kind: 'payment', orderId: d.data.orderId, orderType: d.data.orderType, status: null, at }, customerId: d.data.customerId };
    }
    case EVENTS.request.changed: {
      const d = RequestChanged.safeParse(data);
      if (!d.success) return undefined;
      return { event: { kind: 'request', orderId: d.data.orderId, orderType: 'RENT', status: null, at }, customerId: d.data.customerId };
    }
    default:
      return undefined;
  }
}

/** Who a stream's user is, as far as live updates go (contracts liveAudienceOf: the rule lives there). */
export type Audience = LiveAudience;
export const audienceOf = (p: Pick<Principal, 'userId' | 'userType'>): Audience => liveAudienceOf(p, orderScopeOf(p));

export function mayReceive(audience: Audience, e: RoutedEvent): boolean {
  if (audience.kind === 'staff') return true;
  // Only a status change names the order's driver: a driver hears of nothing else.
  return inOrderScope(audience, { customerId: e.customerId, driverId: e.statusChange?.driverId ?? null });
}

/** Whether an Accept header asks for server-sent events (EventSource sends `text/event-stream`). */
export function acceptsEventStream(accept: string): boolean {
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (type !== 'text/event-stream') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

export interface LiveOptions {
  sessions: SessionResolver;
  logger: Logger;
  maxPerUser: number;
  maxStreams: number;
  heartbeatMs: number;
  sessionCheckMs: number;
  maxLifetimeMs: number;
}

export function liveOptions(config: GatewayConfig, sessions: SessionResolver, logger: Logger): LiveOptions {
  return {
    sessions,
    logger,
    maxPerUser: config.LIVE_MAX_STREAMS_PER_USER,
    maxStreams: config.LIVE_MAX_STREAMS,
    heartbeatMs: config.LIVE_HEARTBEAT_SECONDS * 1000,
    sessionCheckMs: config.LIVE_SESSION_CHECK_SECONDS * 1000,
    maxLifetimeMs: config.LIVE_STREAM_MAX_SECONDS * 1000,
  };
}

interface LiveStream {
  principal: Principal;
  token: string;
  audience: Audience;
  /** Writes one chunk; ends the stream when its client is too slow. */
  send: (chunk: string) => void;
  /** Ends the stream (its buffered data is still sent) and releases everything it holds. */
  end: () => void;
}

type Subscription = ReturnType<NatsConnection['subscribe']>;

/** The open live-update streams of one gateway process, and their one feed from NATS. */
export class LiveHub {
  private readonly streams = new Set<LiveStream>();
  private readonly byUser = new Map<string, Set<LiveStream>>();
  private subscriptions: Subscription[] = [];
  private warnedNoFeed = false;
  private closed = false;
  private readonly stopListening: () => void;
  /** Events received from NATS and events sent to streams, for tests and diagnostics. */
  readonly stats = { received: 0, ignored: 0, sent: 0 };

  constructor(private readonly opts: LiveOptions) {
    this.stopListening = opts.sessions.onEnded((ended) => this.endSessions(ended));
  }

  /** Open streams right now. */
  get size(): number {
    return this.streams.size;
  }

  /** Whether the hub listens to NATS. */
  get attached(): boolean {
    return this.subscriptions.length > 0;
  }

  /**
   * Feeds the streams from this NATS connection (replacing any earlier one). Returns a function
   * that stops listening. `prefix` (tests only) moves the subjects to ones private to a test run:
   * events are told apart by their envelope's type, not by the subject.
   */
  attach(nc: NatsConnection, { prefix = '' }: { prefix?: string } = {}): () => void {
    this.detach();
    const log = this.opts.logger;
    const subs: Subscription[] = [];
    try {
      for (const subject of LIVE_SUBJECTS) {
        subs.push(
          nc.subscribe(namesOf(nc).eventSubject(`${prefix}${subject}`), {
            callback: (err, msg) => {
              if (err) {
                log.warn({ err, subject }, 'gateway: live-updates subscription failed');
                return;
              }
              this.dispatch(msg.data);
            },
          }),
        );
      }
    } catch (err) {
      log.warn({ err }, 'gateway: cannot subscribe to live updates; streams send only heartbeats');
      for (const s of subs) s.unsubscribe();
      return () => undefined;
    }
    this.subscriptions = subs;
    log.info('gateway: live updates follow order, payment and request events over NATS');
    return () => {
      if (this.subscriptions === subs) this.detach();
    };
  }

  private detach(): void {
    for (const s of this.subscriptions) {
      try {
        s.unsubscribe();
      } catch {
        // The connection is closed already: nothing to unsubscribe.
      }
    }
    this.subscriptions = [];
  }

  /** Sends one published event (raw envelope bytes) to every stream that may receive it; never throws. */
  dispatch(payload: Uint8Array | string): void {
    this.stats.received++;
    let routed: RoutedEvent | undefined;
    try {
      routed = routeEvent(payload);
    } catch (err) {
      this.opts.logger.warn({ err }, 'gateway: could not read a live-update event');
    }
    if (!routed) {
      this.stats.ignored++;
      return;
    }
    const chunk = `event: change\ndata: ${JSON.stringify(routed.event)}\n\n`;
    for (const s of this.streams) {
      if (!mayReceive(s.audience, routed)) continue;
      s.send(chunk);
      this.stats.sent++;
    }
  }

  /** Answers GET /api/events: a stream of server-sent events, or a problem. */
  async serve(ctx: Context): Promise<void> {
    if (ctx.method !== 'GET') throw new HttpProblem(405, 'Method not allowed.', undefined, { Allow: 'GET' });
    const token = ctx.cookies.get(SESSION_COOKIE);
    const principal = await this.opts.sessions.resolve(token);
    if (!principal || !token) throw unauthorized();
    if (hasBody(ctx.req)) throw new HttpProblem(400, BODY_MESSAGES.noBody);
    if (!acceptsEventStream(ctx.get('accept'))) {
      throw new HttpProblem(406, `${LIVE_EVENTS_PATH} is a stream of server-sent events: ask for it with Accept: text/event-stream (EventSource does).`);
    }
    if (this.closed || this.streams.size >= this.opts.maxStreams) {
      throw new HttpProblem(503, 'Live updates are busy right now. Please try again later.', undefined, { 'Retry-After': '30' });
    }
    const mine = this.byUser.get(principal.userId);
    if (mine && mine.size >= this.opts.maxPerUser) {
      throw tooManyRequests(`Live updates are open in ${mine.size} windows already. Close one of them and try again.`, 30);
    }
    if (!this.attached && !this.warnedNoFeed) {
      this.warnedNoFeed = true;
      this.opts.logger.warn('gateway: live updates have no NATS feed yet; streams send only heartbeats until the gateway connects');
    }
    this.open(ctx, principal, token);
  }

  private open(ctx: Context, principal: Principal, token: string): void {
    const out = new PassThrough();
    const res = ctx.res;
    const timers: NodeJS.Timeout[] = [];
    let ended = false;
    let checking = false;

    const release = () => {
      if (ended) return false;
      ended = true;
      for (const t of timers) clearTimeout(t);
      this.streams.delete(stream);
      const set = this.byUser.get(principal.userId);
      set?.delete(stream);
      if (set?.size === 0) this.byUser.delete(principal.userId);
      return true;
    };
    const stream: LiveStream = {
      principal,
      token,
      audience: audienceOf(principal),
      send: (chunk) => {
        if (ended) return;
        out.write(chunk);
        // The client does not read: rather drop it than hold its events in memory.
        if (out.writableLength > MAX_BUFFERED_BYTES && release()) res.destroy();
      },
      end: () => {
        if (release()) out.end();
      },
    };

    this.streams.add(stream);
    let set = this.byUser.get(principal.userId);
    if (!set) this.byUser.set(principal.userId, (set = new Set()));
    set.add(stream);

    // Gone (client closed, response finished or destroyed) → release; the body is destroyed by Koa.
    res.once('close', () => {
      release();
      out.destroy();
    });
    out.once('close', () => release());

    const heartbeat = setInterval(() => stream.send(': ping\n\n'), this.opts.heartbeatMs);
    const recheck = setInterval(() => {
      if (checking || ended) return;
      checking = true;
      this.opts.sessions
        .resolve(token)
        .then(
          (now) => {
            if (!now || now.sessionId !== principal.sessionId || now.userId !== principal.userId || now.userType !== principal.userType) stream.end();
          },
          // Identity cannot say whether the session holds: end; EventSource retries in 3 s.
          () => stream.end(),
        )
        .finally(() => {
          checking = false;
        });
    }, this.opts.sessionCheckMs);
    // Up to a tenth shorter, at random: streams opened together do not all reconnect together.
    const lifetime = setTimeout(() => stream.end(), this.opts.maxLifetimeMs * (0.9 + Math.random() * 0.1));
    for (const t of [heartbeat, recheck, lifetime]) t.unref();
    timers.push(heartbeat, recheck, lifetime);

    ctx.req.socket.setNoDelay(true);
    ctx.req.socket.setTimeout(0);
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Accel-Buffering', 'no');
    out.write(`retry: ${LIVE_RETRY_MS}\n\n`);
    ctx.body = out;
    // The client went away while its session was being resolved.
    if (res.destroyed || ctx.req.socket.destroyed) {
      release();
      out.destroy();
    }
  }

  /** Ends the streams of sessions that ended. */
  private endSessions(ended: EndedSessions): void {
    for (const s of [...this.streams]) {
      if (
        ('sessionId' in ended && s.principal.sessionId === ended.sessionId) ||
        ('userId' in ended && s.principal.userId === ended.userId) ||
        ('token' in ended && s.token === ended.token)
      ) {
        s.end();
      }
    }
  }

  /** Ends every stream and stops listening (the gateway is stopping). */
  close(): void {
    this.closed = true;
    this.stopListening();
    this.detach();
    for (const s of [...this.streams]) s.end();
  }
}
