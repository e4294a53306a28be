import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createMailer } from '@dme/platform';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const FROM = '"DME Supply" <no-reply@dme-shop.local>';
const started: SmtpSink[] = [];
afterAll(async () => {
  for (const s of started) await s.stop().catch(() => undefined);
});

describe("the benchmarks' mail provider (a sink in a process of its own)", () => {
  it('accepts every message the stack sends over SMTP and counts them, with their bytes, when stopped', async () => {
    const sink = await startSmtpSink();
    started.push(sink);
    expect(sink.pid).not.toBe(process.pid);
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM, timeoutMs: 3000 });
    const body = 'x'.repeat(5000);
    try {
      const receipts = await Promise.all(
        Array.from({ length: 3 }, (_, i) => mailer.send({ to: `p${i}@example.com`, subject: `Order ${i}`, text: body, html: `<p>${body}</p>`, messageId: `<${randomUUID()}@dme-shop.local>` })),
      );
      expect(receipts.map((r) => r.accepted)).toEqual([['p0@example.com'], ['p1@example.com'], ['p2@example.com']]);
    } finally {
      mailer.close();
    }
    const got = await sink.stop();
    expect(got.messages).toBe(3);
    // Each message carries its text and HTML parts: more than the 10,000 characters of the two bodies.
    expect(got.bytes).toBeGreaterThan(3 * 10_000);
    // Stopped: nothing listens any more.
    expect(() => process.kill(sink.pid, 0)).toThrow();
  });
});
