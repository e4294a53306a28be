import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '@dme/testing';
import { nodeArgs, ready, restartDelay } from './stack';

describe('the launcher (scripts/lib/stack.ts)', () => {
  it('runs each process from its built JavaScript, never through tsx', () => {
    for (const name of ['identity', 'catalog', 'order', 'payment', 'reporting', 'gateway']) {
      const args = nodeArgs(name);
      expect(args.slice(-2)).toEqual(['--enable-source-maps', 'dist/main.js']);
      expect(args.join(' ')).not.toMatch(/tsx|\.ts\b/);
    }
    // The report export's memory budget needs the small young generation.
    expect(nodeArgs('reporting')).toContain('--max-semi-space-size=4');
    // The request-serving processes: a larger one (fewer scavenges).
    for (const name of ['identity', 'catalog', 'order', 'payment', 'gateway']) expect(nodeArgs(name)).toContain('--max-semi-space-size=32');
  });

  it('restarts a process killed once at once, and backs off while it keeps crashing', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(restartDelay)).toEqual([0, 250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('takes a ready answer only from the process it started: another process on the port is not it', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ready', service: 'identity', pid: 4242, checks: {} }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await ready(url, 4242)).toBe(true);
      // A gateway that could not bind its port, while identity answered there, is not ready.
      expect(await ready(url, 4243)).toBe(false);
      expect(await ready(url)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('hands out a port once: ports taken for processes not yet started never repeat', async () => {
    const ports = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});
