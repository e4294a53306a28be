/**
 * One keep-alive TCP connection driven by hand (node:net), to see what a server does after it
 * refuses a request early: answer the next request, close the connection, or fall silent.
 */
import net from 'node:net';
import { hostOf } from './host';

export interface SocketAnswer {
  kind: 'answer';
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}
export type SocketOutcome = SocketAnswer | { kind: 'closed'; reason: string } | { kind: 'silent'; waitedMs: number };

export class RawConnection {
  private buf = Buffer.alloc(0);
  private ended = false;
  private endReason = '';
  private waiters: Array<() => void> = [];
  readonly socket: net.Socket;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (c: Buffer) => {
      this.buf = Buffer.concat([this.buf, c]);
      this.wake();
    });
    socket.on('end', () => this.close('server ended the connection (FIN)'));
    socket.on('close', () => this.close('connection closed'));
    socket.on('error', (err) => this.close(`socket error: ${err.message}`));
  }

  static open(baseUrl: string): Promise<RawConnection> {
    const { hostname, port } = hostOf(baseUrl);
    return new Promise((resolve, reject) => {
      const s = net.connect({ host: hostname, port }, () => resolve(new RawConnection(s)));
      s.once('error', reject);
    });
  }

  private close(reason: string) {
    if (!this.ended) {
      this.ended = true;
      this.endReason = reason;
    }
    this.wake();
  }

  private wake() {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  get isClosed(): boolean {
    return this.ended;
  }

  /** Writes bytes; resolves false when the socket is already gone (EPIPE and the like). */
  write(data: Buffer | string): Promise<boolean> {
    if (this.ended || this.socket.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.socket.write(data, (err) => resolve(!err));
    });
  }

  /** Waits for one complete HTTP/1.1 response, a close, or silence for waitMs. */
  async read(waitMs: number): Promise<SocketOutcome> {
    const until = Date.now() + waitMs;
    for (;;) {
      const parsed = this.tryParse();
      if (parsed) return parsed;
      if (this.ended) return { kind: 'closed', reason: this.endReason + (this.buf.length ? ` (with ${this.buf.length} unparsed bytes)` : '') };
      const left = until - Date.now();
      if (left <= 0) return { kind: 'silent', waitedMs: waitMs };
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  private tryParse(): SocketAnswer | undefined {
    const headEnd = this.buf.indexOf('\r\n\r\n');
    if (headEnd < 0) return undefined;
    const head = this.buf.subarray(0, headEnd).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '');
    if (!m) return undefined;
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const i = line.indexOf(':');
      if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    let rest = this.buf.subarray(headEnd + 4);
    let body: Buffer;
    if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) {
      const parts: Buffer[] = [];
      let off = 0;
      for (;;) {
        const nl = rest.indexOf('\r\n', off);
        if (nl < 0) return undefined;
        const size = parseInt(rest.subarray(off, nl).toString('latin1'), 16);
        if (Number.isNaN(size)) return undefined;
        if (size === 0) {
          const end = rest.indexOf('\r\n\r\n', nl);
          if (end < 0 && rest.length < nl + 4) return undefined;
          off = end >= 0 ? end + 4 : nl + 4;
          break;
        }
        if (rest.length < nl + 2 + size + 2) return undefined;
        parts.push(rest.subarray(nl + 2, nl + 2 + size));
        off = nl + 2 + size + 2;
      }
      body = Buffer.concat(parts);
      rest = rest.subarray(off);
    } else {
      const len = Number(headers['content-length'] ?? 0);
      if (rest.length < len) {
        if (!this.ended) return undefined;
      }
      body = rest.subarray(0, len);
      rest = rest.subarray(Math.min(len, rest.length));
    }
    this.buf = Buffer.from(rest);
    return { kind: 'answer', status: Number(m[1]), headers, body };
  }

  destroy(): void {
    this.socket.destroy();
  }
}

export function isProblemJson(a: SocketAnswer): boolean {
  if (!(a.headers['content-type'] ?? '').startsWith('application/problem+json')) return false;
  try {
    const p = JSON.parse(a.body.toString('utf8')) as { detail?: unknown };
    return typeof p.detail === 'string' && p.detail.length > 0;
  } catch {
    return false;
  }
}
