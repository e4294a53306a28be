/**
 * `npm test`: every suite (unit, service tests on real PostgreSQL and NATS, Playwright end to
 * end in Debian's Chromium against the real stack). It finds or starts what it needs and says in
 * one line what is missing. Ends with "N passed, M failed".
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropDatabase, ensureDatabase } from '@dme/platform';
import {
  canConnectPg,
  findBinary,
  MissingPrerequisite,
  NATS_INSTALL_HINT,
  portOpen,
  startEmbeddedPostgres,
  startNatsServer,
  withDatabase,
  type NatsHandle,
  type PostgresHandle,
} from './lib/infra';
import { startStack, type RunningStack } from './lib/stack';
import { DEFAULT_DEMO_PASSWORD, seed } from './lib/seed';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const resultsDir = join(root, '.data', 'test-results');
const log = (m: string) => console.log(m);

interface SuiteResult {
  suite: string;
  passed: number;
  failed: number;
}
const results: SuiteResult[] = [];
const cleanups: Array<() => Promise<void>> = [];

function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => done(port));
    });
    srv.on('error', fail);
  });
}

async function freeRange(start: number, size: number): Promise<number> {
  for (let base = start; base < start + 2000; base += 100) {
    const taken = await Promise.all(Array.from({ length: size }, (_, i) => portOpen(base + i + 1, '127.0.0.1', 200)));
    if (!taken.some(Boolean)) return base;
  }
  throw new Error('No free port range for the services');
}

function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? findBinary('chromium', ['/usr/bin/chromium', '/usr/bin/chromium-browser']);
  if (!path || !existsSync(path)) {
    throw new MissingPrerequisite('Chromium is missing: install it with `apt-get install -y chromium` (as root), or set CHROMIUM_PATH.');
  }
  return path;
}

async function testPostgres(): Promise<PostgresHandle> {
  if (process.env.TEST_DATABASE_URL) return { serverUrl: process.env.TEST_DATABASE_URL, kind: 'external', stop: async () => undefined };
  const system = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (await canConnectPg(system)) {
    log('PostgreSQL: the local server on 127.0.0.1:5432');
    return { serverUrl: system, kind: 'system', stop: async () => undefined };
  }
  return startEmbeddedPostgres(join(root, '.data', 'test-pg'), Number(process.env.TEST_EMBEDDED_PG_PORT ?? 54339), log);
}

async function testNats(): Promise<NatsHandle> {
  if (process.env.TEST_NATS_URL) return { url: process.env.TEST_NATS_URL, kind: 'external', stop: async () => undefined };
  // A private nats-server per run: tests start from an empty stream and cannot disturb `npm start`.
  if (findBinary('nats-server', ['/usr/sbin/nats-server', '/usr/bin/nats-server'])) {
    const store = join(tmpdir(), `dme-test-nats-${randomBytes(4).toString('hex')}`);
    const handle = await startNatsServer(await freePort(), store);
    log(`NATS: a private nats-server -js for this run (${handle.url})`);
    return { ...handle, stop: async () => { await handle.stop(); rmSync(store, { recursive: true, force: true }); } };
  }
  if (await portOpen(4222)) {
    log('NATS: the local server on 127.0.0.1:4222');
    return { url: 'nats://127.0.0.1:4222', kind: 'local', stop: async () => undefined };
  }
  throw new MissingPrerequisite(NATS_INSTALL_HINT);
}

function readVitest(file: string): SuiteResult {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as { numPassedTests: number; numFailedTests: number; numTotalTests: number; testResults?: Array<{ status: string }> };
    // A test file that fails to load has no tests but counts as a failure.
    const brokenFiles = (r.testResults ?? []).filter((f) => f.status === 'failed').length;
    return { suite: 'unit + service (vitest)', passed: r.numPassedTests, failed: Math.max(r.numFailedTests, r.numFailedTests === 0 ? brokenFiles : 0) };
  } catch {
    return { suite: 'unit + service (vitest)', passed: 0, failed: 1 };
  }
}

function readPlaywright(file: string): SuiteResult {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number }; errors?: unknown[] };
    return { suite: 'end-to-end (Playwright, Chromium)', passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected + (r.errors?.length ?? 0) };
  } catch {
    return { suite: 'end-to-end (Playwright, Chromium)', passed: 0, failed: 1 };
  }
}

async function main(): Promise<void> {
  const only = process.argv.slice(2); // e.g. `npm test -- e2e` or `npm test -- unit`
  const want = (s: string) => only.length === 0 || only.includes(s);
  mkdirSync(resultsDir, { recursive: true });

  const chromium = want('e2e') ? chromiumPath() : '';
  const pgHandle = await testPostgres();
  cleanups.push(() => pgHandle.stop());
  const nats = await testNats();
  cleanups.push(() => nats.stop());

  if (want('static')) {
    log('\n== typecheck ==');
    const code = await run('npx', ['turbo', 'run', 'typecheck', '--output-logs=errors-only']);
    results.push({ suite: 'typecheck', passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 });
  }

  if (want('unit')) {
    log('\n== unit + service tests (vitest) ==');
    const out = join(resultsDir, 'vitest.json');
    rmSync(out, { force: true });
    await run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], {
      TEST_DATABASE_URL: pgHandle.serverUrl,
      TEST_NATS_URL: nats.url,
      LOG_LEVEL: 'silent',
    });
    results.push(readVitest(out));
  }

  if (want('e2e')) {
    log('\n== build ==');
    const build = await run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only']);
    if (build !== 0) {
      results.push({ suite: 'build', passed: 0, failed: 1 });
    } else {
      log('\n== end-to-end (Playwright in Chromium, against the started stack) ==');
      const dbName = `dme_e2e_${randomBytes(4).toString('hex')}`;
      const databaseUrl = withDatabase(pgHandle.serverUrl, dbName);
      await ensureDatabase(databaseUrl);
      cleanups.push(() => dropDatabase(databaseUrl));
      const uploadDir = join(tmpdir(), `${dbName}-uploads`);
      cleanups.push(async () => rmSync(uploadDir, { recursive: true, force: true }));
      const gatewayPort = await freePort();
      let stack: RunningStack | undefined;
      try {
        stack = await startStack({
          root,
          databaseUrl,
          natsUrl: nats.url,
          gatewayPort,
          gatewayHost: '127.0.0.1',
          servicePortBase: await freeRange(4300, 5),
          internalToken: randomBytes(24).toString('hex'),
          uploadDir,
          logLevel: 'warn',
          printLevel: 50,
          log: (l) => log(`  ${l}`),
          extraEnv: { LOGIN_MAX_PER_IP: '10000', REGISTER_MAX_PER_IP: '10000', UPLOAD_ANON_MAX_PER_IP: '10000' },
        });
        await seed({ databaseUrl, uploadDir, demo: true, demoPassword: DEFAULT_DEMO_PASSWORD });
        const out = join(resultsDir, 'playwright.json');
        rmSync(out, { force: true });
        await run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {
          E2E_BASE_URL: `http://localhost:${gatewayPort}`,
          E2E_DEMO_PASSWORD: DEFAULT_DEMO_PASSWORD,
          CHROMIUM_PATH: chromium,
          PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        });
        results.push(readPlaywright(out));
      } finally {
        await stack?.stop();
      }
    }
  }
}

async function finish(code: number): Promise<never> {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  if (results.length) {
    log('\n== summary ==');
    for (const r of results) log(`${r.suite}: ${r.passed} passed, ${r.failed} failed`);
  }
  const passed = results.reduce((a, r) => a + r.passed, 0);
  const failed = results.reduce((a, r) => a + r.failed, 0);
  log(`${passed} passed, ${failed} failed`);
  process.exit(code || (failed > 0 || results.length === 0 ? 1 : 0));
}

main()
  .then(() => finish(0))
  .catch((err) => {
    if (err instanceof MissingPrerequisite) console.error(err.message);
    else console.error(`npm test could not run: ${err instanceof Error ? err.stack : String(err)}`);
    return finish(1);
  });
