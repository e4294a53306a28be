import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumPath, type TestStack } from './testenv';
import { DEFAULT_DEMO_PASSWORD } from './seed';

/**
 * Lighthouse (issue 13 targets: accessibility ≥ 95 and best practices 100 on each page; mobile
 * /dashboard LCP ≤ 2.0 s, CLS ≤ 0.05) against the stack, in Debian's Chromium. Lighthouse itself
 * is fetched by npx at this exact version: it is a measuring tool for `npm run bench`, not
 * something the product or its tests need installed. Mobile is Lighthouse's default (a mid-range
 * phone, simulated slow 4G); desktop uses its desktop preset.
 */
export const LIGHTHOUSE = 'lighthouse@13.4.1';

const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';
/** The same flags for a Chromium Playwright starts (it sets headless itself). */
const PLAYWRIGHT_ARGS = CHROME_FLAGS.split(' ').filter((f) => !f.startsWith('--headless'));

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  cls: number;
  failing: string[];
  lcpElement: string;
  shifts: string[];
}

function run(cmd: string, args: string[]): Promise<number> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => done(code ?? 1));
  });
}

async function audit(url: string, preset: 'mobile' | 'desktop', profile: string | undefined, dir: string): Promise<Figures> {
  // A signed-in page runs in the profile the customer signed in with (the session cookie and the
  // shell's stored profile), with its HTTP cache emptied: every run is a first visit's download.
  if (profile) for (const cache of ['Cache', 'Code Cache', 'GPUCache']) await rm(join(profile, 'Default', cache), { recursive: true, force: true });
  const out = join(dir, `${preset}-${Buffer.from(url).toString('hex').slice(-24)}.json`);
  const args = [
    '-y',
    LIGHTHOUSE,
    url,
    '--quiet',
    '--output=json',
    `--output-path=${out}`,
    `--chrome-path=${chromiumPath()}`,
    `--chrome-flags=${CHROME_FLAGS}${profile ? ` --user-data-dir=${profile}` : ''}`,
    '--only-categories=performance,accessibility,best-practices',
    ...(preset === 'desktop' ? ['--preset=desktop'] : []),
    ...(profile ? ['--disable-storage-reset'] : []),
  ];
  // Lighthouse sometimes fails to record a trace (NO_NAVSTART); one more try before giving up.
  const code = (await run('npx', args)) === 0 ? 0 : await run('npx', args);
  if (code !== 0) throw new Error(`lighthouse exited with ${code} for ${url}`);
  const r = JSON.parse(await readFile(out, 'utf8')) as {
    categories: Record<string, { score: number; auditRefs: Array<{ id: string; weight: number }> }>;
    audits: Record<string, { score: number | null; numericValue?: number; title: string }>;
    finalDisplayedUrl: string;
  };
  // A signed-in page that fell back to the sign-in form would be measuring the wrong page.
  if (new URL(r.finalDisplayedUrl).pathname !== new URL(url).pathname) throw new Error(`${url} ended at ${r.finalDisplayedUrl}`);
  const failing: string[] = [];
  // What moved and what painted last, for the figures that miss their budget.
  const details = (id: string) => ((r.audits[id] as unknown as { details?: { items?: Array<Record<string, unknown>> } } | undefined)?.details?.items ?? []);
  const node = (i: Record<string, unknown>) => ((i.node as { snippet?: string } | undefined)?.snippet ?? '').slice(0, 120);
  const shifts = details('layout-shifts').slice(0, 3).map((i) => `${node(i)} (${Number(i.score).toFixed(3)})`);
  const lcp = details('largest-contentful-paint-element').flatMap((i) => ((i.items as Array<Record<string, unknown>> | undefined) ?? [i]).map(node)).filter(Boolean)[0];
  for (const key of ['accessibility', 'best-practices']) {
    for (const ref of r.categories[key]!.auditRefs) {
      const a = r.audits[ref.id]!;
      if (ref.weight > 0 && a.score !== null && a.score < 1) failing.push(`${key}: ${ref.id}`);
    }
  }
  return {
    performance: Math.round(r.categories.performance!.score * 100),
    accessibility: Math.round(r.categories.accessibility!.score * 100),
    bestPractices: Math.round(r.categories['best-practices']!.score * 100),
    lcpMs: Math.round(r.audits['largest-contentful-paint']!.numericValue ?? 0),
    cls: Number((r.audits['cumulative-layout-shift']!.numericValue ?? 0).toFixed(3)),
    failing,
    lcpElement: lcp ?? '',
    shifts,
  };
}

/** Signs a demo user in through the login form and waits for their home. */
async function signInThroughForm(page: Page, username: string, home: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(DEFAULT_DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`**${home}`);
}

/** Signs a demo user in through the login form, in a Chromium profile Lighthouse then uses. */
async function signedInProfile(baseURL: string, dir: string, username = 'customer', home = '/dashboard'): Promise<void> {
  const context = await chromium.launchPersistentContext(dir, { executablePath: chromiumPath(), args: PLAYWRIGHT_ARGS, headless: true, baseURL });
  try {
    await signInThroughForm(await context.newPage(), username, home);
  } finally {
    await context.close();
  }
}

/** Each staff role's first screen: its home, a table (issue 27, part 5: shown in ≤ 1.5 s, cold cache). */
export const STAFF_HOMES = [
  ['superadmin', '/admin/users'],
  ['warehouseadmin', '/admin/warehouse-bins'],
  ['accounting', '/admin/payments'],
  ['driver', '/admin/for-delivery'],
] as const;

/** The first table row (or the table's empty state once loading ended) on the page. */
function tableShown(): boolean {
  const row = document.querySelector('tbody tr[data-row-key]');
  if (row && row.getBoundingClientRect().height > 0) return true;
  return !!document.querySelector('.dme-table-empty') && !document.querySelector('.dme-table[aria-busy]');
}

/**
 * Milliseconds from navigation start until a staff home shows its table, in a fresh context
 * signed in (cookie and stored profile copied) but with an empty HTTP cache: a first visit's
 * download at desktop size. The median of `runs`.
 */
async function tableShownMs(baseURL: string, username: string, home: string, runs = 3): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: PLAYWRIGHT_ARGS, headless: true });
  try {
    const login = await browser.newContext({ baseURL });
    await signInThroughForm(await login.newPage(), username, home);
    const state = await login.storageState();
    await login.close();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ baseURL, storageState: state, viewport: { width: 1366, height: 800 } });
      const p = await context.newPage();
      await p.goto(home, { waitUntil: 'commit' });
      await p.waitForFunction(tableShown, undefined, { polling: 'raf', timeout: 30_000 });
      if (new URL(p.url()).pathname !== home) throw new Error(`${username}'s ${home} ended at ${p.url()}`);
      times.push(Math.round(await p.evaluate(() => performance.now())));
      // BENCH_FIRST_SCREEN_DETAIL=1: what the page fetched and when (ms from navigation start).
      if (process.env.BENCH_FIRST_SCREEN_DETAIL && i === runs - 1) {
        const rows = await p.evaluate(() =>
          (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => `${Math.round(e.startTime)}→${Math.round(e.responseEnd)} ${new URL(e.name).pathname}`),
        );
        console.log(`<!-- ${username}: ${rows.join(' | ')} -->`);
      }
      await context.close();
    }
    return times.sort((a, b) => a - b);
  } finally {
    await browser.close();
  }
}

/** `npm run bench -- first-screens` (also part of `lighthouse`): when each staff home's table is drawn. */
export async function staffFirstScreens(stack: TestStack, log: (m: string) => void): Promise<void> {
  log('\n| staff first screen (cold cache, 1366×800, no throttling) | table shown, ms (3 runs) | median |');
  log('|---|---|---|');
  for (const [username, home] of STAFF_HOMES) {
    const t = await tableShownMs(stack.url, username, home);
    log(`| ${username} \`${home}\` | ${t.join(', ')} | **${t[1]}** |`);
  }
}

export async function lighthouse(stack: TestStack, log: (m: string) => void): Promise<void> {
  const products = (await (await fetch(`${stack.url}/api/products?limit=1`)).json()) as { items: Array<{ id: string }> };
  const pages: Array<[string, string, boolean]> = [
    ['/', 'landing', false],
    ['/login', 'login', false],
    ['/dashboard', 'products (customer)', true],
    [`/product-description/${products.items[0]!.id}`, 'a product (customer)', true],
    ['/cart', 'cart (customer)', true],
  ];
  const dir = await mkdtemp(join(tmpdir(), 'dme-lighthouse-'));
  const profile = join(dir, 'profile');
  try {
    await signedInProfile(stack.url, profile);
    log(`\n### Lighthouse (${LIGHTHOUSE}, Debian's Chromium)\n`);
    log('| page | form factor | performance | accessibility | best practices | LCP | CLS |');
    log('|---|---|---|---|---|---|---|');
    const failing = new Set<string>();
    for (const [path, name, signedIn] of pages) {
      for (const preset of ['mobile', 'desktop'] as const) {
        const f = await audit(`${stack.url}${path}`, preset, signedIn ? profile : undefined, dir);
        f.failing.forEach((a) => failing.add(`${name}: ${a}`));
        if (process.env.LIGHTHOUSE_DETAIL) log(`<!-- ${preset} ${path}: LCP ${f.lcpElement}; shifts ${f.shifts.join(' | ')} -->`);
        log(`| ${name} \`${path.replace(/[0-9a-f-]{36}/, ':id')}\` | ${preset} | ${f.performance} | ${f.accessibility} | ${f.bestPractices} | ${(f.lcpMs / 1000).toFixed(2)} s | ${f.cls} |`);
      }
    }
    // Staff first screens (desktop preset; the driver's also as a phone): Lighthouse's figures, and
    // when the table itself is drawn (Lighthouse's LCP may be a heading).
    for (const [username, home] of STAFF_HOMES) {
      const staffProfile = join(dir, `profile-${username}`);
      await signedInProfile(stack.url, staffProfile, username, home);
      for (const preset of username === 'driver' ? (['desktop', 'mobile'] as const) : (['desktop'] as const)) {
        const f = await audit(`${stack.url}${home}`, preset, staffProfile, dir);
        f.failing.forEach((a) => failing.add(`${username} ${home}: ${a}`));
        if (process.env.LIGHTHOUSE_DETAIL) log(`<!-- ${preset} ${home}: LCP ${f.lcpElement}; shifts ${f.shifts.join(' | ')} -->`);
        log(`| ${username} \`${home}\` | ${preset} | ${f.performance} | ${f.accessibility} | ${f.bestPractices} | ${(f.lcpMs / 1000).toFixed(2)} s | ${f.cls} |`);
      }
    }
    await staffFirstScreens(stack, log);
    if (failing.size) log(`\nAudits below full marks: ${[...failing].join('; ')}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
