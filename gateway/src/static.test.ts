import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type TestServer } from '@dme/testing';
import { StaticFolder } from './static';

/*
 * Built assets are compressed by the build (rspack.base.mjs writes `.br` and `.gz` beside each
 * file) and served as they are: a request never waits for a compression (issue 22, bringing issue
 * 30's item 6 forward: on a busy machine a screen's first visitor waited seconds for brotli 11).
 */
const big = `export const text = ${JSON.stringify('a chunk of the shop '.repeat(400))};\n`;
let base: string;
let dir: string;
let server: TestServer;
let swagger: string;
let built: StaticFolder;
const past = new Date(Date.now() - 60_000);

beforeAll(async () => {
  // The folder served is base/site; base/secret.txt is beside it, out of reach.
  base = await mkdtemp(join(tmpdir(), 'dme-static-'));
  dir = join(base, 'site');
  await mkdir(join(dir, 'sub'), { recursive: true });
  await writeFile(join(base, 'secret.txt'), 'secret');
  swagger = await mkdtemp(join(tmpdir(), 'dme-static-swagger-'));
  await writeFile(join(dir, 'main.0123abcd45.js'), big);
  // The build's copies: marked so a test can tell them from anything made on a request.
  await writeFile(join(dir, 'main.0123abcd45.js.br'), brotliCompressSync(Buffer.from(`${big}// from the build\n`)));
  await writeFile(join(dir, 'main.0123abcd45.js.gz'), gzipSync(Buffer.from(`${big}// from the build (gzip)\n`)));
  // A file the build left without copies, and one whose copies are older than the file itself.
  await writeFile(join(dir, 'plain.0123abcd45.js'), big);
  await writeFile(join(dir, 'stale.0123abcd45.js.br'), brotliCompressSync(Buffer.from('old')));
  await writeFile(join(dir, 'stale.0123abcd45.js'), big);
  await utimes(join(dir, 'stale.0123abcd45.js.br'), past, past);
  // Only a gzip copy; and a stale gzip copy beside a current brotli one.
  await writeFile(join(dir, 'gzonly.0123abcd45.js'), big);
  await writeFile(join(dir, 'gzonly.0123abcd45.js.gz'), gzipSync(Buffer.from(`${big}// gzip only\n`)));
  await writeFile(join(dir, 'mixed.0123abcd45.js.gz'), gzipSync(Buffer.from('old')));
  await writeFile(join(dir, 'mixed.0123abcd45.js'), big);
  await writeFile(join(dir, 'mixed.0123abcd45.js.br'), brotliCompressSync(Buffer.from(`${big}// mixed\n`)));
  await utimes(join(dir, 'mixed.0123abcd45.js.gz'), past, past);
  // Files with fixed names, types of their own, a name to encode, a hidden one, one in a folder.
  await writeFile(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(join(dir, 'remoteEntry.js'), 'var entry;');
  await writeFile(join(dir, 'manifest.webmanifest'), '{"name":"Driver"}');
  await writeFile(join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  await writeFile(join(dir, 'module.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d]));
  await writeFile(join(dir, 'with space.txt'), 'spaced');
  await writeFile(join(dir, '.env'), 'SECRET=1');
  await writeFile(join(dir, 'sub', 'inner.txt'), 'inner');
  await writeFile(join(swagger, 'swagger-ui-bundle.js'), big);
  await writeFile(join(swagger, 'swagger-ui.css'), big);
  await writeFile(join(swagger, 'swagger-ui.css.br'), brotliCompressSync(Buffer.from(`${big}/* from a build */\n`)));
  built = new StaticFolder(dir);
  const thirdParty = new StaticFolder(swagger);
  const app = new Koa();
  app.use(async (ctx) => {
    const [folder, rel] = ctx.path.startsWith('/docs/') ? [thirdParty, ctx.path.slice(6)] : [built, ctx.path];
    if (!(await folder.serve(ctx, rel))) ctx.status = 404;
  });
  server = await listen(app);
});

afterAll(async () => {
  await server.close();
  await rm(base, { recursive: true, force: true });
  await rm(swagger, { recursive: true, force: true });
});

const get = (path: string, acceptEncoding: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers: { 'accept-encoding': acceptEncoding, ...headers } });

/**
 * A request with its path and headers sent exactly as written (fetch resolves `..` and `%2e%2e`
 * first, and adds `Cache-Control: no-cache` to a request with If-None-Match or If-Modified-Since).
 */
function raw(
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers: { 'accept-encoding': 'identity', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static files of a build', () => {
  it("serves the build's brotli copy as it is to a browser that takes br, gzip's to one that takes gzip only", async () => {
    const br = await get('/main.0123abcd45.js', 'gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // fetch decodes the body: what arrives is the build's copy, not the file compressed anew.
    expect(await br.text()).toBe(`${big}// from the build\n`);
    const gz = await get('/main.0123abcd45.js', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await gz.text()).toBe(`${big}// from the build (gzip)\n`);
    const raw = await get('/main.0123abcd45.js', 'identity');
    expect(raw.headers.get('content-encoding')).toBeNull();
    expect(await raw.text()).toBe(big);
  });

  it('never compresses on a request: a file without copies, or with copies older than itself, goes as it is', async () => {
    for (const path of ['/plain.0123abcd45.js', '/stale.0123abcd45.js']) {
      const res = await get(path, 'gzip, deflate, br');
      expect(res.headers.get('content-encoding'), path).toBeNull();
      expect(await res.text(), path).toBe(big);
    }
  });

  it('chooses the copy by Accept-Encoding and its q-values; a file with a gzip copy only goes gzip', async () => {
    const cases: Array<[string, string, string | null, string]> = [
      ['/main.0123abcd45.js', 'br;q=0, gzip', 'gzip', `${big}// from the build (gzip)\n`],
      ['/main.0123abcd45.js', 'gzip;q=0, br', 'br', `${big}// from the build\n`],
      ['/main.0123abcd45.js', 'gzip;q=0, br;q=0', null, big],
      ['/gzonly.0123abcd45.js', 'gzip, deflate, br', 'gzip', `${big}// gzip only\n`],
      ['/gzonly.0123abcd45.js', 'br', null, big],
    ];
    for (const [path, accept, encoding, body] of cases) {
      const res = await get(path, accept);
      expect(res.status, `${path} ${accept}`).toBe(200);
      expect(res.headers.get('content-encoding'), `${path} ${accept}`).toBe(encoding);
      expect(res.headers.get('vary'), `${path} ${accept}`).toBe('Accept-Encoding');
      expect(await res.text(), `${path} ${accept}`).toBe(body);
    }
  });

  it('passes over a copy older than the file, each kind on its own', async () => {
    const gz = await get('/mixed.0123abcd45.js', 'gzip');
    expect(gz.headers.get('content-encoding')).toBeNull();
    expect(await gz.text()).toBe(big);
    const br = await get('/mixed.0123abcd45.js', 'gzip, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(await br.text()).toBe(`${big}// mixed\n`);
    const stale = await get('/stale.0123abcd45.js', 'br');
    expect(stale.headers.get('content-encoding')).toBeNull();
    expect(stale.headers.get('content-length')).toBe(String(Buffer.byteLength(big)));
  });

  it('revalidates with 304 by ETag or by Last-Modified, and tells a changed file by its ETag', async () => {
    const first = await get('/index.html', 'gzip, br');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(lastModified).getTime()).toBe(Math.floor((await stat(join(dir, 'index.html'))).mtimeMs / 1000) * 1000);
    const byTag = await raw('/index.html', 'GET', { 'accept-encoding': 'gzip, br', 'if-none-match': etag });
    expect(byTag.status).toBe(304);
    expect(byTag.body).toBe('');
    expect(byTag.headers.etag).toBe(etag);
    expect(byTag.headers['cache-control']).toBe('no-cache');
    expect(byTag.headers.vary).toBe('Accept-Encoding');
    expect(byTag.headers['content-encoding']).toBeUndefined();
    expect((await raw('/index.html', 'GET', { 'if-none-match': `"x", ${etag}` })).status).toBe(304);
    expect((await raw('/index.html', 'HEAD', { 'if-none-match': etag })).status).toBe(304);
    expect((await raw('/index.html', 'GET', { 'if-modified-since': lastModified })).status).toBe(304);
    expect((await raw('/index.html', 'GET', { 'if-none-match': '"something-else"' })).status).toBe(200);
    expect((await raw('/index.html', 'GET', { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() })).status).toBe(200);
    // A reload (Cache-Control: no-cache, as fetch sends with these headers) gets the file anew.
    expect((await get('/index.html', 'identity', { 'if-none-match': etag })).status).toBe(200);
    // A compressed answer revalidates the same way (the tag is the file's).
    const packed = await get('/main.0123abcd45.js', 'br');
    expect(packed.headers.get('content-encoding')).toBe('br');
    const again = await raw('/main.0123abcd45.js', 'GET', { 'accept-encoding': 'br', 'if-none-match': packed.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.headers['content-encoding']).toBeUndefined();
    // The file changes: the old tag no longer matches.
    await writeFile(join(dir, 'index.html'), '<!doctype html><div id="root"></div><!-- new build -->');
    const later = new Date(Date.now() + 5_000);
    await utimes(join(dir, 'index.html'), later, later);
    const changed = await raw('/index.html', 'GET', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.body).toContain('new build');
  });

  it('answers HEAD with the headers of a GET and no body', async () => {
    const head = await raw('/main.0123abcd45.js', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(big)));
    expect(head.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(head.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(head.headers.etag).toMatch(/^W\//);
    const packed = await fetch(`${server.url}/main.0123abcd45.js`, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect(packed.status).toBe(200);
    expect(packed.headers.get('content-encoding')).toBe('br');
    expect(packed.headers.get('content-length')).toBe(String((await stat(join(dir, 'main.0123abcd45.js.br'))).size));
  });

  it('gives each file its type and its caching: revalidated unless its name carries a hash', async () => {
    const cases: Array<[string, string, string]> = [
      ['/index.html', 'text/html; charset=utf-8', 'no-cache'],
      ['/remoteEntry.js', 'text/javascript; charset=utf-8', 'no-cache'],
      ['/manifest.webmanifest', 'application/manifest+json; charset=utf-8', 'no-cache'],
      ['/logo.png', 'image/png', 'no-cache'],
      ['/module.wasm', 'application/wasm', 'no-cache'],
      ['/main.0123abcd45.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
    ];
    for (const [path, type, caching] of cases) {
      const res = await get(path, 'identity');
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(type);
      expect(res.headers.get('cache-control'), path).toBe(caching);
    }
    const spaced = await get('/with%20space.txt', 'identity');
    expect(spaced.status).toBe(200);
    expect(await spaced.text()).toBe('spaced');
    expect(await (await get('/sub/inner.txt', 'identity')).text()).toBe('inner');
  });

  it('serves nothing outside the folder, hidden, a folder itself or missing', async () => {
    const refused = [
      '/../secret.txt',
      '/..%2Fsecret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/sub/../../secret.txt',
      '/sub/%2e%2e/%2e%2e/secret.txt',
      '/..%5Csecret.txt',
      `/${encodeURIComponent(join(base, 'secret.txt'))}`,
      '/index.html%00',
      '/%E0%A4%A',
      '/.env',
      '/sub/%2eenv',
      '/sub',
      '/sub/',
      '/',
      '/missing.0123abcd45.js',
    ];
    for (const path of refused) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('secret');
    }
    expect(await built.text('../secret.txt')).toBeUndefined();
    expect(await built.text('..%2Fsecret.txt')).toBeUndefined();
    expect(await built.text('.env')).toBeUndefined();
    expect(await built.text('sub')).toBeUndefined();
    expect(await built.text('sub/inner.txt')).toBe('inner');
  });

  it('reads a file as text, anew when it changes', async () => {
    await writeFile(join(dir, 'page.txt'), 'first');
    expect(await built.text('page.txt')).toBe('first');
    expect(await built.text('/page.txt')).toBe('first');
    await writeFile(join(dir, 'page.txt'), 'second, longer');
    expect(await built.text('page.txt')).toBe('second, longer');
    expect(await built.text('none.txt')).toBeUndefined();
  });

  it("never compresses a third party's folder (swagger-ui) on a request: its files go as they are, copies made for them are served", async () => {
    const res = await get('/docs/swagger-ui-bundle.js', 'br, gzip');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(big)));
    expect(await res.text()).toBe(big);
    const css = await get('/docs/swagger-ui.css', 'br, gzip');
    expect(css.headers.get('content-encoding')).toBe('br');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toBe(`${big}/* from a build */\n`);
  });
});
