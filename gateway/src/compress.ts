import { Readable } from 'node:stream';
import { createDeflate, createGzip, deflateSync, gzipSync, type ZlibOptions } from 'node:zlib';
import type { Context, Next } from 'koa';

/** Answers smaller than this are sent as they are: compressing them saves no packet. */
export const COMPRESS_THRESHOLD = 1024;

/** Answers held whole up to this size are compressed in one call; larger ones as a stream. */
const ONE_SHOT_MAX = 64 * 1024;

/**
 * zlib settings for a body of `length` bytes at the fastest level. A window no larger than the
 * body finds the same matches as the full 32 KB one, and a small window and hash table are far
 * cheaper to set up: for a 1-2 KB API answer that setup, not the compression, was most of the
 * cost (a zlib stream per answer cost ~270 µs here, one call with a fitted window ~25 µs).
 */
export function zlibOptionsFor(length: number | undefined): ZlibOptions {
  if (length === undefined || length > 16 * 1024) return { level: 1 };
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(length + 1))));
  return { level: 1, windowBits, memLevel: Math.max(1, windowBits - 7) };
}

/**
 * Compresses JSON answers (API answers are small and made per request; built assets come
 * compressed at their best from the build, served by StaticFolder; server-sent events never are). gzip or deflate as the client accepts, at
 * zlib's fastest level; a body held in memory is compressed in one call, a stream as a stream.
 */
export function compressJson() {
  return async (ctx: Context, next: Next): Promise<void> => {
    await next();
    ctx.vary('Accept-Encoding');
    const body: unknown = ctx.body;
    if (body === null || body === undefined || ctx.method === 'HEAD' || ctx.status === 204 || ctx.status === 304) return;
    if (ctx.response.get('Content-Encoding')) return;
    // Server-sent events must reach the client as they are written: a compressor holds its input
    // until a block fills, so a live-updates stream is never compressed.
    if (ctx.response.type === 'text/event-stream') return;
    if (!/json/.test(ctx.response.type)) return;
    if (/\bno-transform\b/.test(String(ctx.response.get('Cache-Control')))) return;
    const encoding = ctx.acceptsEncodings('gzip', 'deflate', 'identity');
    if (encoding !== 'gzip' && encoding !== 'deflate') return;

    if (body instanceof Readable) {
      const length = ctx.response.length;
      if (length !== undefined && length < COMPRESS_THRESHOLD) return;
      const options = zlibOptionsFor(length);
      const z = encoding === 'gzip' ? createGzip(options) : createDeflate(options);
      body.on('error', (err) => z.destroy(err));
      ctx.set('Content-Encoding', encoding);
      ctx.remove('Content-Length');
      ctx.body = body.pipe(z);
      return;
    }
    const raw = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    if (raw.length < COMPRESS_THRESHOLD || raw.length > ONE_SHOT_MAX) {
      if (raw.length > ONE_SHOT_MAX) {
        const z = encoding === 'gzip' ? createGzip({ level: 1 }) : createDeflate({ level: 1 });
        ctx.set('Content-Encoding', encoding);
        ctx.remove('Content-Length');
        ctx.body = Readable.from([raw]).pipe(z);
      }
      return;
    }
    const options = zlibOptionsFor(raw.length);
    const packed = encoding === 'gzip' ? gzipSync(raw, options) : deflateSync(raw, options);
    ctx.set('Content-Encoding', encoding);
    ctx.body = packed;
  };
}
