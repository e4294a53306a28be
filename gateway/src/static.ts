import { readFile, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { Context } from 'koa';
import send from 'koa-send';

/** Content types by extension; other files get the one koa (mime-types) knows for them. */
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

/** Files whose names carry a content hash can be cached for a year; the rest must revalidate. */
const HASHED = /[.-][0-9a-f]{8,}\.(js|mjs|css|png|jpg|svg|woff2)$/;
const NEVER_CACHE = new Set(['index.html', 'mf-manifest.json', 'remoteEntry.js', 'mf-stats.json']);
const cacheControl = (name: string) => (NEVER_CACHE.has(name) || !HASHED.test(name) ? 'no-cache' : 'public, max-age=31536000, immutable');

/** Statuses koa-send answers for a path it will not or cannot serve: "no such file" here. */
const NOT_SERVED = new Set([400, 403, 404]);

interface Located {
  /** The path inside the folder, decoded, its segments joined with `/`. */
  rel: string;
  full: string;
  name: string;
  info: Stats;
}

/**
 * Serves a built folder with koa-send, with long caching for hashed assets. Compressed copies come
 * from the build (`<file>.br`, `<file>.gz`, written by scripts/precompress.mjs: the web apps'
 * rspack builds, and the gateway's build for swagger-ui's files) and are served as they are
 * (koa-send's `brotli`/`gzip`): nothing is compressed on a request (on a busy machine compressing
 * a chunk at brotli 11 kept its first visitor waiting seconds). A file without them, or with
 * copies older than itself, goes uncompressed.
 *
 * Answers carry a weak ETag and Last-Modified made from the file's size and time (the file's, not
 * its compressed copy's) and are revalidated with 304. `relPath` is a URL path as it came (it is
 * decoded once); a path leaving the folder, or naming a hidden file or a folder, is no file.
 */
export class StaticFolder {
  readonly root: string;
  private readonly texts = new Map<string, { mtimeMs: number; size: number; text: string }>();

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Serves `relPath` from the folder; returns false when there is no such file. */
  async serve(ctx: Context, relPath: string): Promise<boolean> {
    const file = await this.locate(relPath);
    if (!file) return false;
    const [brotli, gzip] = await Promise.all([freshCopy(file, '.br'), freshCopy(file, '.gz')]);
    try {
      // Each segment encoded again: koa-send decodes the path, which must give `rel` back as it is.
      const served = await send(ctx, file.rel.split('/').map(encodeURIComponent).join('/'), {
        root: this.root,
        brotli,
        gzip,
        format: false,
        setHeaders: (res) => res.setHeader('Cache-Control', cacheControl(file.name)),
      });
      if (!served) return false;
    } catch (err) {
      // Gone between the look and the send (a build replacing the folder).
      if (!NOT_SERVED.has((err as { status?: number }).status ?? 500)) throw err;
      ctx.remove('Content-Encoding');
      return false;
    }
    const type = TYPES[extname(file.name).toLowerCase()];
    if (type) ctx.type = type;
    ctx.vary('Accept-Encoding');
    ctx.set('ETag', `W/"${file.info.size.toString(16)}-${Math.floor(file.info.mtimeMs).toString(16)}"`);
    ctx.set('Last-Modified', file.info.mtime.toUTCString());
    if (ctx.fresh) {
      // The browser's copy is current: no body (the file's stream is closed), no encoding.
      ctx.status = 304;
      ctx.remove('Content-Encoding');
    }
    return true;
  }

  /** The text of `relPath`, or undefined when there is none (kept while the file is unchanged). */
  async text(relPath: string): Promise<string | undefined> {
    const file = await this.locate(relPath);
    if (!file) return undefined;
    const cached = this.texts.get(file.full);
    if (cached && cached.mtimeMs === file.info.mtimeMs && cached.size === file.info.size) return cached.text;
    const text = await readFile(file.full, 'utf8').catch(() => undefined);
    if (text !== undefined) this.texts.set(file.full, { mtimeMs: file.info.mtimeMs, size: file.info.size, text });
    return text;
  }

  /** The file `relPath` names in the folder, if it is a file and not hidden; never outside the folder. */
  private async locate(relPath: string): Promise<Located | undefined> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(relPath);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0')) return undefined;
    const segments = decoded.split(/[/\\]/).filter((s) => s !== '');
    // `..` leaves the folder; other names starting with a dot are hidden (koa-send serves none).
    if (segments.length === 0 || segments.some((s) => s.startsWith('.'))) return undefined;
    const full = join(this.root, ...segments);
    if (!full.startsWith(this.root + sep)) return undefined;
    const info = await stat(full).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return { rel: segments.join('/'), full, name: segments[segments.length - 1]!, info };
  }
}

/** Whether the build's compressed copy of a file (`.br`, `.gz`) is there and not older than the file. */
async function freshCopy(file: Located, suffix: '.br' | '.gz'): Promise<boolean> {
  const info = await stat(file.full + suffix).catch(() => undefined);
  return !!info?.isFile() && info.mtimeMs >= file.info.mtimeMs;
}
