/**
 * The benchmarks' mail provider: a real SMTP server (smtp-server) in a process of its own that
 * accepts every message and keeps only their count. A shop's provider is another machine; the
 * catcher `npm start` and the tests use parses each message back for its inbox (about 0.7 ms of
 * CPU a message), and in the bench that parsing ran in the bench's own process, on the same two
 * cores as the product it measured. In a process of its own, the bench reports what the
 * stand-in costs beside the product's processes, and counts that every message arrived.
 *
 * Run as a script, it listens on 127.0.0.1 (a free port), prints `{"port":N}`, and on SIGTERM
 * prints `{"messages":N,"bytes":N}` and exits.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { closeSmtp, createSinkSmtp, listenSmtp } from '@dme/testing/smtp';

export interface SmtpSink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  pid: number;
  /** Stops it; resolves with what it received. */
  stop(): Promise<{ messages: number; bytes: number }>;
}

/** Starts the sink in a child process (this file, through tsx). */
export async function startSmtpSink(): Promise<SmtpSink> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const next = () =>
    new Promise<Record<string, number>>((resolve, reject) => {
      // 'close' (its output read to the end), not 'exit': a line it printed before exiting is read first.
      const onClose = (code: number | null) => reject(new Error(`the SMTP sink exited (${code})`));
      child.once('close', onClose);
      lines.once('line', (line) => {
        child.off('close', onClose);
        try {
          resolve(JSON.parse(line) as Record<string, number>);
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
  const { port } = await next();
  let stopped: Promise<{ messages: number; bytes: number }> | undefined;
  return {
    url: `smtp://127.0.0.1:${port}`,
    pid: child.pid!,
    stop() {
      stopped ??= (async () => {
        const counted = next();
        const closed = new Promise((resolve) => child.once('close', resolve));
        child.kill('SIGTERM');
        const r = await counted;
        await closed;
        return { messages: r.messages ?? 0, bytes: r.bytes ?? 0 };
      })();
      return stopped;
    },
  };
}

async function main(): Promise<void> {
  let messages = 0;
  let bytes = 0;
  const smtp = createSinkSmtp((n) => {
    messages += 1;
    bytes += n;
  });
  const port = await listenSmtp(smtp, 0);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  process.once('SIGTERM', () => {
    void closeSmtp(smtp).finally(() => {
      process.stdout.write(`${JSON.stringify({ messages, bytes })}\n`, () => process.exit(0));
    });
    // A client holding a connection open must not keep the count from being printed.
    setTimeout(() => process.stdout.write(`${JSON.stringify({ messages, bytes })}\n`, () => process.exit(0)), 2000).unref();
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) void main();
