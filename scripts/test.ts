/**
 * `npm test`: every suite (unit, service tests on real PostgreSQL and NATS, Playwright end to
 * end in Debian's Chromium against the real stack). It finds or starts what it needs and says in
 * one line what is missing. Ends with "N passed, M failed".
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MissingPrerequisite } from './lib/infra';
import { chromiumPath, startTestStack, testNats, testPostgres } from './lib/testenv';
import { DEFAULT_DEMO_PASSWORD } from './lib/seed';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const resultsDir = join(root, '.data', 'test-results');
const log = (m: string) => console.log(m);

interface SuiteResult {
  suite: string;
  passed: number;
  failed: number;
  /** What failed, briefly: printed again above the summary, at the end of the output CI keeps. */
  problems?: string[];
}
const results: SuiteResult[] = [];
const cleanups: Array<() => Promise<void>> = [];

function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

function readVitest(file: string, suite: string): SuiteResult {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as {
      success?: boolean;
      numPassedTests: number;
      numFailedTests: number;
      numTotalTests: number;
      testResults?: Array<{ status: string; name?: string; message?: string; assertionResults?: Array<{ status: string; fullName?: string; failureMessages?: string[] }> }>;
    };
    // A test file that fails to load has no tests but counts as a failure; so does a run that
    // vitest calls unsuccessful for another reason (an unhandled error, e.g. a crash in the code).
    const brokenFiles = (r.testResults ?? []).filter((f) => f.status === 'failed').length;
    const failed = Math.max(r.numFailedTests, r.numFailedTests === 0 ? brokenFiles : 0);
    const problems: string[] = [];
    for (const f of r.testResults ?? []) {
      const where = f.name ? f.name.replace(`${root}/`, '') : 'a test file';
      if (f.status === 'failed' && f.message) problems.push(`${where}: ${brief(f.message)}`);
      for (const t of f.assertionResults ?? []) {
        if (t.status === 'failed') problems.push(`${where} › ${t.fullName ?? '?'}: ${brief(t.failureMessages?.[0] ?? '')}`);
      }
    }
    if (failed === 0 && r.success === false) problems.push('vitest ended unsuccessfully with no failed test (an unhandled error: see its output above)');
    return { suite, passed: r.numPassedTests, failed: failed === 0 && r.success === false ? 1 : failed, problems };
  } catch {
    return { suite, passed: 0, failed: 1, problems: [`no report at ${file}: vitest ended before writing it (see its output above)`] };
  }
}

/** The first lines of a failure message, without terminal colours. */
function brief(message: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = message.replace(/\u001b\[[0-9;]*m/g, '');
  // vitest gives a test or hook past its timeout the stack it captured when it was declared,
  // whose first line is "Error: STACK_TRACE_ERROR": say what it means.
  const named = plain.replace(/^Error: STACK_TRACE_ERROR/, 'timed out (the test or hook ran past its timeout)');
  const lines = named.split('\n').filter((l) => l.trim() && !l.includes('node_modules') && !l.includes('(<anonymous>)'));
  return lines.slice(0, 6).join('\n    ');
}

/** Runs one vitest suite (the root config without `config`) and records its result. */
async function runVitest(results: SuiteResult[], suite: string, file: string, config: string | undefined, env: Record<string, string>): Promise<void> {
  const out = join(resultsDir, file);
  rmSync(out, { force: true });
  await run('npx', ['vitest', 'run', ...(config ? ['-c', config] : []), '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], env);
  results.push(readVitest(out, suite));
}

interface PwSuite {
  title?: string;
  file?: string;
  suites?: PwSuite[];
  specs?: Array<{ title: string; file?: string; line?: number; ok?: boolean; tests?: Array<{ status?: string; results?: Array<{ error?: { message?: string } }> }> }>;
}

function readPlaywright(file: string): SuiteResult {
  const suite = 'end-to-end (Playwright, Chromium)';
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number }; errors?: Array<{ message?: string }>; suites?: PwSuite[] };
    const problems = (r.errors ?? []).map((e) => brief(e.message ?? 'an error outside the tests'));
    const walk = (s: PwSuite) => {
      for (const spec of s.specs ?? []) {
        const bad = (spec.tests ?? []).filter((t) => t.status === 'unexpected');
        for (const t of bad) problems.push(`${spec.file ?? s.file ?? ''}:${spec.line ?? ''} ${spec.title}: ${brief(t.results?.at(-1)?.error?.message ?? '')}`);
      }
      for (const child of s.suites ?? []) walk(child);
    };
    for (const s of r.suites ?? []) walk(s);
    return { suite, passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected + (r.errors?.length ?? 0), problems };
  } catch {
    return { suite, passed: 0, failed: 1, problems: [`no report at ${file}: Playwright ended before writing it (see its output above)`] };
  }
}

/**
 * A failed Playwright test leaves the page as the browser saw it (error-context.md: its
 * accessibility snapshot, with any notification on screen). CI keeps only this output, so the
 * snapshot of each failure is printed here, where a flaky failure can still be read afterwards.
 */
function printFailureContexts(dir: string): void {
  if (!existsSync(dir)) return;
  for (const test of readdirSync(dir)) {
    const network = join(dir, test, 'network.txt');
    if (existsSync(network)) log(`\n== network trouble during: ${test} ==\n${readFileSync(network, 'utf8').split('\n').slice(-60).join('\n')}`);
    const file = join(dir, test, 'error-context.md');
    if (!existsSync(file)) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    log(`\n== page at the failure: ${test} ==\n${lines.slice(0, 150).join('\n')}${lines.length > 150 ? `\n... (${lines.length - 150} more lines)` : ''}`);
  }
}

async function main(): Promise<void> {
  const only = process.argv.slice(2); // e.g. `npm test -- e2e`, `npm test -- unit`, `npm test -- api` or `npm test -- replicas`
  const want = (s: string) => only.length === 0 || only.includes(s);
  mkdirSync(resultsDir, { recursive: true });

  const chromium = want('e2e') ? chromiumPath() : '';
  const pgHandle = await testPostgres(root, log);
  cleanups.push(() => pgHandle.stop());
  const nats = await testNats(log);
  cleanups.push(() => nats.stop());

  if (want('static')) {
    log('\n== typecheck ==');
    const code = (await run('npx', ['turbo', 'run', 'typecheck', '--output-logs=errors-only'])) || (await run('npx', ['tsc', '-p', 'scripts'])) || (await run('npx', ['tsc', '-p', 'deploy']));
    results.push({ suite: 'typecheck', passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 });
    log('\n== lint (oxlint: import boundaries of DESIGN §3, no-explicit-any) ==');
    const lint = await run('npx', ['oxlint', '--deny-warnings']);
    results.push({ suite: 'lint', passed: lint === 0 ? 1 : 0, failed: lint === 0 ? 0 : 1 });
  }

  if (want('unit')) {
    log('\n== unit + service tests (vitest) ==');
    await runVitest(results, 'unit + service (vitest)', 'vitest.json', undefined, { TEST_DATABASE_URL: pgHandle.serverUrl, TEST_NATS_URL: nats.url, LOG_LEVEL: 'silent' });
  }

  // The processes run as built JavaScript (dist/main.js): the replicas, the system suite and
  // Playwright need the build (turbo rebuilds only what changed).
  let built = false;
  if (want('replicas') || want('api') || want('e2e')) {
    log('\n== build ==');
    built = (await run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'])) === 0;
    if (!built) results.push({ suite: 'build', passed: 0, failed: 1 });
  }

  if (want('replicas') && built) {
    // Issue 14: two replicas of every process on a fresh database and NATS streams of its own
    // (a random NATS_PREFIX), under a burst of 1,000 orders, then kill -9 and SIGTERM mid-burst.
    log('\n== replicas: two of every process, bursts, kill -9 and SIGTERM (vitest) ==');
    await runVitest(results, 'replicas (two of every process)', 'replicas.json', 'e2e/replicas/vitest.config.ts', { TEST_DATABASE_URL: pgHandle.serverUrl, TEST_NATS_URL: nats.url });
  }

  // The system suite (api) and Playwright (e2e) share one started stack.
  const wantApi = want('api');
  const wantE2e = want('e2e');
  if ((wantApi || wantE2e) && built) {
    log('\n== starting the stack (fresh database, demo accounts) ==');
    // A NATS of its own: the unit stage's service tests publish onto the real event stream, and a
    // stack started on the same server would replay them (a payment for every order they placed).
    const stackNats = await testNats(log);
    cleanups.push(() => stackNats.stop());
    const stack = await startTestStack(root, pgHandle.serverUrl, stackNats.url, log);
    try {
      if (wantApi) {
        log('\n== system: fuzz, recovery, limits (vitest, against the started stack) ==');
        await runVitest(results, 'system (fuzz, recovery, limits)', 'api.json', 'e2e/api/vitest.config.ts', {
          E2E_BASE_URL: stack.url,
          E2E_MAIL_URL: stack.mailUrl,
          E2E_DATABASE_URL: stack.databaseUrl,
          E2E_SERVICE_URLS: JSON.stringify(stack.serviceUrls),
          E2E_INTERNAL_TOKEN: stack.internalToken,
          E2E_DEMO_PASSWORD: DEFAULT_DEMO_PASSWORD,
          E2E_ROOT: root,
          E2E_NATS_URL: stackNats.url,
        });
      }
      if (wantE2e) {
        log('\n== end-to-end (Playwright in Chromium, against the started stack) ==');
        const out = join(resultsDir, 'playwright.json');
        rmSync(out, { force: true });
        // E2E_ONLY=rental.spec.ts runs one spec file (while working on it); CI runs them all.
        const onlySpecs = process.env.E2E_ONLY ? process.env.E2E_ONLY.split(',') : [];
        await run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...onlySpecs], {
          E2E_BASE_URL: stack.url,
          E2E_MAIL_URL: stack.mailUrl,
          E2E_DEMO_PASSWORD: DEFAULT_DEMO_PASSWORD,
          // The rental journey moves a delivered time back instead of waiting days.
          E2E_DATABASE_URL: stack.databaseUrl,
          CHROMIUM_PATH: chromium,
          PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        });
        const e2e = readPlaywright(out);
        if (e2e.failed > 0) printFailureContexts(join(resultsDir, 'playwright'));
        results.push(e2e);
      }
    } finally {
      await stack.stop();
    }
  }
}

async function finish(code: number): Promise<never> {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  const problems = results.flatMap((r) => (r.problems ?? []).map((p) => `[${r.suite}] ${p}`));
  if (problems.length) {
    log('\n== what failed ==');
    for (const p of problems.slice(0, 20)) log(`- ${p}`);
    if (problems.length > 20) log(`... and ${problems.length - 20} more (above)`);
  }
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
