/**
 * `npm run bench [-- js gateway]`: starts the product on a fresh database (as `npm test` does)
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

async function latency(url: string, headers: http.OutgoingHttpHeaders, total: number, concurrency: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  for (let i = 0; i < 200; i++) await timedGet(target, headers, agent); // warm-up
  const times: number[] = [];
  let next = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) times.push(await timedGet(target, headers, agent));
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
