import type { RequestListener } from 'node:http';
import { describe, expect, it } from 'vitest';
import { rehearse } from './rehearsal';

/** An app (what rehearse needs of one) that answers each request with the status its path names, and remembers what it got. */
function recordingApp(seen: Array<{ method: string; url: string; body: string; header: string | undefined }>) {
  const listener: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body: Buffer.concat(chunks).toString(), header: req.headers['x-test'] as string | undefined });
      res.writeHead(Number(req.url!.slice(1)) || 200).end('{}');
    });
  };
  return { callback: () => listener };
}

describe('rehearse: a process sends its hot path requests through its own app before it listens', () => {
  it('sends the requests it is given, with their method, headers and body, up to the count, and counts the answers by status', async () => {
    const seen: Parameters<typeof recordingApp>[0] = [];
    const r = await rehearse(recordingApp(seen), (i) => ({ method: 'POST', path: i % 2 ? '/401' : '/201', headers: { 'x-test': `n${i}` }, body: `{"i":${i}}` }), { budgetMs: 30_000, requests: 10, concurrency: 3 });
    expect(r.requests).toBe(10);
    expect(r.statuses).toEqual({ 201: 5, 401: 5 });
    expect(seen).toHaveLength(10);
    expect(seen.map((s) => s.header).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `n${i}`).sort());
    expect(seen.every((s) => s.method === 'POST' && s.body === `{"i":${s.header!.slice(1)}}`)).toBe(true);
  });

  it('does nothing without a budget', async () => {
    const seen: Parameters<typeof recordingApp>[0] = [];
    expect(await rehearse(recordingApp(seen), () => ({ method: 'GET', path: '/200' }), { budgetMs: 0, requests: 10, concurrency: 2 })).toEqual({ requests: 0, ms: 0, statuses: {} });
    expect(seen).toHaveLength(0);
  });

  it('never holds the start: requests an app does not answer are given up (status 0) a second after the budget', async () => {
    const hanging = { callback: (): RequestListener => () => undefined };
    const r = await rehearse(hanging, () => ({ method: 'GET', path: '/' }), { budgetMs: 50, requests: 100, concurrency: 2 });
    expect(r.statuses).toEqual({ 0: 2 });
  });
});
