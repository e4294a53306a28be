import { createHash } from 'node:crypto';
import { SESSION_LOOKUP_MAX, SESSION_REVOKED_SUBJECT, SessionPrincipal, SessionResolveAnswer, SessionResolveManyAnswer, SessionRevoked } from '@dme/contracts';
import { connectNats, IDENTITY_HEADERS, MicroBatcher, namesOf, type Logger, type NatsConnection, type Settled } from '@dme/platform';
import type { GatewayConfig } from './config';
import { postJson } from './upstream';

export const SESSION_COOKIE = 'dme_session';

export type Principal = SessionPrincipal & { sessionId: string };

/** Resolved sessions kept at most (oldest dropped first). */
export const SESSION_CACHE_MAX_ENTRIES = 10_000;
/** How often the gateway pings NATS while it caches, and how old the last answer may be. */
const HEARTBEAT_MS = 1000;
const LEASE_MS = 5000;
/**
 * How long a request with a cached session waits for NATS to confirm that every revocation queued
 * before the request has been applied; past it, the session is asked of identity instead.
 */
const CATCH_UP_MS = 500;

/** Sessions that ended: one session (by id, or by its cookie token) or every session of a user. */
export type EndedSessions = { sessionId: string } | { userId: string } | { token: string };

interface Resolved {
  principal: Principal;
  validUntil?: number;
}

interface Entry {
  principal: Principal;
  /** Epoch ms after which the entry is not served. */
  until: number;
}

interface NatsState {
  connected: boolean;
  closed: boolean;
  /** When NATS last answered a ping (epoch ms). */
  lastPong: number;
  /** Sends a ping; resolves when NATS answers it (every message queued for us before it is handled then). */
  ping: () => Promise<void>;
}

export interface SessionResolverOptions {
  identityUrl: URL;
  internalToken: string;
  /** Seconds a resolved session may be served from memory; 0 asks identity on every request. */
  cacheSeconds: number;
  maxEntries?: number;
  logger: Logger;
}

/**
 * Resolves session cookies through identity (POST /internal/sessions/resolve) and, while it hears
 * identity's revocations over NATS, keeps the answers in memory for a short time (DESIGN §9):
 *
 * - an entry lives at most `cacheSeconds` and never past the session's own end (identity's
 *   `validUntil`); only successful answers are kept; keys are SHA-256 hashes of the token;
 * - a revocation on SESSION_REVOKED_SUBJECT drops the session (logout) or every session of the
 *   user (deactivation, deletion, employee changed) at once; identity announces it before it
 *   answers, so the very next request is resolved again and refused. NATS confirms identity's
 *   announcement once it has queued it for each gateway, not once the gateway has read it, so a
 *   request is served from memory only after a NATS ping sent after it arrived has come back
 *   (`caughtUp`): NATS delivers in order on one connection, so every revocation queued before
 *   the request has been applied by then. Requests that arrive together share one ping;
 * - without a NATS connection, while it is down or reconnecting, or when NATS has not answered a
 *   ping for LEASE_MS, nothing is cached and every request is resolved (the cache is emptied on
 *   the way down: nothing learnt before a gap in the feed is trusted after it);
 * - an answer that was in flight while a revocation arrived (or the feed went down) is used for
 *   its own request but not kept; concurrent requests with the same cookie share one call.
 *
 * Lookups are sent in batches (platform MicroBatcher): the cookies of requests that arrive while
 * one lookup is on its way go together in one call to identity's resolve-many (a gateway's first
 * requests after a start, or every request while it cannot cache); one alone goes as before.
 */
export class SessionResolver {
  /** Calls made to identity's resolve routes (one per batch of cache misses), for tests and diagnostics. */
  identityCalls = 0;
  private readonly cache = new Map<string, Entry>();
  private readonly inflight = new Map<string, { epoch: number; promise: Promise<Principal | undefined> }>();
  /** Bumped whenever anything is dropped: an answer fetched in an older epoch is not kept. */
  private epoch = 0;
  private nats: NatsState | undefined;
  /** Whether the cache was in use at the last check (to empty it on every change). */
  private live = false;
  private readonly cacheMs: number;
  private readonly maxEntries: number;
  private readonly endedListeners = new Set<(ended: EndedSessions) => void>();
  /** The ping that requests arriving now wait for, until it is sent (see caughtUp). */
  private nextPing: Promise<boolean> | undefined;
  private readonly lookups = new MicroBatcher<string, Resolved | undefined>((tokens) => this.askIdentity(tokens), { maxBatch: SESSION_LOOKUP_MAX });

  constructor(private readonly opts: SessionResolverOptions) {
    this.cacheMs = Math.max(0, opts.cacheSeconds) * 1000;
    this.maxEntries = opts.maxEntries ?? SESSION_CACHE_MAX_ENTRIES;
  }

  /** True while resolved sessions are kept (caching on, NATS connected and answering). */
  get caching(): boolean {
    return this.checkLive();
  }

  /** Whether the cache may be used now; empties it whenever that changes. */
  private checkLive(): boolean {
    const n = this.nats;
    const live = this.cacheMs > 0 && n !== undefined && n.connected && !n.closed && Date.now() - n.lastPong <= LEASE_MS;
    if (live !== this.live) {
      this.live = live;
      this.dropAll();
    }
    return live;
  }

  /** How many sessions are kept right now. */
  get size(): number {
    return this.cache.size;
  }

  /** The signed-in principal of a cookie token, or undefined (anonymous). */
  async resolve(token: string | undefined): Promise<Principal | undefined> {
    if (!token || token.length > 200) return undefined;
    if (!this.checkLive()) return (await this.ask(token))?.principal;

    const key = keyOf(token);
    if (this.known(key) && (await this.caughtUp())) {
      // Every revocation queued before this request arrived has been applied: what is still here holds.
      const hit = this.known(key);
      if (hit) return hit;
    }
    return this.lookUp(key, token);
  }

  /** The cached principal of a cookie, or the lookup already on its way for it (undefined: neither). */
  private known(key: string): Principal | Promise<Principal | undefined> | undefined {
    if (!this.checkLive()) return undefined;
    const hit = this.cache.get(key);
    if (hit) {
      if (hit.until > Date.now()) return hit.principal;
      this.cache.delete(key);
    }
    const flight = this.inflight.get(key);
    return flight && flight.epoch === this.epoch ? flight.promise : undefined;
  }

  /** Asks identity (a lookup begun after the request arrived is current); keeps the answer while nothing was dropped meanwhile. */
  private lookUp(key: string, token: string): Promise<Principal | undefined> {
    if (!this.checkLive()) return this.ask(token).then((answer) => answer?.principal);
    const epoch = this.epoch;
    const promise = this.ask(token)
      .then((answer) => {
        // Kept only if nothing was dropped meanwhile and the feed is still up.
        if (answer && epoch === this.epoch && this.checkLive()) this.keep(key, answer);
        return answer?.principal;
      })
      .finally(() => {
        if (this.inflight.get(key)?.promise === promise) this.inflight.delete(key);
      });
    this.inflight.set(key, { epoch, promise });
    return promise;
  }

  /**
   * True once NATS has answered a ping sent after this call, within CATCH_UP_MS: every revocation
   * it had queued for this gateway before then has been applied. Calls made before the ping is sent
   * (in the same turn of the event loop) share it.
   */
  private caughtUp(): Promise<boolean> {
    const n = this.nats;
    if (!n) return Promise.resolve(false);
    if (this.nextPing) return this.nextPing;
    const next = new Promise<boolean>((resolve) => {
      setImmediate(() => {
        if (this.nextPing === next) this.nextPing = undefined;
        const timer = setTimeout(() => resolve(false), CATCH_UP_MS);
        n.ping().then(
          () => {
            clearTimeout(timer);
            resolve(this.nats === n);
          },
          () => {
            clearTimeout(timer);
            resolve(false);
          },
        );
      });
    });
    this.nextPing = next;
    return next;
  }

  /** Drops a cookie's session (the gateway saw its logout go through). */
  forget(token: string | undefined): void {
    if (!token) return;
    const key = keyOf(token);
    this.cache.delete(key);
    this.inflight.delete(key);
    this.epoch++;
    this.announce({ token });
  }

  /** Applies a revocation from identity. */
  revoke(r: SessionRevoked): void {
    this.epoch++;
    this.inflight.clear();
    for (const [key, e] of this.cache) {
      if (r.sessionId !== undefined ? e.principal.sessionId === r.sessionId : e.principal.userId === r.userId) this.cache.delete(key);
    }
    if (r.sessionId !== undefined) this.announce({ sessionId: r.sessionId });
    else if (r.userId !== undefined) this.announce({ userId: r.userId });
  }

  /**
   * Calls `listener` whenever sessions end as far as this gateway knows (a revocation from
   * identity, or a logout that passed through here); the live-updates streams close with them.
   * Returns a function that stops listening.
   */
  onEnded(listener: (ended: EndedSessions) => void): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  private announce(ended: EndedSessions): void {
    for (const listener of this.endedListeners) {
      try {
        listener(ended);
      } catch (err) {
        this.opts.logger.error({ err }, 'gateway: a listener of ended sessions failed');
      }
    }
  }

  /**
   * Follows identity's revocations on this connection; caching is on only while it is connected
   * and answering pings. Returns a function that stops following (caching stops with it).
   */
  follow(nc: NatsConnection): () => void {
    const state: NatsState = { connected: false, closed: false, lastPong: 0, ping: () => nc.flush() };
    this.nats = state;
    this.dropAll();
    const log = this.opts.logger;
    const decoder = new TextDecoder();
    const active = () => this.nats === state && !state.closed;
    const blind = () => {
      state.connected = false;
      this.checkLive();
    };
    /** After (re)connecting: once NATS answers a ping, it has our subscription; cache from then on. */
    const confirm = () => {
      nc.flush().then(
        () => {
          if (!active()) return;
          state.connected = true;
          state.lastPong = Date.now();
        },
        () => undefined,
      );
    };

    let stopHeartbeat = () => undefined as void;
    try {
      const sub = nc.subscribe(namesOf(nc).core(SESSION_REVOKED_SUBJECT), {
        callback: (err, msg) => {
          if (!active()) return;
          if (err) {
            blind();
            return;
          }
          let revocation: SessionRevoked;
          try {
            revocation = SessionRevoked.parse(JSON.parse(decoder.decode(msg.data)));
          } catch (parseErr) {
            // Unreadable: drop everything rather than guess what it meant.
            log.warn({ err: parseErr }, 'gateway: unreadable session revocation; dropped every cached session');
            this.dropAll();
            return;
          }
          this.revoke(revocation);
        },
      });
      let pinging = false;
      const heartbeat = setInterval(() => {
        if (!active() || !state.connected || pinging) return;
        pinging = true;
        nc.flush()
          .then(() => {
            if (active()) state.lastPong = Date.now();
          })
          .catch(() => undefined)
          .finally(() => {
            pinging = false;
          });
      }, HEARTBEAT_MS);
      heartbeat.unref();
      stopHeartbeat = () => {
        clearInterval(heartbeat);
        if (!nc.isClosed()) sub.unsubscribe();
      };
    } catch (err) {
      log.warn({ err }, 'gateway: cannot follow session revocations; resolving every request');
      state.closed = true;
      return () => undefined;
    }

    void (async () => {
      for await (const s of nc.status()) {
        if (!active()) return;
        if (s.type === 'disconnect' || s.type === 'reconnecting' || s.type === 'staleConnection' || s.type === 'forceReconnect') {
          if (state.connected) log.warn({ status: s.type }, 'gateway: NATS connection lost; resolving every request until it is back');
          blind();
        } else if (s.type === 'reconnect') {
          blind();
          confirm();
        }
      }
    })().catch(() => undefined);
    void nc.closed().then(() => {
      state.closed = true;
      blind();
      stopHeartbeat();
    });
    confirm();

    return () => {
      stopHeartbeat();
      state.closed = true;
      if (this.nats === state) this.nats = undefined;
      this.checkLive();
    };
  }

  private ask(token: string): Promise<Resolved | undefined> {
    return this.lookups.add(token);
  }

  /**
   * One call to identity for the cookies of a batch: one alone to /resolve (401: no session), several
   * to /resolve-many. An answer that is not one per cookie fails the batch (MicroBatcher then asks
   * for each cookie alone), so no request is ever given another cookie's session.
   */
  private async askIdentity(tokens: string[]): Promise<Array<Settled<Resolved | undefined>>> {
    this.identityCalls++;
    const headers = { [IDENTITY_HEADERS.internalToken]: this.opts.internalToken };
    if (tokens.length === 1) {
      const res = await postJson(this.opts.identityUrl, '/internal/sessions/resolve', { token: tokens[0] }, headers);
      const parsed = res.status === 200 ? SessionResolveAnswer.safeParse(res.body) : undefined;
      return [{ ok: true, value: parsed?.success ? resolvedOf(parsed.data) : undefined }];
    }
    const res = await postJson(this.opts.identityUrl, '/internal/sessions/resolve-many', { tokens }, headers);
    const parsed = res.status === 200 ? SessionResolveManyAnswer.safeParse(res.body) : undefined;
    if (!parsed?.success || parsed.data.answers.length !== tokens.length) {
      throw new Error(`identity answered ${res.status} to a lookup of ${tokens.length} sessions`);
    }
    return parsed.data.answers.map((a) => ({ ok: true, value: a ? resolvedOf(a) : undefined }));
  }

  private keep(key: string, answer: Resolved): void {
    // An identity that does not say until when the session holds does not announce its end either.
    if (answer.validUntil === undefined) return;
    const now = Date.now();
    const until = Math.min(now + this.cacheMs, answer.validUntil);
    if (until <= now) return;
    this.cache.delete(key);
    while (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next();
      if (oldest.done) break;
      this.cache.delete(oldest.value);
    }
    this.cache.set(key, { principal: answer.principal, until });
  }

  private dropAll(): void {
    this.cache.clear();
    this.inflight.clear();
    this.epoch++;
  }
}

const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A session as identity answers it. */
const resolvedOf = (a: SessionResolveAnswer): Resolved => ({ principal: a.principal, validUntil: a.validUntil ? Date.parse(a.validUntil) : undefined });

/** The resolver a gateway with this configuration uses (it caches once it follows NATS). */
export function sessionResolver(config: GatewayConfig, logger: Logger): SessionResolver {
  return new SessionResolver({
    identityUrl: new URL(config.IDENTITY_URL),
    internalToken: config.INTERNAL_TOKEN,
    cacheSeconds: config.SESSION_CACHE_SECONDS,
    logger,
  });
}

/**
 * Connects to NATS in the background, retrying every 2 s while it is unreachable (the gateway
 * starts and serves without it), and hands the connection to `onConnected` once. `stop` closes it.
 */
export function connectInBackground(
  url: string,
  logger: Logger,
  onConnected: (nc: NatsConnection) => void,
  opts: { prefix?: string } = {},
): { stop: () => Promise<void> } {
  let nc: NatsConnection | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let warned = false;
  const attempt = async () => {
    try {
      const conn = await connectNats(url, 'gateway', { prefix: opts.prefix });
      if (stopped) {
        await conn.close();
        return;
      }
      nc = conn;
      onConnected(conn);
    } catch (err) {
      if (stopped) return;
      if (!warned) logger.warn({ err }, 'gateway: NATS is not reachable; resolving every request (and sending live updates nothing but heartbeats) until it is');
      warned = true;
      timer = setTimeout(() => void attempt(), 2000);
      timer.unref();
    }
  };
  void attempt();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await nc?.drain().catch(() => undefined);
    },
  };
}

/**
 * Connects to NATS in the background (see connectInBackground) and makes the resolver follow
 * identity's revocations there. `stop` closes the connection.
 */
export function followRevocations(url: string, sessions: SessionResolver, logger: Logger): { stop: () => Promise<void> } {
  return connectInBackground(url, logger, (nc) => {
    sessions.follow(nc);
    logger.info('gateway: following session revocations over NATS; resolved sessions are cached');
  });
}
