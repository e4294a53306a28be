/**
 * The embedded mail catcher (issue 24): a real SMTP server the stack's processes send to when no
 * SMTP_URL is given, keeping the last messages in memory, and a tiny web inbox to read them
 * (`npm start` prints its address; tests read its JSON API through e2e/mail.ts). Local only: it
 * binds to 127.0.0.1 unless told otherwise, and nothing it stores outlives the process.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeSmtp, createReceivingSmtp, listenSmtp, type ReceivedMail, type SmtpRefusal } from '@dme/testing/smtp';
import { inboxPage, messagePage, notFoundPage } from './mail-inbox-html';

/** Messages kept; the oldest are dropped beyond this. */
export const MAIL_CATCHER_KEEP = 500;

/** The sender the stack's processes use unless MAIL_FROM says otherwise. */
export const DEFAULT_MAIL_FROM = '"DME Supply" <no-reply@dme-shop.local>';

export interface CaughtMail extends ReceivedMail {
  id: string;
  /** When the catcher accepted it, ISO 8601. */
  receivedAt: string;
}

/** A message as GET /api/messages lists it: the attachments' bytes are downloaded separately. */
export interface CaughtMailJson extends Omit<CaughtMail, 'attachments'> {
  attachments: Array<{ filename: string; contentType: string; size: number }>;
}

export interface MailCatcherOptions {
  /** SMTP port (0: a free one). */
  smtpPort: number;
  /** Inbox (HTTP) port (0: a free one). */
  httpPort: number;
  /** Interface to bind both to (default 127.0.0.1: the inbox has no login). */
  host?: string;
}

export interface MailCatcher {
  /** smtp://<host>:<port>, for SMTP_URL. */
  smtpUrl: string;
  /** The web inbox's base URL (its JSON API is under /api/messages). */
  inboxUrl: string;
  stop(): Promise<void>;
}

/** The mail settings every process of a stack starts with (SMTP_URL, MAIL_FROM, PUBLIC_URL). */
export function mailEnv(smtpUrl: string, publicUrl: string, from = process.env.MAIL_FROM ?? DEFAULT_MAIL_FROM): Record<string, string> {
  return { SMTP_URL: smtpUrl, MAIL_FROM: from, PUBLIC_URL: publicUrl };
}

/** The JSON form of a message (attachment sizes instead of bytes). */
export function toJson(mail: CaughtMail): CaughtMailJson {
  return { ...mail, attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.content.length })) };
}

/** Newest first; only those whose envelope names `to` (any case) when it is given. */
export function selectMail(messages: readonly CaughtMail[], to?: string | null): CaughtMail[] {
  const want = to?.trim().toLowerCase();
  const hits = want ? messages.filter((m) => m.envelopeTo.some((r) => r.toLowerCase() === want)) : messages;
  return [...hits].reverse();
}

export async function startMailCatcher(opts: MailCatcherOptions): Promise<MailCatcher> {
  const host = opts.host ?? '127.0.0.1';
  const messages: CaughtMail[] = [];
  let next = 1;
  const refusals: Refusals = new Map();
  const smtp = createReceivingSmtp(
    (mail) => {
      messages.push({ ...mail, id: String(next++), receivedAt: new Date().toISOString() });
      if (messages.length > MAIL_CATCHER_KEEP) messages.splice(0, messages.length - MAIL_CATCHER_KEEP);
    },
    (envelopeTo) => refusalFor(refusals, envelopeTo),
  );
  const smtpPort = await listenSmtp(smtp, opts.smtpPort, host);
  const http = createServer((req, res) => {
    // A bug in a page must not take the catcher (and `npm start`) down with it.
    const failed = () => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'Internal error');
      else res.destroy();
    };
    try {
      if (pathOf(req) === REFUSALS_PATH) refusalsRoute(req, res, refusals).catch(failed);
      else route(req, res, messages);
    } catch {
      failed();
    }
  });
  let httpPort: number;
  try {
    httpPort = await listenHttp(http, opts.httpPort, host);
  } catch (err) {
    await closeSmtp(smtp);
    throw err;
  }
  // The browser-facing address says localhost (as the shop's does); SMTP clients get the bound IP.
  const shown = host === '127.0.0.1' || host === '0.0.0.0' || host === '::' || host === '::1' ? 'localhost' : host;
  return {
    smtpUrl: `smtp://${host.includes(':') ? `[${host}]` : host}:${smtpPort}`,
    inboxUrl: `http://${shown}:${httpPort}`,
    stop: async () => {
      http.closeAllConnections();
      await Promise.all([closeSmtp(smtp), new Promise<void>((resolve) => http.close(() => resolve()))]);
    },
  };
}

function listenHttp(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', ...headers });
  res.end(body);
}

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0]!;

/** The inbox's routes; anything else is a 404 (a 405 for a known path with another method). */
function route(req: IncomingMessage, res: ServerResponse, messages: CaughtMail[]): void {
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const path = pathOf(req);
  const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
  const method = req.method ?? 'GET';
  const byId = (id: string | undefined) => messages.find((m) => m.id === id);
  const only = (allowed: string[], handle: () => void) => {
    if (allowed.includes(method)) return handle();
    send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed', { allow: allowed.join(', ') });
  };

  if (path === '/') return only(['GET'], () => send(res, 200, HTML, inboxPage(selectMail(messages))));
  if (path === '/api/messages') {
    return only(['GET', 'DELETE'], () => {
      if (method === 'DELETE') {
        messages.length = 0;
        return send(res, 200, JSON_TYPE, JSON.stringify({ deleted: true }));
      }
      send(res, 200, JSON_TYPE, JSON.stringify(selectMail(messages, query.get('to')).map(toJson)));
    });
  }
  const page = /^\/messages\/(\d{1,12})$/.exec(path);
  const mail = page ? byId(page[1]) : undefined;
  if (mail) return only(['GET'], () => send(res, 200, HTML, messagePage(mail)));
  const file = /^\/messages\/(\d{1,12})\/attachments\/(\d{1,6})$/.exec(path);
  const attachment = file ? byId(file[1])?.attachments[Number(file[2])] : undefined;
  if (attachment) {
    return only(['GET'], () =>
      send(res, 200, attachment.contentType || 'application/octet-stream', attachment.content, {
        'content-disposition': contentDisposition(attachment.filename || 'attachment'),
        'content-length': String(attachment.content.length),
      }),
    );
  }
  send(res, 404, HTML, notFoundPage());
}

/**
 * `attachment` (never inline: an HTML attachment must not run on the inbox's origin), with an
 * ASCII fallback name and the exact name in RFC 5987 form.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(filename.replace(/\p{Cs}/gu, '_')).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/**
 * Addresses (lower case) whose mail the catcher refuses, with the SMTP answer to give: how tests
 * make one customer's e-mail fail (a mailbox that does not exist) while everyone else's arrives.
 */
type Refusals = Map<string, SmtpRefusal>;

const REFUSALS_PATH = '/api/refusals';

/** The answer to refuse a message with when one of its envelope recipients is refused (any case). */
export function refusalFor(refusals: Refusals, envelopeTo: readonly string[]): SmtpRefusal | null {
  for (const to of envelopeTo) {
    const refusal = refusals.get(to.toLowerCase());
    if (refusal) return refusal;
  }
  return null;
}

/** A POST /api/refusals body, or the reason it is not one. */
export function parseRefusal(body: unknown): { address: string; refusal: SmtpRefusal } | string {
  const b = (body ?? {}) as { address?: unknown; code?: unknown; message?: unknown };
  if (typeof b.address !== 'string' || !b.address.trim() || b.address.length > 320) return 'address: an e-mail address';
  if (typeof b.code !== 'number' || !Number.isInteger(b.code) || b.code < 400 || b.code > 599) return 'code: an SMTP error code from 400 to 599';
  if (typeof b.message !== 'string' || !b.message.trim() || b.message.length > 500 || /[\r\n]/.test(b.message)) return 'message: one line of text';
  return { address: b.address.trim().toLowerCase(), refusal: { code: b.code, message: b.message.trim() } };
}

/** GET lists the refusals, POST adds one ({ address, code, message }), DELETE accepts all mail again. */
async function refusalsRoute(req: IncomingMessage, res: ServerResponse, refusals: Refusals): Promise<void> {
  const json = (status: number, body: unknown) => send(res, status, JSON_TYPE, JSON.stringify(body));
  const list = () => [...refusals].map(([address, r]) => ({ address, ...r }));
  if (req.method === 'GET') return json(200, list());
  if (req.method === 'DELETE') {
    refusals.clear();
    return json(200, list());
  }
  if (req.method !== 'POST') return send(res, 405, 'text/plain; charset=utf-8', 'Method not allowed', { allow: 'GET, POST, DELETE' });
  let body: unknown;
  try {
    body = JSON.parse(await readBody(req, 4096));
  } catch {
    return json(400, { error: 'The body must be JSON: { "address": "...", "code": 550, "message": "..." }' });
  }
  const parsed = parseRefusal(body);
  if (typeof parsed === 'string') return json(400, { error: parsed });
  refusals.set(parsed.address, parsed.refusal);
  json(200, list());
}

/** A request body as text, refused (rejects) beyond `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new Error('too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
