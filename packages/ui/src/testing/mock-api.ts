import { vi } from 'vitest';
import type { LiveEvent, OrderLine } from '@dme/contracts';

/** A fetch stand-in for the remotes' UI tests (vitest + jsdom): `import { mockApi, on } from '@dme/ui/testing'`. */

export interface Call {
  method: string;
  /** Path and query, e.g. "/api/orders?type=BUY&status=PENDING". */
  url: string;
  headers: Headers;
  /** The JSON body read back, or the FormData an upload sent. */
  body: unknown;
}

type Answer = { status: number; body?: unknown; bytes?: Uint8Array<ArrayBuffer>; contentType?: string };
type Reply = Answer | 'network-error' | undefined;
type Handler = (call: Call) => Reply | Promise<Reply>;

/**
 * Replaces fetch: each call is recorded (with its headers) and answered by the first handler that
 * replies (status + JSON body, problem+json for errors, no body for 204, or bytes; 'network-error'
 * throws like a lost connection). Unanswered calls get a 404 problem.
 */
export function mockApi(...handlers: Handler[]) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(new URL(String(input), window.location.href), init);
    const url = new URL(req.url, window.location.href);
    const form = init?.body instanceof FormData ? init.body : undefined;
    const text = form || req.method === 'GET' ? '' : await req.clone().text();
    const call: Call = { method: req.method.toUpperCase(), url: url.pathname + url.search, headers: req.headers, body: form ?? (text ? JSON.parse(text) : undefined) };
    calls.push(call);
    let reply: Reply;
    for (const h of handlers) {
      reply = await h(call);
      if (reply) break;
    }
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    const r: Answer = reply ?? problem(404, 'Not found.');
    if (r.status === 204) return new Response(null, { status: 204 });
    if (r.bytes) return new Response(r.bytes, { status: r.status, headers: { 'content-type': r.contentType ?? 'application/octet-stream' } });
    const type = r.status >= 400 ? 'application/problem+json' : 'application/json';
    return new Response(JSON.stringify(r.body ?? {}), { status: r.status, headers: { 'content-type': type } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock };
}

/** A handler for one method + path (query ignored). */
export const on =
  (method: string, path: string, reply: Reply | ((call: Call) => Reply | Promise<Reply>)): Handler =>
  (call) =>
    call.method === method && call.url.split('?')[0] === path ? (typeof reply === 'function' ? reply(call) : reply) : undefined;

/** A problem+json answer, with field errors when given. */
export const problem = (status: number, detail: string, errors?: Array<{ field: string; message: string }>) => ({
  status,
  body: { type: 'about:blank', title: 'Error', status, detail, ...(errors ? { errors } : {}) },
});

/** The query of a call as an object. */
export const query = (c: Call) => Object.fromEntries(new URL(c.url, 'http://x').searchParams);

/**
 * A markup's shape, to compare server-rendered HTML with what the app rendered in the DOM:
 * elements with their attributes sorted and styles as the DOM reads them, text merged, React's
 * comment separators dropped.
 */
export function markupShape(markup: string | Element): string {
  const holder = document.createElement('div');
  if (typeof markup === 'string') holder.innerHTML = markup;
  else holder.append(markup.cloneNode(true));
  const walker = document.createTreeWalker(holder, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const c of comments) c.parentNode?.removeChild(c);
  holder.normalize();
  const out = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
    if (!(node instanceof Element)) return '';
    const attrs = [...node.attributes]
      .map((a) => (a.name === 'style' ? `style="${(node as HTMLElement).style.cssText}"` : `${a.name}="${a.value}"`))
      .sort()
      .join(' ');
    return `<${node.tagName.toLowerCase()}${attrs ? ` ${attrs}` : ''}>${[...node.childNodes].map(out).join('')}</${node.tagName.toLowerCase()}>`;
  };
  return [...holder.childNodes].map(out).join('');
}

/**
 * A serial code entry of an order line (SPEC §3) as the order reads show it: a unit packed from
 * bin A-01 and not returned yet, unless `over` says otherwise. Its id follows from the code.
 */
export const serialEntry = (serialCode: string, over: Partial<OrderLine['serialCodes'][number]> = {}): OrderLine['serialCodes'][number] => ({
  id: `00000000-0000-4000-8000-${serialCode.replace(/\D/g, '').padStart(12, '0')}`,
  serialCode,
  productID: '11111111-1111-4111-8111-111111111111',
  status: null,
  updatedAt: null,
  returnedAt: null,
  inventoryType: 'OUT',
  warehouseBin: { name: 'A-01 Mobility' },
  createdAt: '2026-11-23T05:00:00.000Z',
  ...over,
});

/** A live event stream the test feeds itself: the gateway's events, without a gateway. */
export interface FakeLiveStream {
  url: string;
  closed: boolean;
  /** Sends one event to the page's listeners, as the gateway's `change` message. */
  send(event: LiveEvent): void;
}

/**
 * Replaces the browser's EventSource (`vi.stubGlobal`); `opened()` answers the stream the page
 * opened, once it has (a moment after the page has loaded: api-client afterPageLoad).
 */
export function fakeLiveStream(): { opened(): Promise<FakeLiveStream> } {
  const sources: FakeLiveStream[] = [];
  vi.stubGlobal(
    'EventSource',
    class implements FakeLiveStream {
      listeners: Array<(m: MessageEvent<string>) => void> = [];
      closed = false;
      constructor(public url: string) {
        sources.push(this);
      }
      addEventListener(type: string, l: (m: MessageEvent<string>) => void) {
        if (type === 'change') this.listeners.push(l);
      }
      removeEventListener(_type: string, l: (m: MessageEvent<string>) => void) {
        this.listeners = this.listeners.filter((x) => x !== l);
      }
      close() {
        this.closed = true;
      }
      send(event: LiveEvent) {
        for (const l of this.listeners) l(new MessageEvent('change', { data: JSON.stringify(event) }));
      }
    },
  );
  return {
    opened: () =>
      vi.waitFor(
        () => {
          const open = sources.find((s) => !s.closed);
          if (!open) throw new Error('the live stream is not open yet');
          return open;
        },
        { timeout: 3000 },
      ),
  };
}
