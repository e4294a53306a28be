/**
 * `npm start`: builds what is stale, starts PostgreSQL (DATABASE_URL or embedded) and NATS
 * (NATS_URL, a local server, or nats-server started here), starts every service and the
 * gateway (each service migrates its own schema), seeds demo data once, prints the URL.
 * E-mail goes to SMTP_URL, or (unset) to an embedded mail catcher whose web inbox it prints.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase } from '@dme/platform';
import { ensureNats, MissingPrerequisite, startEmbeddedPostgres, withDatabase, type PostgresHandle } from './lib/infra';
import { mailEnv, startMailCatcher, type MailCatcher } from './lib/mail-catcher';
import { startStack } from './lib/stack';
import { DEFAULT_DEMO_PASSWORD, seed } from './lib/seed';
import { DEMO_ACCOUNTS } from '@dme/identity/seed';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const dataDir = resolve(process.env.DATA_DIR ?? join(root, '.data'));
const log = (m: string) => console.log(m);

async function main() {
  if (process.env.SKIP_BUILD !== 'true') {
    log('Building the services, the gateway and the web apps (turbo skips what is up to date)...');
    const r = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('The build failed (see above).');
  }

  const gatewayPort = Number(process.env.PORT ?? 8080);
  // Before the database: a taken port stops the start with one line, with nothing else to undo.
  const catcher = process.env.SMTP_URL ? undefined : await startCatcher();
  const smtpUrl = catcher?.smtpUrl ?? process.env.SMTP_URL!;

  let pgHandle: PostgresHandle | undefined;
  let databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    log('PostgreSQL: DATABASE_URL');
  } else {
    const port = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
    pgHandle = await startEmbeddedPostgres(join(dataDir, 'pg'), port, log);
    databaseUrl = withDatabase(pgHandle.serverUrl, 'dme');
  }
  await ensureDatabase(databaseUrl);
  const nats = await ensureNats(dataDir, log);

  const uploadDir = resolve(process.env.UPLOAD_DIR ?? join(dataDir, 'uploads'));
  const stack = await startStack({
    root,
    databaseUrl,
    natsUrl: nats.url,
    gatewayPort,
    servicePortBase: Number(process.env.SERVICE_PORT_BASE ?? 4100),
    internalToken: process.env.INTERNAL_TOKEN ?? randomBytes(24).toString('hex'),
    uploadDir,
    logLevel: process.env.LOG_LEVEL ?? 'info',
    printLevel: process.env.LOG_LEVEL === 'debug' ? 20 : 40,
    log,
    extraEnv: {
      ...passThrough(['SESSION_IDLE_MINUTES', 'SESSION_ABSOLUTE_HOURS', 'COOKIE_SECURE', 'SESSION_CACHE_SECONDS', 'LOGIN_MAX_FAILURES_PER_PAIR', 'LOGIN_MAX_PER_IP', 'LOGIN_WINDOW_MINUTES', 'LOGIN_DELAY_AFTER_FAILURES', 'LOGIN_DELAY_BASE_MS', 'LOGIN_DELAY_MAX_MS', 'REGISTER_MAX_PER_IP', 'UPLOAD_ANON_MAX_PER_IP', 'UPLOAD_MAX_BYTES', 'UPLOAD_ANON_MAX_BYTES', 'TRUST_PROXY', 'ALLOWED_ORIGINS', 'PRODUCT_LIST_CACHE_MS', 'REMINDER_TIME', 'REMINDER_EVERY_MS', 'RESET_TOKEN_MINUTES', 'VERIFY_TOKEN_HOURS', 'ACCOUNT_MAIL_MAX_PER_HOUR']),
      ...mailEnv(smtpUrl, process.env.PUBLIC_URL ?? `http://localhost:${gatewayPort}`),
    },
  });

  const demo = process.env.SEED_DEMO !== 'false';
  const demoPassword = process.env.DEMO_PASSWORD ?? DEFAULT_DEMO_PASSWORD;
  const admin = process.env.ADMIN_USERNAME && process.env.ADMIN_PASSWORD ? { username: process.env.ADMIN_USERNAME, password: process.env.ADMIN_PASSWORD } : undefined;
  const created = await seed({ databaseUrl, demo, demoPassword, ...(admin ? { admin } : {}) });
  if (created.length) log(`Seeded: ${created.join(', ')}`);

  log('');
  log(`DME shop is running at ${stack.url}`);
  log(`API docs: ${stack.url}/api/docs`);
  if (demo) {
    log(`Demo accounts (password: ${process.env.DEMO_PASSWORD ? '$DEMO_PASSWORD' : DEFAULT_DEMO_PASSWORD}):`);
    for (const a of DEMO_ACCOUNTS) log(`  ${a.username.padEnd(16)} ${a.userType}`);
  }
  if (catcher) log(`Mail inbox (every e-mail the demo sends): ${catcher.inboxUrl}`);
  else log(`E-mail: sent through ${smtpHost(smtpUrl)}`);
  log('Press Ctrl-C to stop.');

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    log('\nStopping...');
    await stack.stop();
    await catcher?.stop();
    await nats.stop();
    await pgHandle?.stop();
    log('Stopped. Data is kept in .data/.');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

/** The embedded mail catcher on MAIL_SMTP_PORT / MAIL_INBOX_PORT (2525 / 8025). */
async function startCatcher(): Promise<MailCatcher> {
  const smtpPort = Number(process.env.MAIL_SMTP_PORT ?? 2525);
  const httpPort = Number(process.env.MAIL_INBOX_PORT ?? 8025);
  try {
    return await startMailCatcher({ smtpPort, httpPort });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    const port = (err as { port?: number }).port ?? `${smtpPort} or ${httpPort}`;
    throw new MissingPrerequisite(
      `The mail catcher cannot listen: port ${port} is taken on 127.0.0.1 (is another \`npm start\` running?). Set MAIL_SMTP_PORT and MAIL_INBOX_PORT to free ports, or SMTP_URL to send through your own SMTP server.`,
    );
  }
}

/** Where mail goes, without the credentials an SMTP_URL may carry. */
function smtpHost(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}`;
  } catch {
    return 'SMTP_URL (not a valid URL)';
  }
}

function passThrough(names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) if (process.env[n] !== undefined) out[n] = process.env[n]!;
  return out;
}

main().catch((err) => {
  if (err instanceof MissingPrerequisite) console.error(err.message);
  else console.error(`npm start failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
