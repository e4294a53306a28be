import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { firstScreenPictureList, firstScreenReads, ME_URL, remoteFor, type RemoteName } from '@dme/contracts';

/**
 * Preload hints for a signed-in user's first screen (issue 13: mobile LCP). The shell's script
 * would otherwise discover, one round trip after another, that it needs the session, then the
 * role's remote manifest, then its entry and exposed app. The gateway knows all of it when it
 * serves the page (the session cookie gives the role, the path the remote), so it names them in
 * `Link: rel=preload` headers and the browser fetches them while the shell's script downloads,
 * with the first screen's data (firstScreenReads).
 *
 * The hints must match the requests the shell and the federation runtime really make (URL,
 * `as`, CORS mode), or the browser fetches twice: fetches (`/api/auth/me`, the manifest) are
 * same-origin CORS requests (`crossorigin`), scripts are plain script tags.
 */
interface ManifestEntry {
  mtimeMs: number;
  scripts: string[];
}

interface Manifest {
  metaData?: { publicPath?: string; remoteEntry?: { name?: string; path?: string } };
  exposes?: Array<{ name?: string; assets?: { js?: { sync?: string[] } } }>;
}

export class ShellHints {
  private readonly manifests = new Map<RemoteName, ManifestEntry>();

  private shellEntry: { mtimeMs: number; scripts: string[] } | undefined;

  private readonly pictures = new Map<string, { at: number; picture: Promise<string | undefined> }>();

  /**
   * @param readList reads a public API list (as the browser would) and answers its body, or
   *   undefined when it cannot at once: hints are an optimisation, never a reason to wait.
   */
  constructor(
    private readonly shellDir: string,
    private readonly remoteDir: (remote: RemoteName) => string,
    private readonly readList?: (url: string) => Promise<unknown>,
  ) {}

  /** The Link header value for a signed-in user of this type opening `path`, or undefined. */
  async linkHeader(userType: string, path: string, search = ''): Promise<string | undefined> {
    // The shell's own script first: a deferred script is a low-priority request, which Chrome
    // holds back while high-priority ones (the hints below) are in flight.
    const links = (await this.shellScripts()).map((src) => `<${src}>; rel=preload; as=script`);
    links.push(`<${ME_URL}>; rel=preload; as=fetch; crossorigin`);
    for (const url of firstScreenReads(userType, path, search)) links.push(`<${url}>; rel=preload; as=fetch; crossorigin`);
    const picture = await this.firstPicture(firstScreenPictureList(userType, path, search));
    if (picture) links.push(`<${picture}>; rel=preload; as=image; fetchpriority=high`);
    const remote = remoteFor(userType, path);
    if (remote) {
      links.push(`</remotes/${remote}/mf-manifest.json>; rel=preload; as=fetch; crossorigin`);
      for (const src of await this.scripts(remote)) links.push(`<${src}>; rel=preload; as=script`);
    }
    return links.join(', ');
  }

  /** The first item's picture of a list, remembered for a second (the list changes rarely). */
  private async firstPicture(list: string | undefined): Promise<string | undefined> {
    if (!list || !this.readList) return undefined;
    const now = Date.now();
    let known = this.pictures.get(list);
    if (!known || now - known.at > 1000) {
      known = { at: now, picture: this.readList(list).then(firstImage, () => undefined) };
      this.pictures.set(list, known);
    }
    return known.picture;
  }

  /** The scripts the shell's index.html loads (`<script defer src="/main.<hash>.js">`). */
  private async shellScripts(): Promise<string[]> {
    const file = join(this.shellDir, 'index.html');
    const info = await stat(file).catch(() => undefined);
    if (!info) return [];
    if (this.shellEntry?.mtimeMs !== info.mtimeMs) {
      const html = await readFile(file, 'utf8').catch(() => '');
      this.shellEntry = { mtimeMs: info.mtimeMs, scripts: htmlScripts(html) };
    }
    return this.shellEntry.scripts;
  }

  /** The remote's entry and the exposed app's own scripts, read from its built manifest. */
  private async scripts(remote: RemoteName): Promise<string[]> {
    const file = join(this.remoteDir(remote), 'mf-manifest.json');
    const info = await stat(file).catch(() => undefined);
    if (!info) return [];
    const cached = this.manifests.get(remote);
    if (cached && cached.mtimeMs === info.mtimeMs) return cached.scripts;
    let scripts: string[] = [];
    try {
      scripts = manifestScripts(JSON.parse(await readFile(file, 'utf8')) as Manifest, remote);
    } catch {
      // A manifest being rewritten by a build: no hints this time (they only speed things up).
    }
    this.manifests.set(remote, { mtimeMs: info.mtimeMs, scripts });
    return scripts;
  }
}

/** Script URLs of a remote's first screen: remoteEntry.js and the `./app` expose's sync chunks. */
export function manifestScripts(manifest: Manifest, remote: RemoteName): string[] {
  const base = `/remotes/${remote}/`;
  const safe = (name: string) => /^[\w.-]+\.js$/.test(name);
  const entry = manifest.metaData?.remoteEntry;
  const out: string[] = [];
  if (entry?.name && safe(entry.name) && !entry.path) out.push(base + entry.name);
  const app = manifest.exposes?.find((e) => e.name === 'app');
  for (const name of app?.assets?.js?.sync ?? []) if (safe(name)) out.push(base + name);
  return out;
}

/** Same-origin script URLs of an HTML page (the shell's built index.html). */
export function htmlScripts(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*\bsrc="(\/[\w./-]+\.js)"/g)].map((m) => m[1]!);
}

/** The `image` of a list answer's first item, when it is one of our uploads. */
export function firstImage(body: unknown): string | undefined {
  const items = (body as { items?: unknown } | undefined)?.items;
  const image = Array.isArray(items) ? (items[0] as { image?: unknown } | undefined)?.image : undefined;
  return typeof image === 'string' && /^\/api\/uploads\/[\w.-]+$/.test(image) ? image : undefined;
}
