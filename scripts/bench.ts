/**
 * `npm run bench [-- js gateway checkout products]`: starts the product on a fresh database (as `npm test` does)
 * and prints measured figures as Markdown, for docs/benchmarks.md. Never a pass/fail test.
 */
import http from 'node:http';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { chromium } from '@playwright/test';
import { IDENTITY_HEADERS } from '@dme/platform';
import { chromiumPath, startTestStack, testNats, testPostgres, type TestStack } from './lib/testenv';
import { DEFAULT_DEMO_PASSWORD } from './lib/seed';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const log = (m: string) => console.log(m);

const ROLES = [
  ['customer', '/dashboard', 'mf-shop'],
  ['superadmin', '/admin/users', ''],
  ['warehouseadmin', '/admin/warehouse-bins', 'mf-warehouse'],
  ['accounting', '/admin/payments', 'mf-accounting'],
  ['driver', '/admin/for-delivery', 'mf-driver'],
] as const;

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function encodedSize(url: string, encoding: 'gzip' | 'br'): Promise<number> {
  const res = await fetch(url, { headers: { 'accept-encoding': encoding } });
  const len = Number(res.headers.get('content-length'));
  await res.arrayBuffer();
  return len;
}

/** JS each role downloads: from /login through sign-in to its home page, and a reload of home. */
async function jsPerRole(stack: TestStack): Promise<void> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  log('\n### JS downloaded per role (measured in Chromium)\n');
  log('| role | journey | scripts | gzip KB | brotli KB | other roles\' remotes |');
  log('|---|---|---|---|---|---|');
  try {
    for (const [username, home, remote] of ROLES) {
      const context = await browser.newContext({ baseURL: stack.url });
      const page = await context.newPage();
      const scripts = new Set<string>();
      page.on('response', (r) => {
        if (r.request().resourceType() === 'script') scripts.add(r.url());
      });
      await page.goto('/login');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill(DEFAULT_DEMO_PASSWORD);
      await page.getByRole('button', { name: /log ?in|sign ?in/i }).click();
      await page.waitForURL(`**${home}`);
      await page.waitForLoadState('networkidle');
      const journey = [...scripts];
      scripts.clear();
      await page.reload();
      await page.waitForLoadState('networkidle');
      const reload = [...scripts];
      for (const [label, list] of [['/login → sign in → ' + home, journey], ['reload ' + home, reload]] as const) {
        const gz = (await Promise.all(list.map((u) => encodedSize(u, 'gzip')))).reduce((a, b) => a + b, 0);
        const br = (await Promise.all(list.map((u) => encodedSize(u, 'br')))).reduce((a, b) => a + b, 0);
        const foreign = list.filter((u) => /\/remotes\/([a-z-]+)\//.test(u) && !u.includes(`/remotes/${remote || '-'}/`)).length;
        log(`| ${username} | ${label} | ${list.length} | ${(gz / 1024).toFixed(1)} | ${(br / 1024).toFixed(1)} | ${foreign} |`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

function timedGet(url: URL, headers: http.OutgoingHttpHeaders, agent: http.Agent): Promise<number> {
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    http
      .get({ hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => done(Number(process.hrtime.bigint() - t0) / 1e6));
      })
      .on('error', fail);
  });
}

async function latency(url: string | ((i: number) => string), headers: http.OutgoingHttpHeaders, total: number, concurrency: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const urlOf = (i: number) => new URL(typeof url === 'string' ? url : url(i));
  for (let i = 0; i < 200; i++) await timedGet(urlOf(i), headers, agent); // warm-up
  const times: number[] = [];
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) times.push(await timedGet(urlOf(next++), headers, agent));
    }),
  );
  const secs = (Date.now() - t0) / 1000;
  agent.destroy();
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  return { p50: q(0.5), p99: q(0.99), rps: times.length / secs };
}

/** Gateway overhead: the same signed-in request through the gateway and straight to the service. */
async function gatewayOverhead(stack: TestStack): Promise<void> {
  const login = await fetch(`${stack.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'customer', password: DEFAULT_DEMO_PASSWORD }),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const me = (await login.json()) as { user: { id: string } };
  const direct = {
    [IDENTITY_HEADERS.internalToken]: stack.internalToken,
    [IDENTITY_HEADERS.userId]: me.user.id,
    [IDENTITY_HEADERS.userType]: 'CUSTOMER',
    [IDENTITY_HEADERS.username]: 'customer',
  };
  log('\n### Gateway overhead: GET /api/auth/me (signed in)\n');
  log('| path | concurrency | p50 ms | p99 ms | req/s |');
  log('|---|---|---|---|---|');
  for (const concurrency of [1, 50]) {
    const total = concurrency === 1 ? 2000 : 10000;
    const viaGateway = await latency(`${stack.url.replace('localhost', '127.0.0.1')}/api/auth/me`, { cookie }, total, concurrency);
    const viaService = await latency(`${stack.serviceUrls.identity}/api/auth/me`, direct, total, concurrency);
    log(`| gateway → identity | ${concurrency} | ${viaGateway.p50.toFixed(2)} | ${viaGateway.p99.toFixed(2)} | ${viaGateway.rps.toFixed(0)} |`);
    log(`| identity directly | ${concurrency} | ${viaService.p50.toFixed(2)} | ${viaService.p99.toFixed(2)} | ${viaService.rps.toFixed(0)} |`);
    log(`| overhead | ${concurrency} | ${(viaGateway.p50 - viaService.p50).toFixed(2)} | | |`);
  }
}

interface Session {
  cookie: string;
}

async function api(stack: TestStack, method: string, path: string, body?: unknown, cookie?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.url.replace('localhost', '127.0.0.1')}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, cookie: res.headers.get('set-cookie')?.split(';')[0] };
}

async function signIn(stack: TestStack, username: string, password: string): Promise<Session> {
  const r = await api(stack, 'POST', '/api/auth/login', { username, password });
  if (r.status !== 200) throw new Error(`login ${username}: ${r.status}`);
  return { cookie: r.cookie! };
}

async function customers(stack: TestStack, n: number): Promise<Session[]> {
  const upload = await fetch(`${stack.url.replace('localhost', '127.0.0.1')}/api/uploads`, {
    method: 'POST',
    body: (() => {
      const f = new FormData();
      f.append('image', new Blob([new Uint8Array(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'))], { type: 'image/png' }), 'a.png');
      return f;
    })(),
  });
  const { imagePath } = (await upload.json()) as { imagePath: string };
  const out: Session[] = [];
  for (let i = 0; i < n; i++) {
    const username = `bench_${process.pid}_${i}`;
    const password = 'bench-password-1';
    await api(stack, 'POST', '/api/auth/register', {
      username, password, firstName: 'Bench', lastName: `User${i}`, birthDate: '1990-01-01', gender: 'MALE', contactNumber: '0917',
      email: `${username}@example.com`, address: '1 Bench St', city: 'Makati', state: 'Metro Manila', zipcode: '120000', image: imagePath,
    });
    out.push(await signIn(stack, username, password));
  }
  return out;
}

/** Runs `total` calls with `concurrency` in flight; returns latencies (ms), statuses and the wall time. */
async function load(total: number, concurrency: number, call: (i: number) => Promise<number>) {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < total; i = next++) {
        const s = process.hrtime.bigint();
        const status = await call(i);
        times.push(Number(process.hrtime.bigint() - s) / 1e6);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0;
  return { secs, p50: q(0.5), p99: q(0.99), statuses };
}

const IMAGE = '/api/uploads/0123456789abcdef0123456789abcdef.png';

/** Checkout throughput through the gateway: one hot variant, then many variants. */
async function checkout(stack: TestStack): Promise<void> {
  const admin = await signIn(stack, 'superadmin', DEFAULT_DEMO_PASSWORD);
  const bin = (await api(stack, 'POST', '/api/warehouse-bins', { name: `Bench ${Date.now()}`, description: 'bench' }, admin.cookie)).body.bin.id;
  const mk = async (name: string, stock: number) => {
    const p = (await api(stack, 'POST', '/api/products', { brand: 'Bench', name, description: 'x', type: 'FOR_SALE', image: IMAGE, price: '10.00', damageCharges: '0.00', variants: [{ name: 'Only', price: '10.00', damageCharges: '0.00' }] }, admin.cookie)).body.product;
    for (let left = stock; left > 0; left -= 500) {
      await api(stack, 'POST', '/api/stocks', { productID: p.id, productVariantID: p.variants[0].id, warehouseBinID: bin, quantity: Math.min(500, left) }, admin.cookie);
    }
    return { id: p.id as string, variantId: p.variants[0].id as string };
  };
  const people = await customers(stack, 50);
  const hot = await mk('Bench hot item', 1500);
  const many = await Promise.all(Array.from({ length: 50 }, (_, i) => mk(`Bench item ${i}`, 40)));
  await new Promise((r) => setTimeout(r, 1500)); // read models catch up
  log('\n### Checkout throughput through the gateway (50 customers, 50 concurrent)\n');
  log('| scenario | orders | orders/s | p50 ms | p99 ms | answers |');
  log('|---|---|---|---|---|---|');
  for (const [label, pick] of [
    ['one hot variant', () => hot],
    ['50 variants', (i: number) => many[i % many.length]!],
  ] as const) {
    const total = 1000;
    const r = await load(total, 50, async (i) => {
      const item = (pick as (i: number) => { id: string; variantId: string })(i);
      const res = await api(stack, 'POST', '/api/orders', {
        type: 'BUY', typeOfOrder: 'BULK', lines: [{ productID: item.id, productVariantID: item.variantId, quantity: 1 }],
        deliveryAddress: '1 Bench St', deliveryCity: 'Makati', deliveryState: 'Metro Manila', deliveryZipcode: '120000', note: '',
      }, people[i % people.length]!.cookie, { 'idempotency-key': `bench-${label}-${i}-${Date.now()}` });
      return res.status;
    });
    const ok = r.statuses.get(201) ?? 0;
    log(`| ${label} | ${ok} | ${(ok / r.secs).toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${[...r.statuses].map(([s, n]) => `${n}×${s}`).join(', ')} |`);
  }
}

/** The shop's product list (20 of ~1,000 products) through the gateway, 50 concurrent clients. */
async function productList(stack: TestStack): Promise<void> {
  const admin = await signIn(stack, 'superadmin', DEFAULT_DEMO_PASSWORD);
  const have = (await api(stack, 'GET', '/api/products?limit=1')).body.total as number;
  for (let i = have; i < 1000; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, 1000 - i) }, (_, j) =>
        api(stack, 'POST', '/api/products', { brand: 'Catalog', name: `List item ${i + j}`, description: 'x', type: i % 2 ? 'FOR_RENT' : 'FOR_SALE', image: IMAGE, price: '10.00', damageCharges: '5.00' }, admin.cookie),
      ),
    );
  }
  const base = stack.url.replace('localhost', '127.0.0.1');
  log('\n### Product list through the gateway: GET /api/products?limit=20 (about 1,000 products)\n');
  log('| path | concurrency | requests | p50 ms | p99 ms | req/s |');
  log('|---|---|---|---|---|---|');
  const hot = () => '/api/products?type=FOR_SALE&limit=20';
  // Random pages and types: most requests miss the one-second micro-cache.
  const spread = (i: number) => `/api/products?type=${i % 2 ? 'FOR_RENT' : 'FOR_SALE'}&limit=20&offset=${20 * ((i * 7919) % 25)}`;
  for (const [label, path] of [['first page', hot], ['random pages', spread]] as const) {
    for (const concurrency of [1, 50]) {
      const n = concurrency === 1 ? 500 : 5000;
      const viaGateway = await latency((i) => `${base}${path(i)}`, {}, n, concurrency);
      const direct = await latency((i) => `${stack.serviceUrls.catalog}${path(i)}`, { [IDENTITY_HEADERS.internalToken]: stack.internalToken }, n, concurrency);
      log(`| ${label}: gateway → catalog | ${concurrency} | ${n} | ${viaGateway.p50.toFixed(2)} | ${viaGateway.p99.toFixed(2)} | ${viaGateway.rps.toFixed(0)} |`);
      log(`| ${label}: catalog directly | ${concurrency} | ${n} | ${direct.p50.toFixed(2)} | ${direct.p99.toFixed(2)} | ${direct.rps.toFixed(0)} |`);
    }
  }
}

async function main() {
  const only = process.argv.slice(2);
  const want = (s: string) => only.length === 0 || only.includes(s);
  const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  const pg = await testPostgres(root, log);
  const nats = await testNats(log);
  const stack = await startTestStack(root, pg.serverUrl, nats.url, log);
  try {
    log(`\nMeasured ${new Date().toISOString()} on ${process.platform}, Node ${process.version}, ${join(root)}`);
    if (want('js')) await jsPerRole(stack);
    if (want('gateway')) await gatewayOverhead(stack);
    if (want('checkout')) await checkout(stack);
    if (want('products')) await productList(stack);
  } finally {
    await stack.stop();
    await nats.stop();
    await pg.stop();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
