/**
 * The product run as replicas on one machine (issue 14): N processes of every service and of the
 * gateway, sharing one PostgreSQL database and one NATS server, as a deployment runs them: each
 * service's replicas behind a balancer (round robin over the replicas whose readiness probe
 * answers, like a Kubernetes Service), the gateways given the balancers' URLs, and one more
 * balancer in front of the gateways (the shop's address, like an ingress or a cloud load
 * balancer). Each replica's own address is kept too, for tests that pick one.
 *
 * The system tests in e2e/replicas kill and signal single replicas; nothing restarts a replica on
 * its own (a test does, with restart()).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { SERVICES, type ServiceName } from '@dme/contracts';
import { freePort } from '@dme/testing';
import { waitFor } from './infra';
import { mailEnv, startMailCatcher, type MailCatcher } from './mail-catcher';
import { nodeArgs, pipeLogs, presentServices, processEnv, ready, type StackOptions } from './stack';

export type ProcessName = ServiceName | 'gateway';

export interface ReplicaOptions extends Pick<StackOptions, 'root' | 'databaseUrl' | 'natsUrl' | 'internalToken' | 'uploadDir' | 'logLevel' | 'extraEnv' | 'log' | 'printLevel'> {
  /** Replicas of every service and of the gateway (default 2). */
  replicas?: number;
}

export interface Replica {
  name: ProcessName;
  index: number;
  /** The replica's own address (not through a balancer). */
  url: string;
  pid(): number | undefined;
  /** Still running (not exited since its last start). */
  alive(): boolean;
  /** Sends a signal; resolves when the process has exited (how it ended). */
  signal(sig: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Starts it again on the same port (after it exited) and waits until it is ready. */
  restart(): Promise<void>;
  /** Its last log lines, for failure messages. */
  tail: string[];
}

export interface ReplicaStack {
  /** The balancer in front of the gateways: the shop's address. */
  url: string;
  /** Each gateway replica's own URL, in replica order. */
  gateways: string[];
  /** The balancer in front of each service's replicas. */
  serviceUrls: Partial<Record<ServiceName, string>>;
  replicas: Replica[];
  replica(name: ProcessName, index: number): Replica;
  /** Connections each balancer has forwarded to each replica so far (by process name, in replica order). */
  forwarded(): Partial<Record<ProcessName, number[]>>;
  /** The web inbox of the mail catcher started for this stack (none when extraEnv gave SMTP_URL). */
  mailUrl?: string;
  stop(): Promise<void>;
}

/** A round-robin TCP balancer over backends that answer their readiness probe. */
export interface Balancer {
  url: string;
  /** Connections forwarded to each backend so far, in backend order. */
  forwarded: number[];
  close(): Promise<void>;
}

/** How often a balancer probes each backend's /health/ready. */
export const PROBE_INTERVAL_MS = 250;

/**
 * A balancer as a deployment puts in front of replicas (a Kubernetes Service with readiness
 * probes, an L4 load balancer with health checks): each accepted connection is forwarded, bytes
 * as they are, to the next backend whose /health/ready answered 200 at its last probe; a backend
 * that refuses the connection is passed over for the next one. A process that stops answers 503
 * there while it still serves, so new connections go elsewhere before its listener closes.
 */
export async function startBalancer(backends: number[]): Promise<Balancer> {
  let next = 0;
  const up = backends.map(() => true);
  const forwarded = backends.map(() => 0);
  const sockets = new Set<net.Socket>();
  let closed = false;
  const probe = (i: number) => {
    const req = http.get({ host: '127.0.0.1', port: backends[i], path: '/health/ready', agent: false, timeout: 1000 }, (res) => {
      res.resume();
      up[i] = res.statusCode === 200;
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => (up[i] = false));
  };
  const prober = setInterval(() => backends.forEach((_, i) => probe(i)), PROBE_INTERVAL_MS);
  prober.unref();
  /** The order to try backends for a new connection: the ready ones first, from the next in turn. */
  const candidates = () => {
    const start = next++;
    const order = backends.map((_, k) => (start + k) % backends.length);
    return [...order.filter((i) => up[i]), ...order.filter((i) => !up[i])];
  };
  const server = net.createServer((front) => {
    sockets.add(front);
    front.on('close', () => sockets.delete(front));
    front.pause();
    const order = candidates();
    const attempt = (k: number) => {
      if (front.destroyed) return;
      if (k >= order.length) {
        // No replica accepts: the client sees its connection closed, as behind a real balancer.
        front.destroy();
        return;
      }
      const i = order[k]!;
      const back = net.connect({ port: backends[i]!, host: '127.0.0.1' });
      let connected = false;
      back.once('connect', () => {
        connected = true;
        forwarded[i]!++;
        sockets.add(back);
        back.on('close', () => sockets.delete(back));
        front.pipe(back);
        back.pipe(front);
        front.resume();
        // A side that ends ends the other (pipe); one that fails resets the other.
        back.on('error', () => front.destroy());
        front.on('error', () => back.destroy());
      });
      back.once('error', () => {
        if (connected) return;
        up[i] = false;
        attempt(k + 1);
      });
    };
    attempt(0);
  });
  // A port from freePort, not any (0): the kernel could hand a balancer a port already given to a
  // replica that has not bound it yet.
  const own = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(own, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        clearInterval(prober);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts `replicas` processes of every present service (each behind its balancer), then as many
 * gateways, on free ports, with the environment startStack gives its processes (and the mail
 * settings: a mail catcher of its own unless extraEnv names SMTP_URL, PUBLIC_URL the front
 * balancer). Resolves when every one of them is ready.
 */
export async function startReplicas(opts: ReplicaOptions): Promise<ReplicaStack> {
  const count = opts.replicas ?? 2;
  // Set once the front balancer (PUBLIC_URL) and the mail catcher are up, before any replica starts.
  let env: Record<string, string> = {};
  let catcher: MailCatcher | undefined;
  const all: Replica[] = [];
  const balancers: Balancer[] = [];
  let stopping = false;

  const makeReplica = (name: ProcessName, index: number, cwd: string, port: number, own: Record<string, string>): Replica => {
    const url = `http://127.0.0.1:${port}`;
    const tail: string[] = [];
    let child: ChildProcess | undefined;
    let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> = Promise.resolve({ code: null, signal: null });
    const label = `${name}#${index + 1}`;
    const launch = async () => {
      const c = spawn(process.execPath, nodeArgs(name), {
        cwd,
        env: { ...env, ...own, PORT: String(port), EXIT_WITH_PARENT: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      child = c;
      pipeLogs(c, label, opts, tail);
      exited = new Promise((resolve) => c.once('exit', (code, signal) => resolve({ code, signal })));
      void exited.then(({ code, signal }) => {
        if (!stopping) opts.log(`[replicas] ${label} ended (${signal ?? `code ${code}`})`);
      });
      await waitFor(async () => {
        if (c.exitCode !== null || c.signalCode !== null) throw new Error(`${label} exited during start:\n${tail.slice(-15).join('\n')}`);
        return ready(url, c.pid);
      }, 90_000, `${label} at ${url}`);
    };
    const replica: Replica = {
      name,
      index,
      url,
      tail,
      pid: () => child?.pid,
      alive: () => !!child && child.exitCode === null && child.signalCode === null,
      signal: async (sig) => {
        if (replica.alive()) child!.kill(sig);
        return exited;
      },
      restart: async () => {
        if (replica.alive()) throw new Error(`${label} is still running`);
        await launch();
      },
    };
    launchers.set(replica, launch);
    return replica;
  };
  const launchers = new Map<Replica, () => Promise<void>>();
  const launchAll = (list: Replica[]) => Promise.all(list.map((r) => launchers.get(r)!()));

  const stop = async () => {
    stopping = true;
    await Promise.all(
      all.map(async (r) => {
        if (!r.alive()) return;
        const timer = setTimeout(() => void r.signal('SIGKILL'), 10_000);
        await r.signal('SIGTERM');
        clearTimeout(timer);
      }),
    );
    await Promise.all(balancers.map((b) => b.close()));
    await catcher?.stop();
  };

  try {
    mkdirSync(opts.uploadDir, { recursive: true });
    const serviceUrls: Partial<Record<ServiceName, string>> = {};
    const byName: Partial<Record<ProcessName, Balancer>> = {};
    // The shop's address first: every process is told it (PUBLIC_URL, for the links in e-mails).
    // Until the gateways are ready its probes fail, and it forwards nothing.
    const gatewayPorts = await Promise.all(Array.from({ length: count }, () => freePort()));
    const front = await startBalancer(gatewayPorts);
    balancers.push(front);
    byName.gateway = front;
    if (!opts.extraEnv?.SMTP_URL) catcher = await startMailCatcher({ smtpPort: await freePort(), httpPort: await freePort() });
    env = processEnv({ ...opts, extraEnv: { ...mailEnv(catcher?.smtpUrl ?? opts.extraEnv!.SMTP_URL!, front.url), ...opts.extraEnv } });
    const services: Replica[] = [];
    for (const name of presentServices(opts.root)) {
      const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
      const balancer = await startBalancer(ports);
      balancers.push(balancer);
      byName[name] = balancer;
      serviceUrls[name] = balancer.url;
      ports.forEach((port, i) => services.push(makeReplica(name, i, join(opts.root, 'services', name), port, { HOST: '127.0.0.1' })));
    }
    all.push(...services);
    // The first replica of each service migrates its schema; the others wait on the migration
    // lock, so all start together.
    await launchAll(services);
    const unused = `http://127.0.0.1:${await freePort()}`;
    const gatewayEnv: Record<string, string> = { HOST: '127.0.0.1', STATIC_ROOT: opts.root };
    for (const s of SERVICES) gatewayEnv[`${s.toUpperCase()}_URL`] = serviceUrls[s] ?? unused;
    const gateways: Replica[] = [];
    gatewayPorts.forEach((port, i) => gateways.push(makeReplica('gateway', i, join(opts.root, 'gateway'), port, gatewayEnv)));
    all.push(...gateways);
    await launchAll(gateways);
    return {
      url: front.url,
      gateways: gateways.map((g) => g.url),
      serviceUrls,
      replicas: all,
      replica: (name, index) => {
        const r = all.find((x) => x.name === name && x.index === index);
        if (!r) throw new Error(`no replica ${name}#${index + 1}`);
        return r;
      },
      forwarded: () => Object.fromEntries(Object.entries(byName).map(([name, b]) => [name, [...b.forwarded]])),
      ...(catcher ? { mailUrl: catcher.inboxUrl } : {}),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
