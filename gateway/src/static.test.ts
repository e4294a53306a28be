import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
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
let dir: string;
let server: TestServer;
let swagger: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dme-static-'));
  swagger = await mkdtemp(join(tmpdir(), 'dme-static-swagger-'));
  await writeFile(join(dir, 'main.0123abcd45.js'), big);
  // The build's copies: marked so a test can tell them from anything made on a request.
  await writeFile(join(dir, 'main.0123abcd45.js.br'), brotliCompressSync(Buffer.from(`${big}// from the build\n`)));
  await writeFile(join(dir, 'main.0123abcd45.js.gz'), gzipSync(Buffer.from(`${big}// from the build (gzip)\n`)));
  // A file the build left without copies, and one whose copies are older than the file itself.
  await writeFile(join(dir, 'plain.0123abcd45.js'), big);
  await writeFile(join(dir, 'stale.0123abcd45.js.br'), brotliCompressSync(Buffer.from('old')));
  await writeFile(join(dir, 'stale.0123abcd45.js'), big);
  const past = new Date(Date.now() - 60_000);
  await utimes(join(dir, 'stale.0123abcd45.js.br'), past, past);
  await writeFile(join(swagger, 'swagger-ui-bundle.js'), big);
  const built = new StaticFolder(dir);
  const thirdParty = new StaticFolder(swagger, { compressOnRequest: true });
  const app = new Koa();
  app.use(async (ctx) => {
    const [folder, rel] = ctx.path.startsWith('/docs/') ? [thirdParty, ctx.path.slice(6)] : [built, ctx.path];
    if (!(await folder.serve(ctx, rel))) ctx.status = 404;
  });
  server = await listen(app);
});

afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
  await rm(swagger, { recursive: true, force: true });
});

const get = (path: string, acceptEncoding: string) => fetch(`${server.url}${path}`, { headers: { 'accept-encoding': acceptEncoding } });

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

  it("compresses a third party's folder (swagger-ui) once, on its first request", async () => {
    const res = await get('/docs/swagger-ui-bundle.js', 'br');
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(await res.text()).toBe(big);
  });
});
