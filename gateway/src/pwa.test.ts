import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@dme/platform';
import { listen, TEST_INTERNAL_TOKEN, TINY_PNG, type TestServer } from '@dme/testing';
import { GatewayEnv } from './config';
import { createApp } from './app';

/*
 * The driver app as an installable app (issue 28, part 4a): its manifest, icons and service worker
 * are files of its build (mf-driver/dist), served from /remotes/mf-driver/ like the rest of it.
 * The worker controls the driver's screens under /admin/, which only this header allows.
 */
let root: string;
let gateway: TestServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dme-pwa-'));
  for (const app of ['shell', 'mf-driver', 'mf-warehouse']) await mkdir(join(root, app, 'dist'), { recursive: true });
  await writeFile(join(root, 'shell', 'dist', 'index.html'), '<!doctype html><title>DME</title><div id="root"></div>');
  await writeFile(join(root, 'mf-driver', 'dist', 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await writeFile(join(root, 'mf-driver', 'dist', 'driver.webmanifest'), JSON.stringify({ name: 'DME Driver', start_url: '/admin/today', scope: '/admin/' }));
  await writeFile(join(root, 'mf-driver', 'dist', 'icon-192.png'), TINY_PNG);
  await writeFile(join(root, 'mf-warehouse', 'dist', 'sw.js'), '// not a worker anyone registers');
  // No service answers here: only static files are asked for.
  const config = GatewayEnv.parse({ INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, STATIC_ROOT: root, IDENTITY_URL: 'http://127.0.0.1:9' });
  gateway = await listen(createApp({ config, logger: createLogger('gateway-pwa-test', 'silent') }));
});

afterAll(async () => {
  await gateway?.close();
  await rm(root, { recursive: true, force: true });
});

const get = (path: string) => fetch(`${gateway.url}${path}`);

describe("the driver app's installable files", () => {
  it('serves the service worker as JavaScript, revalidated on every check, allowed to control /admin/', async () => {
    const res = await get('/remotes/mf-driver/sw.js?u=7f1a1f40-0000-4000-8000-00000000abcd');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('service-worker-allowed')).toBe('/admin/');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('gives no other file (nor another remote’s script of the same name) a wider scope', async () => {
    expect((await get('/remotes/mf-warehouse/sw.js')).headers.get('service-worker-allowed')).toBeNull();
    expect((await get('/remotes/mf-driver/driver.webmanifest')).headers.get('service-worker-allowed')).toBeNull();
  });

  it('serves the manifest as application/manifest+json and the icons as PNG, revalidated', async () => {
    const manifest = await get('/remotes/mf-driver/driver.webmanifest');
    expect(manifest.status).toBe(200);
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8');
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    expect(await manifest.json()).toMatchObject({ name: 'DME Driver', start_url: '/admin/today' });
    const icon = await get('/remotes/mf-driver/icon-192.png');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await icon.arrayBuffer()).equals(TINY_PNG)).toBe(true);
  });

  it("keeps the page's strict CSP, which lets the page load its manifest and worker from this origin", async () => {
    const page = await get('/admin/today');
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    // worker-src and manifest-src fall back to script-src / default-src: 'self'.
    expect(csp).not.toMatch(/worker-src|manifest-src/);
  });
});
