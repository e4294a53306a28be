import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { onLoopback, rehearse, type Logger, type Rehearsal, type RehearsalOptions } from '@dme/platform';
import type { GatewayConfig } from './config';
import { createApp } from './app';
import { SESSION_COOKIE, SessionResolver } from './session';
import { LiveHub, liveOptions } from './live';

/**
 * Before the gateway listens, it places checkouts through its own request path against stand-ins
 * of the services on a loopback port (platform rehearse, issue 30 part 3): the checkout burst right
 * after a start met a gateway whose path had never run (every function interpreted, each first
 * call of Node's HTTP client and server, zlib, the session lookup), and its first 50 orders took
 * 400-800 ms where a warmed gateway answers them in 300 (docs/benchmarks.md).
 *
 * Nothing leaves the process: the stand-ins answer a session lookup with a made-up customer and a
 * checkout with an order-shaped answer; no service, database or NATS is touched. The app is a
 * second one made by the same createApp, so the same functions run (V8 keeps what it learns per
 * function, shared by both apps); its static folder does not exist, so it loads no screens.
 */
export async function rehearseCheckout(config: GatewayConfig, logger: Logger, opts: RehearsalOptions): Promise<Rehearsal> {
  if (opts.requests <= 0 || opts.budgetMs <= 0) return { requests: 0, ms: 0, statuses: {} };
  const standIn = await onLoopback({ callback: () => answerAsServices });
  const base = standIn.url;
  const quiet = logger.child({ rehearsal: true }, { level: 'warn' });
  const standInConfig: GatewayConfig = {
    ...config,
    IDENTITY_URL: base,
    CATALOG_URL: base,
    ORDER_URL: base,
    PAYMENT_URL: base,
    REPORTING_URL: base,
    STATIC_ROOT: join(config.STATIC_ROOT, '.rehearsal-has-no-files'),
  };
  const sessions = new SessionResolver({ identityUrl: new URL(base), internalToken: config.INTERNAL_TOKEN, cacheSeconds: 0, logger: quiet });
  const live = new LiveHub(liveOptions(standInConfig, sessions, quiet));
  try {
    return await rehearse(createApp({ config: standInConfig, logger: quiet, sessions, live }), checkout, opts);
  } finally {
    live.close();
    await standIn.close();
  }
}

const CHECKOUT_BODY = JSON.stringify({
  type: 'BUY',
  typeOfOrder: 'BULK',
  lines: [{ productID: randomUUID(), productVariantID: randomUUID(), quantity: 1 }],
  deliveryAddress: '1 Rehearsal St',
  deliveryCity: 'Makati',
  deliveryState: 'Metro Manila',
  deliveryZipcode: '1200',
  note: '',
});

/** One checkout as the shop's page sends it: signed in, same origin, with an Idempotency-Key. */
const checkout = () => ({
  method: 'POST',
  path: '/api/orders',
  headers: {
    'content-type': 'application/json',
    'accept-encoding': 'gzip, deflate, br',
    'sec-fetch-site': 'same-origin',
    cookie: `${SESSION_COOKIE}=${randomUUID()}`,
    'idempotency-key': randomUUID(),
  },
  body: CHECKOUT_BODY,
});

/**
 * The stand-in services: identity's session lookups (one cookie, or several at once) know every
 * cookie as a customer's; any other call is answered like a placed order.
 */
function answerAsServices(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const many = req.url === '/internal/sessions/resolve-many';
    const lookup = many || req.url === '/internal/sessions/resolve';
    const body = many
      ? JSON.stringify({ answers: Array.from({ length: lookupsIn(Buffer.concat(chunks)) }, sessionAnswer) })
      : lookup
        ? JSON.stringify(sessionAnswer())
        : orderAnswer();
    res.writeHead(!lookup && req.method === 'POST' ? 201 : 200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    res.end(body);
  });
}

/** How many cookies a resolve-many call asks for. */
function lookupsIn(body: Buffer): number {
  try {
    const tokens = (JSON.parse(body.toString('utf8')) as { tokens?: unknown }).tokens;
    return Array.isArray(tokens) ? tokens.length : 0;
  } catch {
    return 0;
  }
}

/** A made-up customer's session, as identity answers a lookup. */
const sessionAnswer = () => ({
  principal: { userId: randomUUID(), userType: 'CUSTOMER', username: 'rehearsal', name: 'Rehearsal Customer', sessionId: randomUUID() },
  validUntil: new Date(Date.now() + 3_600_000).toISOString(),
});

/** An answer of the size and shape of a placed order (about 1.5 KB: it is compressed, as a real one is). */
function orderAnswer(): string {
  return JSON.stringify({
    order: {
      id: randomUUID(),
      orderNumber: 'ORD-20260101-000001',
      type: 'BUY',
      typeOfOrder: 'BULK',
      status: 'FOR_PAYMENT',
      customerId: randomUUID(),
      deliveryAddress: '1 Rehearsal St',
      deliveryCity: 'Makati',
      deliveryState: 'Metro Manila',
      deliveryZipcode: '1200',
      note: '',
      createdAt: new Date().toISOString(),
      lines: Array.from({ length: 3 }, (_, i) => ({
        id: randomUUID(),
        productID: randomUUID(),
        productVariantID: randomUUID(),
        productName: `Rehearsal product ${i}`,
        variantName: 'Standard',
        quantity: 1,
        price: '1,250.00',
        subtotal: '1,250.00',
      })),
      total: '3,750.00',
    },
  });
}
