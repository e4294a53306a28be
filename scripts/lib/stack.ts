import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import type { BlobStore } from '@dme/platform';
import { join } from 'node:path';
import { SERVICES, type ServiceName } from '@dme/contracts';
import { waitFor } from './infra';
import { avatarPng } from './png';

const SERVICE_OFFSET: Record<ServiceName, number> = { identity: 1, catalog: 2, order: 3, payment: 4, reporting: 5 };

/**
 * Node flags per process (the Docker images' CMDs run the same, deploy.test.ts checks). A flag set
 * from inside the process has no effect.
 * - Reporting: a small young generation, so the Excel writer's short-lived garbage is collected
 *   early (a 100,000-row export peaks at ~185 MB RSS instead of ~265 MB; DESIGN §12 budget < 200 MB).
 * - The others: a larger one (32 MB semi-spaces, V8's default is 16): a request's garbage dies
 *   young, and fewer scavenges of a larger space cost less. Through the checkout bench the
 *   collector's share of each process's busy time fell from 6–9% to 4–7% (docs/benchmarks.md,
 *   twenty-ninth session), for at most 48 MB more memory a process.
 */
const NODE_FLAGS: Partial<Record<string, string[]>> = {
  reporting: ['--max-semi-space-size=4'],
  ...Object.fromEntries(['identity', 'catalog', 'order', 'payment', 'gateway'].map((name) => [name, ['--max-semi-space-size=32']])),
};

export interface StackOptions {
  root: string;
  databaseUrl: string;
  natsUrl: string;
  gatewayPort: number;
  gatewayHost?: string;
  /** identity listens on base+1, catalog on base+2, ... */
  servicePortBase: number;
  internalToken: string;
  uploadDir: string;
  logLevel?: string;
  /** Extra environment for every process (e.g. relaxed rate limits in tests). */
  extraEnv?: Record<string, string>;
  /** Receives one formatted line per log record. */
  log: (line: string) => void;
  /** Lowest pino level printed (30 = info, 40 = warn). */
  printLevel?: number;
}

export interface RunningStack {
  url: string;
  serviceUrls: Partial<Record<ServiceName, string>>;
  stop: () => Promise<void>;
}

/** The services that exist in this checkout (a service appears once its main.ts does). */
export function presentServices(root: string): ServiceName[] {
  return SERVICES.filter((s) => existsSync(join(root, 'services', s, 'src', 'main.ts')));
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

export function pipeLogs(child: ChildProcess, name: string, opts: Pick<StackOptions, 'log' | 'printLevel'>, tail: string[]): void {
  const onData = (stream: 'out' | 'err') => {
    let buffer = '';
    return (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
        let level = stream === 'err' ? 50 : 30;
        let text = line;
        try {
          const rec = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string }; method?: string; path?: string };
          level = rec.level ?? level;
          const where = rec.method && rec.path ? ` [${rec.method} ${rec.path}]` : '';
          text = `${LEVELS[level] ?? level} ${rec.msg ?? ''}${where}${rec.err?.message ? ` (${rec.err.message})` : ''}`;
        } catch {
          /* not JSON: print as is */
        }
        if (level >= (opts.printLevel ?? 30)) opts.log(`[${name}] ${text}`);
      }
    };
  };
  child.stdout?.on('data', onData('out'));
  child.stderr?.on('data', onData('err'));
}

/** The process answers /health/ready (its database and NATS are reachable); with `pid`, that process itself. */
export async function ready(url: string, pid?: number): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(3000) });
    if (!res.ok) return false;
    // Another process on the address (a port taken by something else) is not the one started.
    return pid === undefined || ((await res.json()) as { pid?: number }).pid === pid;
  } catch {
    return false;
  }
}

/** The environment every process of the stack starts with (scripts/lib/replicas.ts starts replicas with it too). */
export function processEnv(opts: Pick<StackOptions, 'logLevel' | 'databaseUrl' | 'natsUrl' | 'internalToken' | 'uploadDir' | 'extraEnv'>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'production',
    LOG_LEVEL: opts.logLevel ?? 'info',
    DATABASE_URL: opts.databaseUrl,
    NATS_URL: opts.natsUrl,
    // Two stacks (two developers) on one NATS server stay apart with different prefixes.
    ...(process.env.NATS_PREFIX ? { NATS_PREFIX: process.env.NATS_PREFIX } : {}),
    INTERNAL_TOKEN: opts.internalToken,
    UPLOAD_DIR: opts.uploadDir,
    ...opts.extraEnv,
  };
}

/**
 * How node runs a process of the stack (from its package folder): its built JavaScript
 * (`npm run build` → dist/main.js, scripts/build-node.mjs), stack traces mapped to the sources.
 */
export function nodeArgs(name: string): string[] {
  return [...(NODE_FLAGS[name] ?? []), '--enable-source-maps', 'dist/main.js'];
}

/**
 * Restart delays after a crash: the first at once (a process killed once is answering again in
 * about its start time, issue 30), then 250 ms doubling up to 10 s while it keeps crashing; a
 * process up for 30 s starts over.
 */
export function restartDelay(crashesInARow: number): number {
  if (crashesInARow <= 1) return 0;
  return Math.min(10_000, 250 * 2 ** (crashesInARow - 2));
}
const STABLE_MS = 30_000;

interface Supervised {
  name: string;
  child: ChildProcess;
  tail: string[];
}

/**
 * Starts every present service and then the gateway, each as its own process, and supervises
 * them: a process that exits while the stack runs is started again with backoff, with a log line
 * naming it and how it ended. Meanwhile the gateway answers 503 for that service.
 */
export async function startStack(opts: StackOptions): Promise<RunningStack> {
  const supervised = new Map<string, Supervised>();
  const serviceUrls: Partial<Record<ServiceName, string>> = {};
  let stopping = false;
  const commonEnv = processEnv(opts);
  const spawnOne = (name: string, cwd: string, env: Record<string, string>, crashes = 0): Supervised => {
    const child = spawn(process.execPath, nodeArgs(name), {
      cwd,
      env: { ...commonEnv, ...env, EXIT_WITH_PARENT: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const tail: string[] = [];
    pipeLogs(child, name, opts, tail);
    const entry = { name, child, tail };
    supervised.set(name, entry);
    const startedAt = Date.now();
    child.once('exit', (code, signal) => {
      if (stopping || supervised.get(name) !== entry) return;
      const inARow = Date.now() - startedAt > STABLE_MS ? 1 : crashes + 1;
      const delay = restartDelay(inARow);
      const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      opts.log(`[launcher] ${name} ${how}; restarting it in ${(delay / 1000).toFixed(2)} s`);
      const timer = setTimeout(() => {
        if (stopping) return;
        const again = spawnOne(name, cwd, env, inARow);
        again.child.once('spawn', () => opts.log(`[launcher] ${name} restarted (pid ${again.child.pid})`));
      }, delay);
      timer.unref();
    });
    return entry;
  };
  const stop = async () => {
    stopping = true;
    await Promise.all(
      [...supervised.values()].reverse().map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 5000).unref();
          }),
      ),
    );
  };
  const started = async (name: string, url: string, { child, tail }: Supervised) => {
    let exited = false;
    child.once('exit', () => (exited = true));
    await waitFor(async () => {
      if (exited) throw new Error(`${name} exited during start:\n${tail.slice(-15).join('\n')}`);
      return ready(url, child.pid);
    }, 60_000, `${name} at ${url}`);
  };

  try {
    mkdirSync(opts.uploadDir, { recursive: true });
    const launched = presentServices(opts.root).map((name) => {
      const port = opts.servicePortBase + SERVICE_OFFSET[name];
      const url = `http://127.0.0.1:${port}`;
      serviceUrls[name] = url;
      return started(name, url, spawnOne(name, join(opts.root, 'services', name), { PORT: String(port), HOST: '127.0.0.1' }));
    });
    await Promise.all(launched);
    const gatewayEnv: Record<string, string> = {
      PORT: String(opts.gatewayPort),
      HOST: opts.gatewayHost ?? '0.0.0.0',
      STATIC_ROOT: opts.root,
    };
    for (const s of SERVICES) {
      gatewayEnv[`${s.toUpperCase()}_URL`] = `http://127.0.0.1:${opts.servicePortBase + SERVICE_OFFSET[s]}`;
    }
    const gw = spawnOne('gateway', join(opts.root, 'gateway'), gatewayEnv);
    const url = `http://localhost:${opts.gatewayPort}`;
    await started('gateway', `http://127.0.0.1:${opts.gatewayPort}`, gw);
    return { url, serviceUrls, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * A stable uploaded-image path for a seeded record (same name every run: idempotent), stored in
 * the catalog's upload store; the picture is drawn only when it is not stored yet.
 */
export async function seedImage(blobs: BlobStore, key: string, png: () => Buffer | Promise<Buffer>): Promise<string> {
  const name = `${createHash('sha256').update(`seed:${key}`).digest('hex').slice(0, 32)}.png`;
  if ((await blobs.missing([name])).length) await blobs.put(name, 'image/png', await png());
  return `/api/uploads/${name}`;
}

export function avatarFor(blobs: BlobStore, username: string): Promise<string> {
  const hue = parseInt(createHash('md5').update(username).digest('hex').slice(0, 4), 16) % 360;
  return seedImage(blobs, `avatar:${username}`, () => avatarPng(hue));
}
