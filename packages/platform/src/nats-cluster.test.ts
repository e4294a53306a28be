import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats, ensureDeadLetterStream, ensureEventStream, namesOf, type NatsConnection } from './nats';
import { serviceEnv } from './config';

/**
 * The three-node JetStream cluster of deploy/ (issue 14): with NATS_STREAM_REPLICAS=3 the event and
 * dead-letter streams are kept on all three nodes, so losing one loses no event. Runs three real
 * nats-server processes (the binary `npm test` makes sure of) clustered on free ports.
 */
const BINARY = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const nodes: ChildProcess[] = [];
let dir: string;
let nc: NatsConnection;

beforeAll(async () => {
  if (!BINARY) throw new Error('nats-server is not installed (apt-get install -y nats-server): this test runs a three-node cluster');
  dir = mkdtempSync(join(tmpdir(), 'nats-cluster-'));
  const client = await Promise.all([0, 1, 2].map(() => freePort()));
  const cluster = await Promise.all([0, 1, 2].map(() => freePort()));
  const routes = cluster.map((p) => `nats://127.0.0.1:${p}`).join(',');
  for (const i of [0, 1, 2]) {
    const args = ['-a', '127.0.0.1', '-p', String(client[i]), '-js', '-sd', join(dir, `n${i}`), '-n', `n${i}`, '--cluster_name', 'dme-test', '--cluster', `nats://127.0.0.1:${cluster[i]}`, '--routes', routes];
    nodes.push(spawn(BINARY, args, { stdio: 'ignore' }));
  }
  // The servers take a moment to listen (a first connection attempt before that is refused).
  const deadline = Date.now() + 30_000;
  for (const port of client) {
    while (!(await listening(port))) {
      if (Date.now() > deadline) throw new Error(`nats-server on port ${port} did not start`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  nc = await connectNats(client.map((p) => `nats://127.0.0.1:${p}`).join(','), 'cluster-test', { prefix: 'clustertest', streamReplicas: 3 });
  // The cluster elects its JetStream meta leader a moment after the nodes find each other.
  for (;;) {
    try {
      await (await jetstreamManager(nc, { timeout: 2000 })).getAccountInfo();
      break;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}, 45_000);

afterAll(async () => {
  await nc?.close();
  for (const n of nodes) n.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('streams on a three-node JetStream cluster', () => {
  it('NATS_STREAM_REPLICAS is read as a number from 1 to 5 (1 by default)', () => {
    expect(serviceEnv.NATS_STREAM_REPLICAS.parse(undefined)).toBe(1);
    expect(serviceEnv.NATS_STREAM_REPLICAS.parse('3')).toBe(3);
    expect(serviceEnv.NATS_STREAM_REPLICAS.safeParse('0').success).toBe(false);
    expect(serviceEnv.NATS_STREAM_REPLICAS.safeParse('three').success).toBe(false);
  });

  it('keeps the event and dead-letter streams on all three nodes', async () => {
    const names = namesOf(nc);
    // A three-copy stream needs all three nodes in the cluster: until the last has joined, the
    // server answers "insufficient resources" (a service would be restarted and try again).
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        await ensureEventStream(nc);
        await ensureDeadLetterStream(nc);
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    const jsm = await jetstreamManager(nc);
    for (const stream of [names.eventStream, names.deadLetterStream]) {
      const info = await jsm.streams.info(stream);
      expect(info.config.num_replicas).toBe(3);
      // The leader and two replicas, on three different nodes.
      const where = [info.cluster?.leader, ...(info.cluster?.replicas ?? []).map((r) => r.name)];
      expect(new Set(where).size).toBe(3);
    }
    // Starting again (every replica of every service does) keeps it so.
    await ensureEventStream(nc);
    expect((await jsm.streams.info(names.eventStream)).config.num_replicas).toBe(3);
  }, 30_000);
});
