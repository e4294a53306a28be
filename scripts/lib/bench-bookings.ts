/**
 * `npm run bench -- bookings` (issue 25; DESIGN §12): dated rentals at volume. Seeds 1,000 rental
 * products (through the API), 10,000 serials and 200,000 ACTIVE bookings, then measures
 *
 *  - availability of the shop's 20-card page over a 30-day window through the gateway (budget
 *    p99 ≤ 50 ms), beside the same counting as one bare `pg` query;
 *  - checkout of a dated rental through the gateway (one hot product level, then 50 products)
 *    against a bare transaction inserting the same booking rows under the same exclusion
 *    constraint (budget ≥ 25% hot, ≥ 10% spread).
 *
 * The helpers of scripts/bench.ts come in as `kit` (that file is the script's entry point).
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { addDays, manilaDate } from '@dme/contracts';
import { dropDatabase, ensureDatabase } from '@dme/platform';
import { withDatabase } from './infra';
import type { TestStack } from './testenv';
import { DEFAULT_DEMO_PASSWORD } from './seed';

/** A parsed JSON answer (as scripts/bench.ts's `api` gives it). */
type Json = ReturnType<typeof JSON.parse>;

interface Session {
  cookie: string;
}

interface LoadResult {
  secs: number;
  p50: number;
  p99: number;
  statuses: Map<number, number>;
  spread: string;
}

/** What scripts/bench.ts lends this section. */
/** An order as the shop's checkout sends it, for the benches: its type and lines, delivered to the bench's address. */
export const benchOrderBody = (type: 'BUY' | 'RENT', lines: Array<Record<string, unknown>>) => ({
  type,
  typeOfOrder: 'BULK',
  lines,
  deliveryAddress: '1 Bench St',
  deliveryCity: 'Makati',
  deliveryState: 'Metro Manila',
  deliveryZipcode: '120000',
  note: '',
});

export interface BenchKit {
  log: (m: string) => void;
  api: (stack: TestStack, method: string, path: string, body?: unknown, cookie?: string) => Promise<{ status: number; body: Json; cookie?: string }>;
  signIn: (stack: TestStack, username: string, password: string) => Promise<Session>;
  uploadImage: (stack: TestStack) => Promise<string>;
  expectStatus: (what: string, r: { status: number; body: Json }, status: number) => Json;
  load: (total: number, concurrency: number, call: (i: number) => Promise<number>) => Promise<LoadResult>;
  pct: (x: number, base: number) => string;
}

const SCHEMA = 'catalog';
const PRODUCTS = 1000;
const SERIALS = 10_000;
const BOOKINGS_PER_SERIAL = 20;
/** Background bookings: one per 19-day slot per serial, from 200 days ago to ~180 days ahead. */
const SLOT_DAYS = 19;
const FIRST_DAY_OFFSET = -200;
const HOT_UNITS = 500;
const SPREAD_PRODUCTS = 50;
const SPREAD_UNITS = 20;
const RENTAL_DAYS = 3;
/** Products created through the API get the catalog's default turnaround (1 day). */
const TURNAROUND_DAYS = 1;
const WINDOW_DAYS = 30;
const PAGE = 20;

/**
 * The background bookings of the serials `where` selects, as one statement: slot k of a serial
 * (k = 0..19, 19 days each, shifted by 0-18 days per serial so that the units of a level are not
 * all busy on the same days) holds one booking starting 0-4 days into the slot, 3-14 days long
 * (turnaround included), so a serial's bookings never overlap; one in 20 is downtime (maintenance).
 */
function backgroundBookingsSql(bookings: string, items: string, where: string, full: boolean): string {
  const h = (salt: string) => `abs(hashtext(i.id::text || '${salt}' || k.n::text))`;
  const cols = full
    ? `id, kind, order_id, stock_item_id, leaf_id, product_id, period, due_date, reason, status`
    : `stock_item_id, period, status`;
  const vals = full
    ? `gen_random_uuid(), case when x.downtime then 'DOWNTIME' else 'RENTAL' end, case when x.downtime then null else gen_random_uuid() end,
       i.id, coalesce(i.sub_variant_id, i.variant_id, i.product_id), i.product_id, daterange(x.s, x.s + x.len),
       x.s + x.len - (case when x.downtime then 0 else ${TURNAROUND_DAYS} end), case when x.downtime then 'MAINTENANCE' end, 'ACTIVE'`
    : `i.id, daterange(x.s, x.s + x.len), 'ACTIVE'`;
  return `insert into ${bookings} (${cols})
    select ${vals}
      from ${items} i cross join generate_series(0, ${BOOKINGS_PER_SERIAL - 1}) k(n)
      cross join lateral (select $1::date + ${FIRST_DAY_OFFSET} + abs(hashtext(i.id::text || 'p')) % ${SLOT_DAYS} + k.n * ${SLOT_DAYS} + ${h('s')} % 5 as s, 3 + ${h('l')} % 12 as len, ${h('d')} % 20 = 0 as downtime) x
     where ${where}`;
}

/** The dated order i asks for: one unit for RENTAL_DAYS days from 1-179 days ahead. */
const startOf = (today: string, i: number) => addDays(today, 1 + ((i * 37) % 179));

function getStatus(url: string, agent: http.Agent): Promise<number> {
  const u = new URL(url);
  return new Promise((done, fail) => {
    http
      .get({ hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent, headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
        res.on('error', fail);
      })
      .on('error', fail);
  });
}

/**
 * A JSON POST as scripts/bench.ts's `post` sends it, keeping the first answer's body of each status other than 201 in `samples` (what a
 * refused or failed dated order says).
 */
function postKeeping(base: URL, path: string, body: unknown, headers: http.OutgoingHttpHeaders, agent: http.Agent, samples: Map<number, string>): Promise<number> {
  const data = Buffer.from(JSON.stringify(body));
  return new Promise((done, fail) => {
    const req = http.request(
      { hostname: base.hostname, port: base.port, path, method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': data.length } },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          if (status !== 201 && !samples.has(status)) chunks.push(c);
        });
        res.on('end', () => {
          if (status !== 201 && !samples.has(status)) samples.set(status, Buffer.concat(chunks).toString('utf8').slice(0, 300));
          done(status);
        });
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(data);
  });
}

interface Seeded {
  productIds: string[];
  hot: string;
  spread: string[];
  serials: number;
  bookings: number;
  secs: number;
}

/** 1,000 rental products through the API; stock for the ordered ones through the API, the rest and the bookings by SQL. */
async function seed(stack: TestStack, kit: BenchKit, db: pg.Client, today: string): Promise<Seeded> {
  const t0 = Date.now();
  const admin = await kit.signIn(stack, 'superadmin', DEFAULT_DEMO_PASSWORD);
  const image = await kit.uploadImage(stack);
  const bin = kit.expectStatus('create bin', await kit.api(stack, 'POST', '/api/warehouse-bins', { name: `Bench bookings ${Date.now()}`, description: 'bench' }, admin.cookie), 201).bin.id as string;
  const productIds: string[] = [];
  for (let i = 0; i < PRODUCTS; i += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, PRODUCTS - i) }, async (_, j) =>
        kit.expectStatus('create rental product', await kit.api(stack, 'POST', '/api/products', { brand: 'Rental', name: `Rental item ${String(i + j).padStart(4, '0')}`, description: 'x', type: 'FOR_RENT', image, price: '10.00', damageCharges: '5.00' }, admin.cookie), 201).product.id as string,
      ),
    );
    productIds.push(...batch);
  }
  const hot = productIds[0]!;
  const spread = productIds.slice(1, 1 + SPREAD_PRODUCTS);
  // Units of the ordered products through the real API (its batch, serials, ledger and event).
  const addStock = async (productID: string, quantity: number) =>
    kit.expectStatus('add stock', await kit.api(stack, 'POST', '/api/stocks', { productID, warehouseBinID: bin, quantity }, admin.cookie), 201);
  await addStock(hot, HOT_UNITS);
  for (let i = 0; i < spread.length; i += 10) await Promise.all(spread.slice(i, i + 10).map((p) => addStock(p, SPREAD_UNITS)));
  // The background volume by SQL: the remaining serials over the other products (a batch per
  // product; the ledger follows through the stock_items triggers), then the bookings of all.
  const rest = productIds.slice(1 + SPREAD_PRODUCTS);
  const left = SERIALS - HOT_UNITS - SPREAD_PRODUCTS * SPREAD_UNITS;
  const s = (n: string) => `"${SCHEMA}"."${n}"`;
  await db.query('begin');
  await db.query(
    `create temp table bench_batches on commit drop as
       select gen_random_uuid() as id, p.id as product_id, p.n, (${left} / ${rest.length} + case when p.n <= ${left % rest.length} then 1 else 0 end)::int as quantity
         from unnest($1::uuid[]) with ordinality as p(id, n)`,
    [rest],
  );
  await db.query(`insert into ${s('stock_batches')} (id, product_id, warehouse_bin_id, quantity) select id, product_id, $1, quantity from bench_batches where quantity > 0`, [bin]);
  await db.query(
    `insert into ${s('stock_items')} (id, serial_code, product_id, warehouse_bin_id, batch_id, status, inventory_type)
     select gen_random_uuid(), 'BKB-' || lpad(nextval('${s('serial_seq')}')::text, 7, '0'), b.product_id, $1, b.id, 'AVAILABLE', 'IN'
       from bench_batches b cross join generate_series(1, b.quantity) g`,
    [bin],
  );
  await db.query('commit');
  const ins = await db.query(backgroundBookingsSql(s('bookings'), s('stock_items'), `i.product_id = any($2::uuid[])`, true), [today, productIds]);
  const serials = (await db.query(`select count(*)::int as n from ${s('stock_items')} where product_id = any($1::uuid[])`, [productIds])).rows[0].n as number;
  await db.query(`analyze ${s('products')}, ${s('stock_items')}, ${s('stock_levels')}, ${s('bookings')}`);
  return { productIds, hot, spread, serials, bookings: ins.rowCount ?? 0, secs: (Date.now() - t0) / 1000 };
}

/**
 * The same counting as the availability answer (free units per day; units free for the rental
 * from each day), 20 products in one query, as the catalog counts: one probe of the exclusion
 * constraint's index per unit, day and question (2 × 20 × 9 × 30 here).
 */
const BARE_AVAILABILITY_SQL = `
  with units as materialized (
    select i.id, i.product_id from "${SCHEMA}"."stock_items" i where i.product_id = any($1::uuid[]) and i.status in ('AVAILABLE','RENTED')
  )
  select u.product_id, to_char(d, 'YYYY-MM-DD') as day,
         count(*) filter (where not exists (select 1 from "${SCHEMA}"."bookings" b where b.stock_item_id = u.id and b.status = 'ACTIVE' and b.period && daterange(d::date, d::date + 1)))::int as free,
         count(*) filter (where not exists (select 1 from "${SCHEMA}"."bookings" b where b.stock_item_id = u.id and b.status = 'ACTIVE' and b.period && daterange(d::date, d::date + $4::int)))::int as fits
    from units u cross join generate_series($2::date, $3::date, interval '1 day') d
   group by 1, 2`;

/**
 * The same answer read another way (a rewrite to suggest): the page's bookings that touch the
 * window in one scan of bookings_product_period_idx, merged per unit into a multirange, then one
 * `&&` per unit and day in memory.
 */
const BARE_AVAILABILITY_RANGES_SQL = `
  with units as materialized (
    select i.id, i.product_id from "${SCHEMA}"."stock_items" i where i.product_id = any($1::uuid[]) and i.status in ('AVAILABLE','RENTED')
  ), taken as (
    select b.stock_item_id, range_agg(b.period) as m from "${SCHEMA}"."bookings" b
     where b.product_id = any($1::uuid[]) and b.status = 'ACTIVE' and b.period && daterange($2::date, $3::date + $4::int)
     group by 1
  )
  select u.product_id, to_char(d, 'YYYY-MM-DD') as day,
         count(*) filter (where t.m is null or not (t.m && daterange(d::date, d::date + 1)))::int as free,
         count(*) filter (where t.m is null or not (t.m && daterange(d::date, d::date + $4::int)))::int as fits
    from units u left join taken t on t.stock_item_id = u.id cross join generate_series($2::date, $3::date, interval '1 day') d
   group by 1, 2`;

async function availability(stack: TestStack, kit: BenchKit, seeded: Seeded, today: string): Promise<void> {
  const { log } = kit;
  const base = stack.url.replace('localhost', '127.0.0.1');
  const from = today;
  const to = addDays(today, WINDOW_DAYS - 1);
  const pages = Math.floor(seeded.productIds.length / PAGE);
  // Page p: 20 products that sit together in the shop's list (ours are named in order).
  const pageOf = (i: number) => seeded.productIds.slice(PAGE * ((i * 7) % pages), PAGE * ((i * 7) % pages) + PAGE);
  const batchUrl = (i: number) => `${base}/api/availability?productIDs=${pageOf(i).join(',')}&from=${from}&to=${to}&days=${RENTAL_DAYS}&quantity=1`;
  const oneUrl = (id: string) => `${base}/api/products/${id}/availability?from=${from}&to=${to}&days=${RENTAL_DAYS}&quantity=1`;
  const probe = await fetch(batchUrl(0));
  const batch = probe.status === 200;
  const sample = batch ? await probe.json() : await (await fetch(oneUrl(seeded.productIds[0]!))).json();
  if (!batch) await probe.arrayBuffer().catch(() => undefined);
  const firstDays = (batch ? sample.items?.[0]?.days : sample.days) as Array<{ free: number }> | undefined;
  if (!firstDays || firstDays.length !== WINDOW_DAYS) throw new Error(`availability answer unexpected: ${JSON.stringify(sample).slice(0, 400)}`);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
  const page = batch
    ? (i: number) => getStatus(batchUrl(i), agent)
    : async (i: number) => Math.max(...(await Promise.all(pageOf(i).map((id) => getStatus(oneUrl(id), agent)))));
  await kit.load(200, 50, page); // warm-up
  const total = batch ? 1500 : 500;
  const r = await kit.load(total, 50, page);
  // One shopper at a time: the latency of a page with the machine otherwise idle.
  const one = await kit.load(300, 1, page);
  agent.destroy();
  // Baselines: the same counting as one bare pg query per page (pool of 10, 50 in flight), as the
  // catalog counts and as a rewrite would; both answers compared on every page.
  const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 10 });
  const params = (i: number) => [pageOf(i), from, to, RENTAL_DAYS + TURNAROUND_DAYS];
  const key = (rows: Array<{ product_id: string; day: string; free: number; fits: number }>) => rows.map((x) => `${x.product_id}|${x.day}|${x.free}|${x.fits}`).sort().join(',');
  let differ = 0;
  for (let i = 0; i < pages; i++) {
    const [a, c] = await Promise.all([pool.query(BARE_AVAILABILITY_SQL, params(i)), pool.query(BARE_AVAILABILITY_RANGES_SQL, params(i))]);
    if (a.rowCount !== PAGE * WINDOW_DAYS || key(a.rows) !== key(c.rows)) differ++;
  }
  const bareTotal = Math.min(total, 300);
  const bareOf = (query: string) => (i: number) => pool.query(query, params(i)).then((x) => (x.rowCount === PAGE * WINDOW_DAYS ? 200 : 500));
  await kit.load(50, 50, bareOf(BARE_AVAILABILITY_SQL));
  const b = await kit.load(bareTotal, 50, bareOf(BARE_AVAILABILITY_SQL));
  await kit.load(50, 50, bareOf(BARE_AVAILABILITY_RANGES_SQL));
  const rr = await kit.load(bareTotal, 50, bareOf(BARE_AVAILABILITY_RANGES_SQL));
  const rr1 = await kit.load(100, 1, bareOf(BARE_AVAILABILITY_RANGES_SQL));
  const plan = await pool.query(`explain (analyze, buffers) ${BARE_AVAILABILITY_SQL}`, params(3));
  const rangesPlan = await pool.query(`explain (analyze, buffers) ${BARE_AVAILABILITY_RANGES_SQL}`, params(3));
  await pool.end();
  const how = batch ? 'GET /api/availability?productIDs=<20 ids>' : '20 × GET /api/products/:id/availability in parallel (the batch route is not there yet)';
  log(`\n### Availability of the shop's 20-card page: ${how}, ${WINDOW_DAYS} days from ${from}, ${RENTAL_DAYS}-day rental, 50 concurrent\n`);
  log('| path | in flight | pages | p50 ms | p99 ms (budget ≤ 50) | pages/s | answers |');
  log('|---|---|---|---|---|---|---|');
  log(`| gateway → catalog | 50 | ${total} | ${r.p50.toFixed(1)} | **${r.p99.toFixed(1)}** | ${(total / r.secs).toFixed(0)} | ${[...r.statuses].map(([st, n]) => `${n}×${st}`).join(', ')} |`);
  log(`| gateway → catalog | 1 | 300 | ${one.p50.toFixed(1)} | **${one.p99.toFixed(1)}** | ${(300 / one.secs).toFixed(0)} | ${[...one.statuses].map(([st, n]) => `${n}×${st}`).join(', ')} |`);
  const answers = (x: LoadResult) => [...x.statuses].map(([st, n]) => `${n}×${st === 200 ? 'ok' : 'wrong rows'}`).join(', ');
  log(`| bare pg, the same counting (a probe per unit and day), pool 10 | 50 | ${bareTotal} | ${b.p50.toFixed(1)} | ${b.p99.toFixed(1)} | ${(bareTotal / b.secs).toFixed(0)} | ${answers(b)} |`);
  log(`| bare pg, the window's bookings per unit as a multirange, pool 10 | 50 | ${bareTotal} | ${rr.p50.toFixed(1)} | ${rr.p99.toFixed(1)} | ${(bareTotal / rr.secs).toFixed(0)} | ${answers(rr)} |`);
  log(`| bare pg, the window's bookings per unit as a multirange | 1 | 100 | ${rr1.p50.toFixed(1)} | ${rr1.p99.toFixed(1)} | ${(100 / rr1.secs).toFixed(0)} | ${answers(rr1)} |`);
  log(`\nRatio: ${kit.pct(total / r.secs, bareTotal / b.secs)} of the same bare counting's pages/s; p99 ${(r.p99 / b.p99).toFixed(2)}× its p99. ` +
    `One at a time: p99 ${(one.p99 / rr1.p99).toFixed(2)}× the bare multirange query's. ` +
    `The two bare queries answered differently on ${differ} of ${pages} pages. Gateway latency p50 / p75 / p90 / p95 / p99 / max: ${r.spread} ms.`);
  if (process.env.BENCH_EXPLAIN) {
    for (const [what, p] of [['probe per unit and day', plan], ['multirange', rangesPlan]] as const) log(`\nBare query plan, ${what} (one page):\n\n\`\`\`\n${p.rows.map((x) => x['QUERY PLAN']).join('\n')}\n\`\`\``);
  }
}

interface Figure {
  perSec: number;
  p50: number;
  p99: number;
  booked: number;
}

/**
 * Baseline: a bare transaction from a plain `pg` client (16 connections) on a bookings-like table
 * with the same exclusion constraint and the same background bookings (20 per unit): lock the
 * level's row (as the catalog locks the leaf's ledger row; as the purchase baseline's update does),
 * then `insert … select` the first unit with no overlapping ACTIVE booking, `limit 1`. Hot: one
 * level of 500 units; spread: 50 levels of 20. Orders ask for the same periods as the gateway's.
 */
async function bareBookAndInsert(serverUrl: string, spread: boolean, today: string, total = 3000): Promise<Figure> {
  const url = withDatabase(serverUrl, `bench_book_${randomBytes(4).toString('hex')}`);
  await ensureDatabase(url);
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  try {
    await setup.query('create extension if not exists btree_gist');
    await setup.query('create table levels (id int primary key, booked int not null default 0)');
    await setup.query('create table items (id uuid primary key, level_id int not null, serial_code text not null)');
    await setup.query('create index on items (level_id, serial_code)');
    await setup.query(`create table bookings (id bigserial primary key, stock_item_id uuid not null references items (id), period daterange not null, status text not null,
      constraint bookings_no_overlap exclude using gist (stock_item_id with =, period with &&) where (status = 'ACTIVE'))`);
    const levels = spread ? SPREAD_PRODUCTS : 1;
    const units = spread ? SPREAD_UNITS : HOT_UNITS;
    await setup.query('insert into levels (id) select g from generate_series(1, $1::int) g', [levels]);
    await setup.query(`insert into items select gen_random_uuid(), l, lpad(u::text, 7, '0') from generate_series(1, $1::int) l, generate_series(1, $2::int) u`, [levels, units]);
    await setup.query(backgroundBookingsSql('bookings', 'items', 'true', false), [today]);
    await setup.query('analyze');
    const clients = await Promise.all(Array.from({ length: 16 }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }));
    const times: number[] = [];
    let booked = 0;
    let next = 0;
    const t0 = process.hrtime.bigint();
    await Promise.all(
      clients.map(async (c) => {
        for (let i = next++; i < total; i = next++) {
          const level = spread ? 1 + (i % levels) : 1;
          const start = startOf(today, i);
          const end = addDays(start, RENTAL_DAYS + TURNAROUND_DAYS);
          const s = process.hrtime.bigint();
          await c.query('begin');
          await c.query('update levels set booked = booked + 1 where id = $1', [level]);
          const r = await c.query(
            `insert into bookings (stock_item_id, period, status)
             select i.id, daterange($2::date, $3::date), 'ACTIVE' from items i
              where i.level_id = $1 and not exists (select 1 from bookings b where b.stock_item_id = i.id and b.status = 'ACTIVE' and b.period && daterange($2::date, $3::date))
              order by i.serial_code limit 1`,
            [level, start, end],
          );
          await c.query('commit');
          booked += r.rowCount ?? 0;
          times.push(Number(process.hrtime.bigint() - s) / 1e6);
        }
      }),
    );
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    await Promise.all(clients.map((c) => c.end()));
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0;
    return { perSec: total / secs, p50: q(0.5), p99: q(0.99), booked };
  } finally {
    await setup.end();
    await dropDatabase(url).catch(() => undefined);
  }
}

/** 50 customers of this section (their own names: the checkout section registers `bench_…`). */
async function customers(stack: TestStack, kit: BenchKit, n: number): Promise<Session[]> {
  const image = await kit.uploadImage(stack);
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const username = `bkbench_${process.pid}_${i}`;
      const password = 'bench-password-1';
      kit.expectStatus(`register ${username}`, await kit.api(stack, 'POST', '/api/auth/register', {
        username, password, firstName: 'Bench', lastName: `Renter${i}`, birthDate: '1990-01-01', gender: 'MALE', contactNumber: '0917',
        email: `${username}@example.com`, address: '1 Bench St', city: 'Makati', state: 'Metro Manila', zipcode: '120000', image,
      }), 201);
      return kit.signIn(stack, username, password);
    }),
  );
}

async function datedCheckout(stack: TestStack, kit: BenchKit, serverUrl: string, seeded: Seeded, db: pg.Client, today: string): Promise<void> {
  const { log } = kit;
  const people = await customers(stack, kit, 50);
  await new Promise((r) => setTimeout(r, 1500)); // read models catch up
  const gateway = new URL(stack.url.replace('localhost', '127.0.0.1'));
  const samples = new Map<number, string>();
  const order = (productID: string, i: number, customer: Session, key: string, agent: http.Agent) =>
    postKeeping(gateway, '/api/orders', benchOrderBody('RENT', [{ productID, quantity: 1, noOfRentalDays: RENTAL_DAYS, startDate: startOf(today, i) }]), { cookie: customer.cookie, 'idempotency-key': key }, agent, samples);
  // Warm-up, not measured (the processes compile their hot code): 600 orders on the spread
  // products, at other periods than the measured orders ask for (offset by 90).
  const warmAll = new http.Agent({ keepAlive: true, maxSockets: 50 });
  const first = await kit.load(600, 50, (i) => order(seeded.spread[i % seeded.spread.length]!, i + 90, people[i % people.length]!, `bk-warm-up-${i}-${Date.now()}`, warmAll));
  warmAll.destroy();
  if ((first.statuses.get(201) ?? 0) === 0) throw new Error(`dated checkout warm-up: no order placed (${[...first.statuses].map(([s, n]) => `${n}×${s}`).join(', ')})`);
  log(`\n### Dated rental checkout through the gateway vs the bare booking transaction (same PostgreSQL, same run)\n`);
  log(`Each order: one unit for ${RENTAL_DAYS} days (+${TURNAROUND_DAYS} turnaround) from a start 1-179 days ahead; every unit already has ${BOOKINGS_PER_SERIAL} bookings over [-200, +180] days.\n`);
  log('| scenario | orders/s | p50 ms | p99 ms | answers | bookings written | baseline tx/s | baseline p99 ms | ratio (budget) |');
  log('|---|---|---|---|---|---|---|---|---|');
  const cpu: string[] = [];
  for (const [label, pick, spread, budget] of [
    [`one hot product, ${HOT_UNITS} units, 50 customers`, () => seeded.hot, false, '25%'],
    [`${SPREAD_PRODUCTS} products × ${SPREAD_UNITS} units, 50 customers`, (i: number) => seeded.spread[i % seeded.spread.length]!, true, '10%'],
  ] as const) {
    const item = pick as (i: number) => string;
    const products = spread ? seeded.spread : [seeded.hot];
    const warm = new http.Agent({ keepAlive: true, maxSockets: 50 });
    await kit.load(200, 50, (i) => order(item(i), i + 45, people[i % people.length]!, `bk-warm-${label}-${i}-${Date.now()}`, warm));
    warm.destroy();
    const before = (await db.query(`select count(*)::int as n from "${SCHEMA}"."bookings" where kind = 'RENTAL' and product_id = any($1::uuid[]) and created_at > now() - interval '1 day'`, [products])).rows[0].n as number;
    const total = 1000;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 50 });
    const r = await kit.load(total, 50, (i) => order(item(i), i, people[i % people.length]!, `bk-${label}-${i}-${Date.now()}`, agent));
    agent.destroy();
    const after = (await db.query(`select count(*)::int as n from "${SCHEMA}"."bookings" where kind = 'RENTAL' and product_id = any($1::uuid[]) and created_at > now() - interval '1 day'`, [products])).rows[0].n as number;
    const ok = r.statuses.get(201) ?? 0;
    const base = await bareBookAndInsert(serverUrl, spread, today);
    const perSec = ok / r.secs;
    cpu.push(`${label}: ${r.spread} ms; baseline booked ${base.booked} of 3000`);
    log(`| ${label} | ${perSec.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${[...r.statuses].map(([s, n]) => `${n}×${s}`).join(', ')} | ${after - before} | ${base.perSec.toFixed(0)} | ${base.p99.toFixed(1)} | **${kit.pct(perSec, base.perSec)}** (≥ ${budget}) |`);
  }
  log(`\nLatency p50 / p75 / p90 / p95 / p99 / max: ${cpu.join('; ')}.`);
  const overlaps = (await db.query(
    `select count(*)::int as n from "${SCHEMA}"."bookings" a join "${SCHEMA}"."bookings" b
        on a.stock_item_id = b.stock_item_id and a.id < b.id and a.period && b.period
      where a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.product_id = any($1::uuid[])`,
    [[seeded.hot, ...seeded.spread]],
  )).rows[0].n as number;
  log(`Overlapping ACTIVE bookings on the ordered units afterwards: ${overlaps}.`);
  for (const [status, body] of samples) log(`\nA ${status} answer: \`${body.replace(/`/g, "'")}\``);
}

/** The `bookings` section of `npm run bench`. */
export async function bookingsBench(stack: TestStack, serverUrl: string, kit: BenchKit): Promise<void> {
  const today = manilaDate();
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    const seeded = await seed(stack, kit, db, today);
    kit.log(`\nDated rentals (issue 25): seeded ${seeded.productIds.length} rental products (API), ${seeded.serials} serials (${HOT_UNITS + SPREAD_PRODUCTS * SPREAD_UNITS} by the API), ` +
      `${seeded.bookings} ACTIVE bookings (SQL) in ${seeded.secs.toFixed(0)} s; today (Manila) ${today}.`);
    await availability(stack, kit, seeded, today);
    await datedCheckout(stack, kit, serverUrl, seeded, db, today);
  } finally {
    await db.end();
  }
}
