import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { z } from 'zod';
import { natsPrefixSchema, portSchema, rehearsalMsSchema, shutdownDrainSchema } from '@dme/platform';

const url = z.string().url();

/**
 * ALLOWED_ORIGINS: origins besides the shop's own whose pages may send requests that change
 * something (csrf.ts), comma-separated, e.g. `https://admin.example.com,http://localhost:5173`.
 * Each must be a bare http(s) origin (no path, query or user); kept as browsers write it.
 */
const allowedOrigins = z
  .string()
  .default('')
  .transform((value, ctx) => {
    const out = new Set<string>();
    for (const entry of value.split(',').map((e) => e.trim()).filter(Boolean)) {
      let u: URL | undefined;
      try {
        u = new URL(entry);
      } catch {
        u = undefined;
      }
      const bare = u && (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password && !u.search && !u.hash && (u.pathname === '/' || u.pathname === '');
      if (!u || !bare || !/^https?:\/\/[^/]+\/?$/i.test(entry)) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not an origin: write it as scheme://host[:port], e.g. https://admin.example.com` });
        continue;
      }
      out.add(u.origin);
    }
    return out as ReadonlySet<string>;
  });
const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

export const GatewayEnv = z.object({
  PORT: portSchema.default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** On SIGTERM: ms of still taking requests while /health/ready answers 503 (see the platform's config). */
  SHUTDOWN_DRAIN_MS: shutdownDrainSchema,
  INTERNAL_TOKEN: z.string().min(16, { error: 'must be at least 16 characters (shared by gateway and services)' }),
  IDENTITY_URL: url.default('http://127.0.0.1:4101'),
  CATALOG_URL: url.default('http://127.0.0.1:4102'),
  ORDER_URL: url.default('http://127.0.0.1:4103'),
  PAYMENT_URL: url.default('http://127.0.0.1:4104'),
  REPORTING_URL: url.default('http://127.0.0.1:4105'),
  /** NATS, where identity announces ended sessions (logout, deactivation, deletion). */
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  /** The deployment's prefix on NATS (as the services'): subjects of another prefix are not heard. */
  NATS_PREFIX: natsPrefixSchema,
  /**
   * Seconds a resolved session is served from the gateway's memory (never past the session's own
   * end, and only while NATS is connected, so identity's revocations drop it at once); 0 asks
   * identity on every request.
   */
  SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  /** Live updates (GET /api/events): open streams allowed per signed-in user, and per gateway process. */
  LIVE_MAX_STREAMS_PER_USER: z.coerce.number().int().min(1).default(5),
  LIVE_MAX_STREAMS: z.coerce.number().int().min(1).default(2000),
  /** Seconds between the comment heartbeats of a live stream. */
  LIVE_HEARTBEAT_SECONDS: z.coerce.number().positive().max(300).default(20),
  /** Seconds between checks that a live stream's session still holds (through the session cache). */
  LIVE_SESSION_CHECK_SECONDS: z.coerce.number().positive().max(600).default(60),
  /** Seconds a live stream lasts at most; EventSource reconnects by itself after the end. */
  LIVE_STREAM_MAX_SECONDS: z.coerce.number().positive().max(86_400).default(600),
  /** Folder that holds shell/dist and each remote dist folder. */
  STATIC_ROOT: z.string().default(repoRoot).transform((p) => resolve(p)),
  /** Largest request body the gateway forwards (uploads included). */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(6 * 1024 * 1024),
  /**
   * Set true only when a load balancer in front of the gateway sets X-Forwarded-For (the client's
   * address) and X-Forwarded-Proto / X-Forwarded-Host (the shop's own origin, csrf.ts).
   */
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** Other origins allowed to send state-changing requests, besides the shop's own (see allowedOrigins above). */
  ALLOWED_ORIGINS: allowedOrigins,
  /** At start, before it listens: ms the gateway may spend placing checkouts against stand-ins of the services (rehearsal.ts); 0 skips it. */
  REHEARSAL_MS: rehearsalMsSchema,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
});
export type GatewayConfig = z.output<typeof GatewayEnv>;
