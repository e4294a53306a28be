/**
 * The replicated stack for this suite: a fresh database on the test PostgreSQL, a NATS server of
 * its own (or TEST_NATS_URL) with a NATS prefix of its own (its own streams and consumers), two
 * replicas of every service and of the gateway behind balancers (scripts/lib/replicas.ts), the
 * demo accounts seeded.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropDatabase, ensureDatabase } from '@dme/platform';
import { withDatabase } from '../../../scripts/lib/infra';
import { startReplicas, type ReplicaStack } from '../../../scripts/lib/replicas';
import { DEFAULT_DEMO_PASSWORD, seed } from '../../../scripts/lib/seed';
import { testNats, testPostgres } from '../../../scripts/lib/testenv';

export const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

export interface Harness {
  stack: ReplicaStack;
  databaseUrl: string;
  natsUrl: string;
  natsPrefix: string;
  demoPassword: string;
  stop(): Promise<void>;
}

export async function startHarness(log: (m: string) => void): Promise<Harness> {
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };
  try {
    const pg = await testPostgres(root, log);
    cleanups.push(() => pg.stop());
    const nats = await testNats(log);
    cleanups.push(() => nats.stop());
    const dbName = `dme_replicas_${randomBytes(4).toString('hex')}`;
    const databaseUrl = withDatabase(pg.serverUrl, dbName);
    await ensureDatabase(databaseUrl);
    const uploadDir = join(tmpdir(), `${dbName}-uploads`);
    cleanups.push(async () => {
      await dropDatabase(databaseUrl);
      rmSync(uploadDir, { recursive: true, force: true });
    });
    // Streams and consumers of this run only, even on a shared NATS server.
    const natsPrefix = `rep${randomBytes(3).toString('hex')}`;
    const stack = await startReplicas({
      root,
      databaseUrl,
      natsUrl: nats.url,
      internalToken: randomBytes(24).toString('hex'),
      uploadDir,
      logLevel: 'warn',
      printLevel: 50,
      log,
      extraEnv: {
        NATS_PREFIX: natsPrefix,
        // As behind a load balancer: on SIGTERM a process keeps serving for a second while its
        // readiness probe fails, so the balancers (probing every 250 ms) stop sending it new connections.
        SHUTDOWN_DRAIN_MS: '1000',
        LOGIN_MAX_PER_IP: '100000',
        REGISTER_MAX_PER_IP: '100000',
        UPLOAD_ANON_MAX_PER_IP: '100000',
      },
    });
    cleanups.push(() => stack.stop());
    await seed({ databaseUrl, demo: true, demoPassword: DEFAULT_DEMO_PASSWORD });
    return { stack, databaseUrl, natsUrl: nats.url, natsPrefix, demoPassword: DEFAULT_DEMO_PASSWORD, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
