import { createRequire } from 'node:module';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { firstScreenReads, ME_URL, remoteFor, type RemoteName } from '@dme/contracts';
import type { Logger } from '@dme/platform';
import type { Principal } from './session';

/**
 * A signed-in user's first screen, rendered into the page the gateway serves (issue 13: mobile
 * LCP). The shell and the role's remote each build `dist-ssr/first-screen.cjs` next to their
 * browser build (rspack.base.mjs `createSsrConfig`), with the same components as the app: the
 * remote draws its screen from the answers of the screen's first reads (`firstScreenReads`,
 * read here as the user, as the browser would), the shell its frame around it from
 * `/api/auth/me`. The browser then shows the screen as soon as the page and its first picture have
 * arrived, while the scripts still download; the app takes over when its own screen is ready
 * (shell/src/first-screen.ts).
 *
 * Only an optimisation: no built module, a path without one, a read that fails or is slow, an
 * answer the module does not accept, or a render that throws, and the page is served as before.
 */
export interface ScreenModule {
  renderScreen(path: string, reads: Readonly<Record<string, unknown>>): string | undefined;
}
export interface FrameModule {
  renderFrame(path: string, reads: Readonly<Record<string, unknown>>, screenHtml: string): string | undefined;
}

/** Reads an API URL as this user (or answers undefined: not allowed, failed, slow). */
export type ReadAs = (url: string, principal: Principal) => Promise<unknown>;

const MODULE_FILE = join('dist-ssr', 'first-screen.cjs');

export class FirstScreens {
  private readonly modules = new Map<string, { mtimeMs: number; module: unknown }>();

  private readonly require = createRequire(import.meta.url);

  constructor(
    private readonly appDir: (app: 'shell' | RemoteName) => string,
    private readonly readAs: ReadAs,
    private readonly logger: Logger,
  ) {}

  /** The first screen's HTML for this user and path, or undefined (the page is then served without one). */
  async render(principal: Principal, path: string, search: string): Promise<string | undefined> {
    const reads = firstScreenReads(principal.userType, path, search);
    const remote = remoteFor(principal.userType, path);
    if (reads.length === 0 || !remote) return undefined;
    const [frame, screen] = await Promise.all([this.load<FrameModule>('shell', 'renderFrame'), this.load<ScreenModule>(remote, 'renderScreen')]);
    if (!frame || !screen) return undefined;
    const urls = [ME_URL, ...reads];
    const answers = await Promise.all(urls.map((url) => this.readAs(url, principal).catch(() => undefined)));
    if (answers.some((a) => a === undefined)) return undefined;
    const data = Object.fromEntries(urls.map((url, i) => [url, answers[i]]));
    try {
      const html = screen.renderScreen(path, data);
      return html === undefined ? undefined : frame.renderFrame(path, data, html);
    } catch (err) {
      this.logger.warn({ err, path, remote }, 'first screen: render failed; serving the page without it');
      return undefined;
    }
  }

  /** Loads the built modules now (at start), not on the first page a user opens. */
  async warm(apps: ReadonlyArray<'shell' | RemoteName>): Promise<void> {
    await Promise.all(apps.map((app) => this.load(app, app === 'shell' ? 'renderFrame' : 'renderScreen')));
  }

  /** The app's built module (reloaded when a new build replaces it), or undefined when not built. */
  private async load<T>(app: 'shell' | RemoteName, fn: string): Promise<T | undefined> {
    const file = join(this.appDir(app), MODULE_FILE);
    const info = await stat(file).catch(() => undefined);
    if (!info) return undefined;
    const known = this.modules.get(file);
    if (known?.mtimeMs === info.mtimeMs) return known.module as T | undefined;
    let module: unknown;
    try {
      delete this.require.cache[file];
      const loaded = this.require(file) as Record<string, unknown>;
      module = typeof loaded[fn] === 'function' ? loaded : undefined;
      if (!module) this.logger.warn({ file, fn }, 'first screen: the built module lacks its function');
    } catch (err) {
      this.logger.warn({ err, file }, 'first screen: the built module does not load');
    }
    this.modules.set(file, { mtimeMs: info.mtimeMs, module });
    return module as T | undefined;
  }
}

/** Hidden while the server-rendered copy is shown (shell/src/first-screen.ts removes the copy). */
const HIDE_APP = '<style>#ssr~#root{display:none}</style>';

/** The shell's start-up script for such pages (shell/src/first-screen-boot.ts). */
export const BOOT_SCRIPT = 'first-screen-boot.js';

const SCRIPT_TAG = /<script\b[^>]*\bsrc="(\/[\w./-]+\.js)"[^>]*><\/script>/g;

/**
 * The shell's index.html with a first screen in it: an inert copy before the app's (empty) root.
 * With the start-up script (`boot`, when built), the page's scripts are handed to it, to run
 * once the copy is painted.
 */
export function withFirstScreen(indexHtml: string, screenHtml: string, boot?: string): string | undefined {
  const root = '<div id="root"></div>';
  if (!indexHtml.includes(root) || !indexHtml.includes('</head>') || !indexHtml.includes('</body>')) return undefined;
  let html = indexHtml
    .replace('</head>', () => `${HIDE_APP}</head>`)
    .replace(root, () => `<div id="ssr" inert>${screenHtml}</div>${root}`);
  if (boot) {
    const scripts = [...indexHtml.matchAll(SCRIPT_TAG)].map((m) => m[1]!);
    html = html.replace(SCRIPT_TAG, '').replace('</body>', () => `<script defer src="/${boot}" data-app="${scripts.join(' ')}"></script></body>`);
  }
  return html;
}

/** A page made per request, compressed at a quick level (brotli 5 is a few ms for ~30 KB). */
export function compressPage(html: string, acceptEncoding: string): { body: Buffer; encoding?: 'br' | 'gzip' } {
  const raw = Buffer.from(html);
  if (/\bbr\b/.test(acceptEncoding)) return { body: brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }), encoding: 'br' };
  if (/\bgzip\b/.test(acceptEncoding)) return { body: gzipSync(raw, { level: 6 }), encoding: 'gzip' };
  return { body: raw };
}
