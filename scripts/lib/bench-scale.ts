/**
 * `npm run bench -- scale` (issue 30, part 4): a year of a busy shop (scripts/lib/scale.ts: at
 * BENCH_SCALE=1, the default, 10,000 products, 100,000 units, 200,000 customers, 1,000,000
 * orders) written into the running stack's database, then each screen's request measured through
 * the gateway, one at a time (p50/p99), beside a baseline: a query for the same rows run straight
 * on PostgreSQL in the same run. Budgets (DESIGN §12): lists and details p99 ≤ 2× baseline and
 * ≤ 100 ms; a report over the year p99 ≤ 1 s; the year's Excel export ≤ 60 s with the reporting
 * process ≤ 300 MB.
 *
 * The helpers of scripts/bench.ts come in as `kit` (that file is the script's entry point).
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { CONNECTION_OPTIONS } from '@dme/platform';
import { addDays, manilaDate, ONGOING_RENTAL_TABS, REPORT_NAMES } from '@dme/contracts';
import { benchOrderBody, type BenchKit } from './bench-bookings';
import { DEFAULT_DEMO_PASSWORD } from './seed';
import { generateYear, scaleUsername } from './scale';
import type { TestStack } from './testenv';

interface Figure {
  n: number;
  p50: number;
  p99: number;
  bad: number;
  /** The first answer that was not 200: its status and the start of its body. */
  firstBad?: string;
}

const round = (x: number) => Math.round(x * 10) / 10;
function figure(times: number[], bad: number): Figure {
  const s = [...times].sort((a, b) => a - b);
  const q = (p: number) => round(s[Math.min(s.length - 1, Math.floor(p * s.length))]!);
  return { n: s.length, p50: q(0.5), p99: q(0.99), bad };
}

/** One GET through the gateway as a browser sends it (keep-alive, compressed answers); its time and status. */
function timed(base: URL, path: string, cookie: string | undefined, agent: http.Agent): Promise<{ ms: number; status: number; body?: string }> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    http
      .get({ hostname: base.hostname, port: base.port, path, agent, headers: { 'accept-encoding': 'gzip, br', ...(cookie ? { cookie } : {}) } }, (res) => {
        if (res.statusCode === 200) {
          res.resume();
          res.on('end', () => done({ ms: performance.now() - t0, status: 200 }));
          return;
        }
        // A refusal is read (uncompressed problem+json) to say why.
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ ms: performance.now() - t0, status: res.statusCode ?? 0, body: `${path} ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}` }));
      })
      .on('error', fail);
  });
}

/** `n` requests one after another (after a few not counted), path i for the i-th. */
async function measure(base: URL, n: number, path: (i: number) => string, cookie?: string): Promise<Figure> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < Math.min(5, n); i++) await timed(base, path(n + i), cookie, agent);
    const times: number[] = [];
    let bad = 0;
    let firstBad: string | undefined;
    for (let i = 0; i < n; i++) {
      const r = await timed(base, path(i), cookie, agent);
      times.push(r.ms);
      if (r.status !== 200) {
        bad++;
        firstBad ??= `${r.status} ${r.body ?? ''}`;
      }
    }
    return { ...figure(times, bad), ...(firstBad ? { firstBad } : {}) };
  } finally {
    agent.destroy();
  }
}

/** The same rows straight on PostgreSQL: `n` runs of the query with the i-th parameters. */
async function baseline(db: pg.Client, n: number, text: string, params: (i: number) => unknown[]): Promise<Figure> {
  for (let i = 0; i < Math.min(5, n); i++) await db.query(text, params(n + i));
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await db.query(text, params(i));
    times.push(performance.now() - t0);
  }
  return figure(times, 0);
}

/** Resident memory of a process now (MB), from /proc. */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** What scripts/bench.ts lends the year's bench besides the common kit: its JSON POST and the bare checkout transaction. */
export interface ScaleKit extends BenchKit {
  post: (base: URL, path: string, body: unknown, headers: http.OutgoingHttpHeaders, agent: http.Agent) => Promise<number>;
  /** The bare reserve-and-insert transaction on the same PostgreSQL (hot: one row; spread: 1,000), per second. */
  bare: (spread: boolean) => Promise<{ perSec: number; p99: number }>;
  /** CPU seconds so far of each process taking part, by name (PostgreSQL, NATS, each service, the gateway, this client). */
  cpuSeconds: () => Map<string, number>;
  /** The CPU used between two such snapshots, as milliseconds per operation, by process. */
  cpuPer: (before: Map<string, number>, after: Map<string, number>, operations: number) => string;
}

/** Pages each table and index of the services' schemas has read into PostgreSQL's buffers so far (statistics views). */
async function blocksRead(db: pg.Client): Promise<Map<string, number>> {
  const rows = (await db.query(
    `select schemaname || '.' || indexrelname as name, idx_blks_read as n from pg_statio_all_indexes where schemaname not in ('pg_catalog', 'information_schema', 'pg_toast')
     union all
     select schemaname || '.' || relname, heap_blks_read from pg_statio_all_tables where schemaname not in ('pg_catalog', 'information_schema', 'pg_toast')`,
  )).rows as Array<{ name: string; n: string | null }>;
  return new Map(rows.map((r) => [r.name, Number(r.n ?? 0)]));
}

/** The relations that read most between two snapshots, as pages per operation. */
function blocksReadPer(before: Map<string, number>, after: Map<string, number>, operations: number): string {
  const grown = [...after].map(([name, n]) => [name, n - (before.get(name) ?? 0)] as const).filter(([, d]) => d > 0).sort((a, b) => b[1] - a[1]);
  const total = grown.reduce((sum, [, d]) => sum + d, 0);
  return `${(total / operations).toFixed(2)} in all (${grown.slice(0, 12).map(([name, d]) => `${name} ${(d / operations).toFixed(2)}`).join(', ')})`;
}

/**
 * Checkout at the year's size (issue 30: checkout keeps its budgets at that size): 50 of the year's
 * customers each place orders of one unit of a product for sale, through the gateway, on one
 * product (hot) and on 50 (spread), after a warm-up, against the bare reserve-and-insert
 * transaction measured in the same run (budgets ≥ 50% / ≥ 25%, as the checkout bench's).
 */
async function checkoutAtSize(stack: TestStack, db: pg.Client, kit: ScaleKit, admin: string): Promise<void> {
  const products = ((await db.query(
    `select p.id from catalog.products p where p.type = 'FOR_SALE' and p.id in (select product_id from catalog.stock_items where serial_code like 'YR%')
        and not exists (select 1 from catalog.variants v where v.product_id = p.id) order by md5(p.id::text) limit 76`,
  )).rows as Array<{ id: string }>).map((r) => r.id);
  const bin = ((await db.query(`select id from catalog.warehouse_bins where name = 'Y-01'`)).rows[0] as { id: string }).id;
  const stock = async (id: string, quantity: number) => {
    for (let left = quantity; left > 0; left -= 500) {
      kit.expectStatus('add stock', await kit.api(stack, 'POST', '/api/stocks', { productID: id, warehouseBinID: bin, quantity: Math.min(500, left) }, admin), 201);
    }
  };
  const [hot, ...many] = products.slice(0, 51);
  const warmItems = products.slice(51);
  await stock(hot!, 2400);
  for (const id of [...many, ...warmItems]) await stock(id, 60);
  const people = await Promise.all(Array.from({ length: 50 }, (_, i) => kit.signIn(stack, scaleUsername(2 + i), DEFAULT_DEMO_PASSWORD)));
  await new Promise((r) => setTimeout(r, 1500)); // read models catch up
  const gateway = new URL(stack.url.replace('localhost', '127.0.0.1'));
  const run = Date.now();
  const order = (id: string, i: number, label: string, agent: http.Agent) =>
    kit.post(gateway, '/api/orders', benchOrderBody('BUY', [{ productID: id, quantity: 1 }]), { cookie: people[i % people.length]!.cookie, 'idempotency-key': `scale-${label}-${run}-${i}` }, agent);
  // Warm-up, not measured, on 25 products of its own, as the checkout bench's: V8 compiles the hot code of the
  // processes, so the scenarios are the steady state the bench's demo-size figures are (the cold start is measured there).
  const warmAll = new http.Agent({ keepAlive: true, maxSockets: 50 });
  await kit.load(1500, 50, (i) => order(warmItems[i % warmItems.length]!, i, 'warm-up', warmAll));
  warmAll.destroy();
  kit.log("\n#### Checkout at the year's size, through the gateway, against the bare reserve-and-insert transaction (same PostgreSQL, same run)\n");
  kit.log('| scenario | orders/s | p50 ms | p99 ms | answers | baseline tx/s | ratio (budget) |');
  kit.log('|---|---|---|---|---|---|---|');
  const cpuNotes: string[] = [];
  const ioNotes: string[] = [];
  for (const [label, pick, spread, budget] of [
    ['one hot product, 50 customers', () => hot!, false, '50%'],
    ['50 products, 50 customers', (i: number) => many[i % many.length]!, true, '25%'],
  ] as const) {
    const item = pick as (i: number) => string;
    // Warm-up, not measured (the processes compile their hot code; the pools open their connections).
    const warm = new http.Agent({ keepAlive: true, maxSockets: 50 });
    await kit.load(300, 50, (i) => order(item(i), i, `warm-${spread}`, warm));
    warm.destroy();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
    const cpu0 = kit.cpuSeconds();
    const io0 = await blocksRead(db);
    const r = await kit.load(2000, 50, (i) => order(item(i), i, `${spread}`, agent));
    cpuNotes.push(`${label}: ${kit.cpuPer(cpu0, kit.cpuSeconds(), 2000)}`);
    // A backend reports its counters when idle for 10 s at the latest: the consumers' work on the burst's events counts too.
    await new Promise((done) => setTimeout(done, 11_000));
    ioNotes.push(`${label}: ${blocksReadPer(io0, await blocksRead(db), 2000)}`);
    agent.destroy();
    const ok = r.statuses.get(201) ?? 0;
    const bare = await kit.bare(spread);
    kit.log(`| ${label} | ${(ok / r.secs).toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${[...r.statuses].map(([st, n]) => `${n}×${st}`).join(', ')} | ${bare.perSec.toFixed(0)} | **${kit.pct(ok / r.secs, bare.perSec)}** (≥ ${budget}) |`);
  }
  kit.log(`\nCPU ms per order, by process: ${cpuNotes.join('; ')}.`);
  kit.log(`\nPages read into PostgreSQL's buffers per order (from the kernel's cache or the disk), the 12 relations that read most: ${ioNotes.join('; ')}.`);
}

export async function scaleBench(stack: TestStack, kit: ScaleKit): Promise<void> {
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  const today = manilaDate();
  // The baselines run with the services' own session settings (no JIT, no parallel workers), so a ratio compares the same plans.
  const db = new pg.Client({ connectionString: stack.databaseUrl, options: CONNECTION_OPTIONS });
  await db.connect();
  try {
    // Every generated customer signs in with the demo password (the demo customer's stored hash).
    const passwordHash = ((await db.query(`select password_hash from identity.users where username = 'customer'`)).rows as Array<{ password_hash: string }>)[0]!.password_hash;
    const t0 = performance.now();
    const size = await generateYear(stack.databaseUrl, { scale, seed: 1, endDay: today, passwordHash, log: kit.log });
    kit.log(`\n### A year of a busy shop (scale ${scale}): ${size.products} products, ${size.units} units, ${size.customers} customers, ${size.orders} orders over the 365 days to ${today}, written in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    // The reporting service keeps the reports' sums per day (its fold every few seconds, while the generator writes too).
    const f0 = performance.now();
    while (Number(((await db.query(`select count(*)::int as n from reporting.report_dirty_days`)).rows[0] as { n: number }).n) > 0) {
      if (performance.now() - f0 > 15 * 60_000) throw new Error('the reporting service had not kept the reports\' days 15 minutes after the generator finished');
      await new Promise((r) => setTimeout(r, 250));
    }
    kit.log(`The reports' days kept by the reporting service ${((performance.now() - f0) / 1000).toFixed(1)} s after the generator finished.\n`);
    // The order service's reminder round (every minute) writes the day's reminders for the year's rentals out and
    // due, and identity e-mails them: measured once the day's reminders have gone out (a round after the
    // generator, then nothing left to publish or send), as at a shop's busy hour rather than at 09:00.
    const r0 = performance.now();
    await new Promise((r) => setTimeout(r, Math.max(0, 65_000 - (performance.now() - f0))));
    for (;;) {
      const q = (await db.query(`select (select count(*) from ordering.outbox where published_at is null) + (select count(*) from identity.mail_outbox where status = 'QUEUED') as n,
                                        (select count(*) from ordering.reminders where day = $1::date) as reminders`, [today])).rows[0] as { n: string; reminders: string };
      // A round runs every minute (the order service's default, as a shop runs it): done once it has written the day's
      // reminders and nothing is left to send (or, in a year with none due today, two rounds after the generator).
      if (Number(q.n) === 0 && (Number(q.reminders) > 0 || performance.now() - f0 > 130_000)) {
        kit.log(`The day's ${q.reminders} reminders written and e-mailed ${((performance.now() - r0) / 1000).toFixed(1)} s after that.\n`);
        break;
      }
      if (performance.now() - r0 > 15 * 60_000) throw new Error('the day\'s reminders were not sent 15 minutes after the generator finished');
      await new Promise((r) => setTimeout(r, 1000));
    }
    // The year on disk before anything is measured: a year written in minutes sits in PostgreSQL's and the kernel's
    // dirty pages, and flushing them stalled commits during the first scenario measured (an order write took up to
    // 773 ms); a shop's year was written over a year. A checkpoint, then the kernel's sync.
    const dirtyMb = Math.round(Number(/^Dirty:\s+(\d+)/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0) / 1024);
    const c0 = performance.now();
    await db.query('checkpoint');
    spawnSync('sync');
    kit.log(`Checkpointed and synced to disk (${dirtyMb} MB of the kernel's pages dirty) in ${((performance.now() - c0) / 1000).toFixed(1)} s.\n`);
    const sizes = (await db.query(`select pg_size_pretty(pg_database_size(current_database())) as size`)).rows[0] as { size: string };
    kit.log(`Database size: ${sizes.size}. Each request one at a time through the gateway (compressed answers), beside a query for the same rows run straight on PostgreSQL.\n`);

    const base = new URL(stack.url.replace('localhost', '127.0.0.1'));
    const admin = (await kit.signIn(stack, 'superadmin', DEFAULT_DEMO_PASSWORD)).cookie;
    // BENCH_SCALE_ONLY=checkout: the year, then only its checkout (to study what the year's size does to it).
    if (process.env.BENCH_SCALE_ONLY === 'checkout') return await checkoutAtSize(stack, db, kit, admin);
    const heavy = (await kit.signIn(stack, scaleUsername(1), DEFAULT_DEMO_PASSWORD)).cookie;
    const heavyId = ((await db.query(`select id from identity.users where username = $1`, [scaleUsername(1)])).rows[0] as { id: string }).id;
    const orderIds = ((await db.query(`select id from ordering.orders order by md5(id::text) limit 200`)).rows as Array<{ id: string }>).map((r) => r.id);
    const rentalProducts = ((await db.query(`select product_id from catalog.bookings where status = 'ACTIVE' group by product_id order by count(*) desc, product_id limit 50`)).rows as Array<{ product_id: string }>).map((r) => r.product_id);

    kit.log('| request | through the gateway p50 / p99 ms | baseline p50 / p99 ms | p99 ratio | budget | non-200 |');
    kit.log('|---|---|---|---|---|---|');
    const failures: string[] = [];
    const row = (label: string, got: Figure, base: Figure | undefined, budget: string) => {
      kit.log(`| ${label} | ${got.p50} / **${got.p99}** | ${base ? `${base.p50} / ${base.p99}` : '—'} | ${base ? `${(got.p99 / Math.max(base.p99, 0.1)).toFixed(1)}×` : '—'} | ${budget} | ${got.bad} |`);
      if (got.firstBad) failures.push(`${label}: ${got.firstBad}`);
    };
    const LIST = '≤ 2× and ≤ 100 ms';
    const N = 100;

    // The shop's grid (first pages and deep ones) and its search.
    for (const type of ['FOR_RENT', 'FOR_SALE']) {
      const offset = (i: number) => 20 * ((i * 7919) % 50);
      row(
        `shop grid, ${type}, 20 a page, pages 1-50`,
        await measure(base, N, (i) => `/api/products?type=${type}&limit=20&offset=${offset(i)}`),
        await baseline(db, N, `select id, name, brand, image, type, price from catalog.products where type = $1 and archived_at is null order by name, id limit 20 offset $2`, (i) => [type, offset(i)]),
        LIST,
      );
    }
    const words = ['wheelchair', 'hospital bed', 'oxygen', 'walker', 'nebulizer invacare', 'cpap philips'];
    row(
      'shop search (6 queries rotated)',
      await measure(base, N, (i) => `/api/products?search=${encodeURIComponent(words[i % words.length]!)}&limit=20`),
      await baseline(db, N, `select id, name from catalog.products p where archived_at is null and search_doc @@ websearch_to_tsquery('english', $1) order by ts_rank(search_doc, websearch_to_tsquery('english', $1)) desc, id limit 20`, (i) => [words[i % words.length]]),
      LIST,
    );

    // The staff's order lists: each tab's first page, and a deep page of the busiest tab.
    for (const [type, status] of [['RENT', 'PENDING'], ['RENT', 'DELIVERED'], ['RENT', 'FOR_FULL_PAYMENT'], ['RENT', 'COMPLETED'], ['BUY', 'PREPARING'], ['BUY', 'DELIVERED'], ['BUY', undefined]] as const) {
      const q = `type=${type}${status ? `&status=${status}` : ''}`;
      row(
        `staff orders, ${type} ${status ?? 'all'}, page 1`,
        await measure(base, N, () => `/api/orders?${q}&limit=20`, admin),
        await baseline(db, N, `select * from ordering.orders where type = $1 and ($2::text is null or status = $2) order by created_at desc, id limit 20`, () => [type, status ?? null]),
        LIST,
      );
    }
    row(
      'staff orders, BUY DELIVERED, pages 100-149',
      await measure(base, N, (i) => `/api/orders?type=BUY&status=DELIVERED&limit=20&offset=${20 * (100 + (i % 50))}`, admin),
      await baseline(db, N, `select * from ordering.orders where type = 'BUY' and status = 'DELIVERED' order by created_at desc, id limit 20 offset $1`, (i) => [20 * (100 + (i % 50))]),
      LIST,
    );
    row(
      'staff search by order number',
      await measure(base, N, (i) => `/api/orders?search=${encodeURIComponent(`ORD-${today.replaceAll('-', '')}`)}-${String(size.orders - (i % 50)).padStart(6, '0')}&limit=20`, admin),
      await baseline(db, N, `select * from ordering.orders where order_number = $1`, (i) => [`ORD-${today.replaceAll('-', '')}-${String(size.orders - (i % 50)).padStart(6, '0')}`]),
      LIST,
    );
    // One customer's orders (the busiest: ~1,000 of them), and an order's detail.
    for (const type of ['RENT', 'BUY']) {
      row(
        `a customer's orders (${(await db.query(`select count(*) as n from ordering.orders where customer_id = $1`, [heavyId])).rows[0].n} in all), ${type}, pages 1-10`,
        await measure(base, N, (i) => `/api/my/orders?type=${type}&limit=20&offset=${20 * (i % 10)}`, heavy),
        await baseline(db, N, `select * from ordering.orders where customer_id = $1 and type = $2 order by created_at desc, id limit 20 offset $3`, (i) => [heavyId, type, 20 * (i % 10)]),
        LIST,
      );
    }
    row(
      'order detail (200 orders rotated)',
      await measure(base, N, (i) => `/api/orders/${orderIds[i % orderIds.length]}`, admin),
      await baseline(
        db,
        N,
        `select o.*, (select json_agg(l) from ordering.order_lines l where l.order_id = o.id) as lines, (select json_agg(k) from ordering.order_tracker k where k.order_id = o.id) as tracker,
                (select row_to_json(p) from ordering.order_payments p where p.order_id = o.id) as payment from ordering.orders o where o.id = $1`,
        (i) => [orderIds[i % orderIds.length]],
      ),
      LIST,
    );
    // Accounting's payments: each tab's first page (the list answers every tab's count with it), a
    // deep page, and a search by a customer's name.
    for (const status of [undefined, 'INITIAL_PAYMENT', 'FOR_FULL_PAYMENT', 'PAID'] as const) {
      row(
        `payments, ${status ?? 'all'}, page 1`,
        await measure(base, N, () => `/api/payments?${status ? `status=${status}&` : ''}limit=20`, admin),
        await baseline(db, N, `select * from payment.payments where ($1::text is null or status = $1) order by created_at desc, id limit 20`, () => [status ?? null]),
        LIST,
      );
    }
    row(
      'payments, PAID, pages 100-149',
      await measure(base, N, (i) => `/api/payments?status=PAID&limit=20&offset=${20 * (100 + (i % 50))}`, admin),
      await baseline(db, N, `select * from payment.payments where status = 'PAID' order by created_at desc, id limit 20 offset $1`, (i) => [20 * (100 + (i % 50))]),
      LIST,
    );
    row(
      'payments, refunds to pay back, page 1',
      await measure(base, N, () => `/api/payments?refunds=DUE&limit=20`, admin),
      await baseline(db, N, `select * from payment.payments p where exists (select 1 from payment.payment_refunds r where r.payment_id = p.id and r.status = 'DUE') order by created_at desc, id limit 20`, () => []),
      LIST,
    );
    const names = ((await db.query(`select last_name from identity.users where user_type = 'CUSTOMER' and id_number like 'YR-%' order by md5(id::text) limit 20`)).rows as Array<{ last_name: string }>).map((r) => r.last_name);
    row(
      'payments, search by a customer\'s name (20 rotated)',
      await measure(base, N, (i) => `/api/payments?search=${encodeURIComponent(names[i % names.length]!)}&limit=20`, admin),
      await baseline(db, N, `select * from payment.payments where customer_name ilike $1 order by created_at desc, id limit 20`, (i) => [`%${names[i % names.length]}%`]),
      LIST,
    );
    // The users screen: the customers' first page (of the year's 200,000) and a search by name.
    row(
      'users, CUSTOMER, page 1',
      await measure(base, N, () => `/api/users?userType=CUSTOMER&limit=20`, admin),
      await baseline(db, N, `select * from identity.users where deleted_at is null and user_type = 'CUSTOMER' order by created_at desc, id limit 20`, () => []),
      LIST,
    );
    row(
      'users, search by name (20 rotated)',
      await measure(base, N, (i) => `/api/users?search=${encodeURIComponent(names[i % names.length]!)}&limit=20`, admin),
      await baseline(db, N, `select * from identity.users where deleted_at is null and last_name ilike $1 order by created_at desc, id limit 20`, (i) => [`%${names[i % names.length]}%`]),
      LIST,
    );
    // The warehouse's ongoing rentals, each tab's first page (with every tab's count), and a search by
    // a customer's name; the baseline reads the tab's page down the rentals' kept due date.
    const tabPage: Record<(typeof ONGOING_RENTAL_TABS)[number], string> = {
      ONGOING: `select * from ordering.orders where type = 'RENT' and status = 'DELIVERED' order by due_on nulls last, created_at desc, id limit 20`,
      DUE_DATE: `select * from ordering.orders where type = 'RENT' and status = 'DELIVERED' and due_on <= '${today}' order by due_on nulls last, created_at desc, id limit 20`,
      FOR_RETURN: `select * from ordering.orders where type = 'RENT' and status = 'FOR_RETURN' order by due_on nulls last, created_at desc, id limit 20`,
      PICKED_UP: `select o.* from ordering.orders o join ordering.order_payments p on p.order_id = o.id where o.type = 'RENT' and p.status = 'PAID' order by o.created_at desc, o.id limit 20`,
    };
    for (const tab of ONGOING_RENTAL_TABS) {
      row(`ongoing rentals, ${tab}, page 1`, await measure(base, N, () => `/api/ongoing-rentals?tab=${tab}&limit=20`, admin), await baseline(db, N, tabPage[tab], () => []), LIST);
    }
    row(
      "ongoing rentals, search by a customer's name (20 rotated)",
      await measure(base, N, (i) => `/api/ongoing-rentals?tab=ONGOING&search=${encodeURIComponent(names[i % names.length]!)}&limit=20`, admin),
      await baseline(
        db,
        N,
        `select o.* from ordering.orders o join ordering.customers c on c.id = o.customer_id where o.type = 'RENT' and o.status = 'DELIVERED' and c.last_name ilike $1 order by o.due_on nulls last, o.created_at desc, o.id limit 20`,
        (i) => [`%${names[i % names.length]}%`],
      ),
      LIST,
    );
    // Availability of a rental product over a month (the busiest booked ones).
    const to = addDays(today, 29);
    row(
      'availability, 30 days, one product (50 rotated)',
      await measure(base, N, (i) => `/api/products/${rentalProducts[i % rentalProducts.length]}/availability?from=${today}&to=${to}`),
      await baseline(
        db,
        N,
        `select d, (select count(*) from catalog.stock_items s where s.product_id = $1) - count(b.id) as free
           from generate_series($2::date, $3::date, interval '1 day') d left join catalog.bookings b on b.product_id = $1 and b.status = 'ACTIVE' and b.period @> d::date group by d order by d`,
        (i) => [rentalProducts[i % rentalProducts.length], today, to],
      ),
      LIST,
    );

    // A unit out on a rental, with its whole chain of custody (the warehouse's unit screen).
    const outUnits = ((await db.query(`select serial_code from catalog.stock_items where status = 'RENTED' order by md5(serial_code) limit 50`)).rows as Array<{ serial_code: string }>).map((r) => r.serial_code);
    if (outUnits.length > 0) {
      row(
        `a unit out on a rental with its chain of custody (${outUnits.length} rotated)`,
        await measure(base, N, (i) => `/api/units/${outUnits[i % outUnits.length]}`, admin),
        await baseline(
          db,
          N,
          `select su.*, (select json_agg(ce order by ce.at, ce.seq) from catalog.custody_events ce where ce.stock_item_id = su.id) as history from catalog.stock_items su where su.serial_code = $1`,
          (i) => [outUnits[i % outUnits.length]],
        ),
        LIST,
      );
    }

    // Every report over a month and over the year.
    const monthFrom = addDays(today, -29);
    const yearFrom = addDays(today, -364);
    for (const report of REPORT_NAMES) {
      for (const [label, from] of [['month', monthFrom], ['year', yearFrom]] as const) {
        row(`report ${report}, ${label}`, await measure(base, label === 'year' ? 10 : 20, () => `/api/reports/${report}?from=${from}&to=${today}&limit=50`, admin), undefined, label === 'year' ? '≤ 1,000 ms' : '—');
      }
    }

    if (failures.length) kit.log(`\nNot answered 200 (the first of each): ${failures.map((f) => `\n- ${f}`).join('')}`);

    // The year's Excel export of the largest report, with the reporting process's memory.
    const counts = await Promise.all(
      REPORT_NAMES.map(async (r) => [r, (await kit.api(stack, 'GET', `/api/reports/${r}?from=${yearFrom}&to=${today}&limit=1`, undefined, admin)).body as { total: number }] as const),
    );
    const [largest, { total: rows }] = counts.reduce((a, b) => (b[1].total > a[1].total ? b : a));
    const live = (await (await fetch(`${stack.serviceUrls.reporting}/health/live`)).json()) as { pid: number };
    let peak = rssMb(live.pid);
    const before = peak;
    const timer = setInterval(() => (peak = Math.max(peak, rssMb(live.pid))), 50);
    const started = performance.now();
    const job = kit.expectStatus('export', await kit.api(stack, 'POST', `/api/reports/${largest}/exports`, { from: yearFrom, to: today }, admin), 202) as { export: { id: string } };
    let status = '';
    while (performance.now() - started < 600_000) {
      const got = (await kit.api(stack, 'GET', `/api/report-exports/${job.export.id}`, undefined, admin)).body as { export: { status: string } };
      status = got.export.status;
      if (status !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    clearInterval(timer);
    kit.log(
      `\nExcel export of ${largest} over the year (${rows} rows): ${status} in **${((performance.now() - started) / 1000).toFixed(1)} s** (budget ≤ 60 s), ` +
        `reporting process peak RSS **${peak.toFixed(0)} MB** (budget ≤ 300 MB; ${before.toFixed(0)} MB before).`,
    );
    await checkoutAtSize(stack, db, kit, admin);
  } finally {
    await db.end();
  }
}
