import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  canConnectPg,
  findBinary,
  MissingPrerequisite,
  NATS_INSTALL_HINT,
  portOpen,
  startEmbeddedPostgres,
  startNatsServer,
  type NatsHandle,
  type PostgresHandle,
  withDatabase,
} from './infra';
import { dropDatabase, ensureDatabase } from '@dme/platform';
import { freePort } from '@dme/testing';
import { mailEnv, startMailCatcher } from './mail-catcher';
import { startStack, type RunningStack } from './stack';
import { DEFAULT_DEMO_PASSWORD, seed } from './seed';

export { freePort };

export async function freeRange(start: number, size: number): Promise<number> {
  for (let base = start; base < start + 2000; base += 100) {
    const taken = await Promise.all(Array.from({ length: size }, (_, i) => portOpen(base + i + 1, '127.0.0.1', 200)));
    if (!taken.some(Boolean)) return base;
  }
  throw new Error('No free port range for the services');
}

export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? findBinary('chromium', ['/usr/bin/chromium', '/usr/bin/chromium-browser']);
  if (!path || !existsSync(path)) {
    throw new MissingPrerequisite('Chromium is missing: install it with `apt-get install -y chromium` (as root), or set CHROMIUM_PATH.');
  }
  return path;
}

export async function testPostgres(root: string, log: (m: string) => void): Promise<PostgresHandle> {
  if (process.env.TEST_DATABASE_URL) return { serverUrl: process.env.TEST_DATABASE_URL, kind: 'external', stop: async () => undefined };
  const system = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (await canConnectPg(system)) {
    log('PostgreSQL: the local server on 127.0.0.1:5432');
    return { serverUrl: system, kind: 'system', stop: async () => undefined };
  }
  return startEmbeddedPostgres(join(root, '.data', 'test-pg'), Number(process.env.TEST_EMBEDDED_PG_PORT ?? 54339), log);
}

export async function testNats(log: (m: string) => void): Promise<NatsHandle> {
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


export interface TestStack {
  url: string;
  databaseUrl: string;
  serviceUrls: RunningStack['serviceUrls'];
  internalToken: string;
  /** The stack's own mail catcher: its web inbox, and the JSON API under /api/messages. */
  mailUrl: string;
  stop: () => Promise<void>;
}

/**
 * The whole product as `npm start` runs it, on a fresh database and free ports, with the demo
 * accounts seeded and a mail catcher of its own (every e-mail the stack sends lands there);
 * stop() removes the database and uploads again.
 */
export async function startTestStack(root: string, pgServerUrl: string, natsUrl: string, log: (m: string) => void, env: Record<string, string> = {}): Promise<TestStack> {
  const dbName = `dme_e2e_${randomBytes(4).toString('hex')}`;
  const databaseUrl = withDatabase(pgServerUrl, dbName);
  // Ports 0: the catcher binds free ports itself (no window in which another process takes them).
  const mail = await startMailCatcher({ smtpPort: 0, httpPort: 0 });
  await ensureDatabase(databaseUrl).catch(async (err: unknown) => {
    await mail.stop();
    throw err;
  });
  const uploadDir = join(tmpdir(), `${dbName}-uploads`);
  const gatewayPort = await freePort();
  const internalToken = randomBytes(24).toString('hex');
  const url = `http://localhost:${gatewayPort}`;
  const cleanup = async () => {
    await mail.stop().catch(() => undefined);
    await dropDatabase(databaseUrl).catch(() => undefined);
    rmSync(uploadDir, { recursive: true, force: true });
  };
  let stack: RunningStack;
  try {
    stack = await startStack({
      root,
      databaseUrl,
      natsUrl,
      gatewayPort,
      gatewayHost: '127.0.0.1',
      servicePortBase: await freeRange(4300, 5),
      internalToken,
      uploadDir,
      logLevel: 'warn',
      printLevel: 50,
      log: (l) => log(`  ${l}`),
      // Reminders at any hour, looked for every 2 s: a journey that moves a rental's due date sees its reminder.
      extraEnv: { ...mailEnv(mail.smtpUrl, url), REMINDER_TIME: '00:00', REMINDER_EVERY_MS: '2000', LOGIN_MAX_PER_IP: '100000', REGISTER_MAX_PER_IP: '100000', UPLOAD_ANON_MAX_PER_IP: '100000', ...env },
    });
    await seed({ databaseUrl, demo: true, demoPassword: DEFAULT_DEMO_PASSWORD });
  } catch (err) {
    await cleanup();
    throw err;
  }
  return {
    url,
    databaseUrl,
    serviceUrls: stack.serviceUrls,
    internalToken,
    mailUrl: mail.inboxUrl,
    stop: async () => {
      await stack.stop();
      await cleanup();
    },
  };
}
