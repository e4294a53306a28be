/**
 * `npm run measure -w shell`: JS each role downloads (gzip level 9, as the gateway serves it), from
 * the production builds only — no backend needed. A tiny static server lays the builds out as the
 * gateway does (shell at /, remotes at /remotes/<name>/) and answers /api with stubs; Debian's
 * Chromium (playwright-core) opens each role's home with a stored userStore (a reload of home),
 * and the login journey for the customer. Prints a Markdown table. Not a test: it never fails.
 *
 * Build first: npm run build -w shell -w mf-shop -w mf-warehouse -w mf-accounting -w mf-driver
 */
import http from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const REMOTES = ['mf-shop', 'mf-warehouse', 'mf-accounting', 'mf-driver'];
const ROLES = [
  ['CUSTOMER', '/dashboard', 'mf-shop'],
  ['SUPERADMIN', '/admin/users', ''],
  ['WAREHOUSE_ADMIN', '/admin/warehouse-bins', 'mf-warehouse'],
  ['ACCOUNTING_ADMIN', '/admin/payments', 'mf-accounting'],
  ['DRIVER', '/admin/for-delivery', 'mf-driver'],
];
const TYPES = { '.js': 'text/javascript', '.json': 'application/json', '.html': 'text/html', '.css': 'text/css', '.svg': 'image/svg+xml' };

const user = (userType) => ({
  id: '00000000-0000-4000-8000-000000000001', idNumber: 'X-000001', username: userType.toLowerCase(), firstName: 'Demo',
  middleName: '', lastName: 'User', suffix: '', birthDate: '1990-01-01', age: 35, gender: 'FEMALE', contactNumber: '1',
  email: 'demo@example.com', address: 'Street 1', city: 'City', state: 'CA', zipcode: '123456', image: '', status: 'ACTIVE',
  userType, position: '', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
});

let role = 'CUSTOMER';
function fileFor(pathname) {
  const m = /^\/remotes\/([a-z-]+)\/(.*)$/.exec(pathname);
  if (m && REMOTES.includes(m[1])) return join(root, m[1], 'dist', m[2]);
  const f = join(root, 'shell', 'dist', pathname);
  return existsSync(f) && statSync(f).isFile() ? f : join(root, 'shell', 'dist', 'index.html');
}
const server = http.createServer((req, res) => {
  const { pathname } = new URL(req.url, 'http://x');
  if (pathname.startsWith('/api/')) {
    res.setHeader('content-type', 'application/json');
    if (pathname === '/api/auth/me' || pathname === '/api/auth/login') return res.end(JSON.stringify({ user: user(role), permissions: [] }));
    if (req.method !== 'GET') return res.writeHead(204).end();
    return res.end(JSON.stringify({ items: [], total: 0 }));
  }
  const file = fileFor(pathname);
  if (!existsSync(file)) return res.writeHead(404).end();
  res.setHeader('content-type', TYPES[extname(file)] ?? 'application/octet-stream');
  res.end(readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const gz = new Map();
const gzipOf = (url) => {
  const { pathname } = new URL(url);
  if (!gz.has(pathname)) gz.set(pathname, gzipSync(readFileSync(fileFor(pathname)), { level: 9 }).length);
  return gz.get(pathname);
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function journey(label, start, act, remote) {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  const scripts = [];
  page.on('response', (r) => r.request().resourceType() === 'script' && scripts.push(r.url()));
  await start(page);
  await act(page);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const total = scripts.reduce((a, u) => a + gzipOf(u), 0);
  const foreign = scripts.filter((u) => /\/remotes\/([a-z-]+)\//.test(u) && !u.includes(`/remotes/${remote || '-'}/`));
  const heading = await page.locator('main h3, main .ant-result-title').first().textContent({ timeout: 5000 }).catch(() => '(none)');
  console.log(`| ${label} | ${scripts.length} | ${(total / 1024).toFixed(1)} | ${foreign.length} | ${heading} |`);
  if (process.env.VERBOSE) for (const u of scripts) console.log(`|   ${new URL(u).pathname} | | ${(gzipOf(u) / 1024).toFixed(1)} | | |`);
  await context.close();
}

console.log('| role: journey | scripts | gzip KB | other roles\' remotes | page heading |');
console.log('|---|---|---|---|---|');
for (const [type, home, remote] of ROLES) {
  role = type;
  await journey(
    `${type}: open ${home} (signed in)`,
    (page) => page.addInitScript((u) => localStorage.setItem('userStore', JSON.stringify({ user: u, loginStatus: true })), user(type)),
    async (page) => {
      await page.goto(home);
      await page.locator('main h3, main .ant-result-title').first().waitFor({ timeout: 15000 }).catch(() => undefined);
    },
    remote,
  );
}
role = 'CUSTOMER';
await journey(
  'CUSTOMER: /login → sign in → /dashboard',
  async () => undefined,
  async (page) => {
    await page.goto('/login');
    await page.getByLabel('Username').fill('customer');
    await page.getByLabel('Password').fill('secret-pass');
    await page.getByRole('button', { name: /log in/i }).click();
    await page.waitForURL('**/dashboard');
    await page.locator('main h3').first().waitFor({ timeout: 15000 }).catch(() => undefined);
  },
  'mf-shop',
);
await journey('visitor: open /', async () => undefined, (page) => page.goto('/'), '');
await browser.close();
server.close();
