import { connect } from 'node:net';

export interface RawExchange {
  /** Everything the server sent. */
  text: string;
  /** The status line of each answer, in order. */
  statuses: number[];
  /** The server closed the connection. */
  closed: boolean;
  /** Neither closed nor answered everything within the time given: the connection was left hanging. */
  hung: boolean;
}

/**
 * Writes raw bytes to an HTTP server on one connection (e.g. a refused request and then a second
 * request, keep-alive) and collects what comes back until the server has answered `expect`
 * requests or closed the connection, or `timeoutMs` passes.
 */
export function rawExchange(baseUrl: string, parts: Array<string | Buffer>, opts: { expect?: number; timeoutMs?: number } = {}): Promise<RawExchange> {
  const url = new URL(baseUrl);
  const expect = opts.expect ?? 1;
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    let text = '';
    let finished = false;
    const statuses = () => [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    const finish = (closed: boolean, hung: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, statuses: statuses(), closed, hung });
    };
    const timer = setTimeout(() => finish(false, true), opts.timeoutMs ?? 5000);
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      // Done when the expected number of complete answers arrived (bodies are small here).
      if (statuses().length >= expect && /\r\n\r\n[\s\S]*$/.test(text)) setTimeout(() => finish(false, false), 100);
    });
    socket.on('end', () => finish(true, false));
    socket.on('close', () => finish(true, false));
    socket.on('error', () => finish(true, false));
    socket.on('connect', () => {
      for (const p of parts) socket.write(p);
    });
  });
}
