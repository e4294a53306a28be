import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { Context } from 'koa';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  // The driver app's web app manifest (mf-driver/src/pwa/assets.mjs).
  '.webmanifest': 'application/manifest+json; charset=utf-8',
};
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.txt']);

/** Files whose names carry a content hash can be cached for a year; the rest must revalidate. */
const HASHED = /[.-][0-9a-f]{8,}\.(js|mjs|css|png|jpg|svg|woff2)$/;
const NEVER_CACHE = new Set(['index.html', 'mf-manifest.json', 'remoteEntry.js', 'mf-stats.json']);

interface Entry {
  mtimeMs: number;
  raw: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
  type: string;
  cacheControl: string;
}

/**
 * Serves a built folder from memory, with long caching for hashed assets. Compressed copies come
 * from the build (`<file>.br`, `<file>.gz`, written by rspack.base.mjs's PrecompressPlugin) and
 * are served as they are: nothing is compressed on a request (on a busy machine compressing a
 * chunk at brotli 11 kept its first visitor waiting seconds). A file without them (or with copies
 * older than itself) goes uncompressed, unless the folder is a third party's that no build of ours
 * went through (`compressOnRequest`: swagger-ui's, for /api/docs): its files are compressed on
 * their first request, once per process.
 */
export class StaticFolder {
  private readonly cache = new Map<string, Entry>();

  constructor(
    readonly root: string,
    private readonly options: { compressOnRequest?: boolean } = {},
  ) {}

  /** Serves `relPath` from the folder; returns false when there is no such file. */
  async serve(ctx: Context, relPath: string): Promise<boolean> {
    const entry = await this.load(relPath);
    if (!entry) return false;
    ctx.set('Cache-Control', entry.cacheControl);
    ctx.set('ETag', entry.etag);
    ctx.set('Vary', 'Accept-Encoding');
    ctx.type = entry.type;
    if (ctx.get('if-none-match') === entry.etag) {
      ctx.status = 304;
      return true;
    }
    const accept = ctx.get('accept-encoding');
    let body = entry.raw;
    if (entry.br && /\bbr\b/.test(accept)) {
      body = entry.br;
      ctx.set('Content-Encoding', 'br');
    } else if (entry.gzip && /\bgzip\b/.test(accept)) {
      body = entry.gzip;
      ctx.set('Content-Encoding', 'gzip');
    }
    ctx.status = 200;
    ctx.body = ctx.method === 'HEAD' ? null : body;
    ctx.set('Content-Length', String(body.length));
    return true;
  }

  /** The text of `relPath` (read and cached as `serve` does), or undefined when there is none. */
  async text(relPath: string): Promise<string | undefined> {
    return (await this.load(relPath))?.raw.toString('utf8');
  }

  private readonly loading = new Map<string, Promise<Entry>>();

  private async load(relPath: string): Promise<Entry | undefined> {
    const clean = normalize(relPath).replace(/^([/\\])+/, '');
    if (clean.startsWith('..') || clean.includes(`${sep}..`)) return undefined;
    const full = join(this.root, clean);
    if (!full.startsWith(this.root)) return undefined;
    const info = await stat(full).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    const cached = this.cache.get(full);
    if (cached && cached.mtimeMs === info.mtimeMs) return cached;
    // One compression per file however many ask for it at once.
    const key = `${full}\0${info.mtimeMs}`;
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.read(full, info.mtimeMs).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private async read(full: string, mtimeMs: number): Promise<Entry> {
    const raw = await readFile(full);
    const ext = extname(full).toLowerCase();
    const name = full.slice(full.lastIndexOf(sep) + 1);
    const entry: Entry = {
      mtimeMs,
      raw,
      etag: `"${createHash('sha1').update(raw).digest('base64url').slice(0, 20)}"`,
      type: TYPES[ext] ?? 'application/octet-stream',
      cacheControl: NEVER_CACHE.has(name) || !HASHED.test(name) ? 'no-cache' : 'public, max-age=31536000, immutable',
    };
    if (COMPRESSIBLE.has(ext) && this.options.compressOnRequest) {
      if (raw.length > 512) {
        [entry.gzip, entry.br] = await Promise.all([
          gzipAsync(raw, { level: 9 }),
          brotliAsync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
        ]);
      }
    } else if (COMPRESSIBLE.has(ext)) {
      const [br, gz] = await Promise.all([sibling(full, '.br', mtimeMs), sibling(full, '.gz', mtimeMs)]);
      if (br) entry.br = br;
      if (gz) entry.gzip = gz;
    }
    this.cache.set(full, entry);
    return entry;
  }
}

/** The build's compressed copy of a file (`.br`, `.gz`), unless missing or older than the file. */
async function sibling(full: string, suffix: string, mtimeMs: number): Promise<Buffer | undefined> {
  const info = await stat(full + suffix).catch(() => undefined);
  if (!info?.isFile() || info.mtimeMs < mtimeMs) return undefined;
  return readFile(full + suffix).catch(() => undefined);
}
