import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@dme/testing';
import { env } from './env';
import { send } from './http';

export interface SecondGateway {
  url: string;
  /** Its last 30 log lines, for failure messages. */
  tail: string[];
  stop(): Promise<void>;
}

/**
 * A second gateway process on the started stack's services (the product run as replicas): the
 * gateway's own built main (dist/main.js) with `extraEnv`, ready when its /health answers 200.
 */
export async function startGateway(extraEnv: Record<string, string> = {}): Promise<SecondGateway> {
  const urls = env.serviceUrls;
  const unused = `http://127.0.0.1:${await freePort()}`;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', 'dist/main.js'], {
    cwd: join(env.root, 'gateway'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      INTERNAL_TOKEN: env.internalToken,
      IDENTITY_URL: urls.identity ?? unused,
      CATALOG_URL: urls.catalog ?? unused,
      ORDER_URL: urls.order ?? unused,
      PAYMENT_URL: urls.payment ?? unused,
      REPORTING_URL: urls.reporting ?? unused,
      STATIC_ROOT: env.root,
      LOG_LEVEL: 'silent',
      ...extraEnv,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const keep = (c: Buffer) => {
    tail.push(...c.toString('utf8').split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 30));
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
  };
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second gateway exited (${child.exitCode}):\n${tail.join('\n')}`);
    const r = await send(url, { method: 'GET', path: '/health' }, { timeoutMs: 1000 });
    if (r.kind === 'answer' && r.status === 200) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(`the second gateway did not start within 30 s:\n${tail.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, tail, stop };
}
