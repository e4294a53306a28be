/**
 * Issue 30, item 6: static files are compressed by the build, never on a request. A gateway
 * process started just now serves the shop's first screen (the page, its script, the shop remote's
 * entry and manifest) and the API docs' swagger-ui files at once with the build's brotli copies:
 * before, its first visitor waited while it compressed each file at brotli quality 11 (8 s for an
 * admin screen's chunk on a busy machine, 1.7 MB of swagger-ui bundle on every start).
 */
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type SecondGateway } from './lib/gateway';
import { send, type RawResponse } from './lib/http';

/** Generous for a busy machine: serving prebuilt files is milliseconds each; compressing them at brotli 11 was seconds. */
const FIRST_VISIT_MS = 3000;

const BR = { 'accept-encoding': 'gzip, deflate, br' };

function answer(r: RawResponse, what: string): Extract<RawResponse, { kind: 'answer' }> {
  if (r.kind !== 'answer') throw new Error(`${what}: ${r.kind}`);
  return r;
}

describe('the first visit to a gateway started just now', () => {
  let gateway: SecondGateway;
  beforeAll(async () => {
    gateway = await startGateway();
  }, 60_000);
  afterAll(async () => {
    await gateway?.stop();
  });

  it(`serves the first screen's page, script, remote and the API docs' files brotli-compressed from the build, all within ${FIRST_VISIT_MS / 1000} s`, async () => {
    const started = Date.now();
    const page = answer(await send(gateway.url, { method: 'GET', path: '/', headers: BR }), 'the page');
    expect(page.status).toBe(200);
    const html = page.headers['content-encoding'] === 'br' ? brotliDecompressSync(page.body).toString('utf8') : page.body.toString('utf8');
    const scripts = [...html.matchAll(/<script[^>]*\ssrc="(\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length, 'the page names its script').toBeGreaterThan(0);
    const assets = [...scripts, '/remotes/mf-shop/remoteEntry.js', '/remotes/mf-shop/mf-manifest.json', '/api/docs/assets/swagger-ui-bundle.js', '/api/docs/assets/swagger-ui.css'];
    const answers = await Promise.all(assets.map(async (path) => [path, answer(await send(gateway.url, { method: 'GET', path, headers: BR }, { timeoutMs: 15_000 }), path)] as const));
    const took = Date.now() - started;
    for (const [path, r] of answers) {
      expect(r.status, path).toBe(200);
      expect(r.headers['content-encoding'], `${path} comes compressed from the build`).toBe('br');
      expect(Number(r.headers['content-length']), `${path}: the stored copy, its length known`).toBe(r.body.length);
    }
    expect(took, `the first visit took ${took} ms`).toBeLessThan(FIRST_VISIT_MS);
  }, 60_000);
});
