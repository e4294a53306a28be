import { describe, expect, it } from 'vitest';
import { cacheNames, cacheRuleFor, chunksToKeep, isDriverScreen, lastPageKey, pageKey, storeFor } from './rules';

const O = 'https://shop.example';
const rule = (path: string, method = 'GET', mode = 'cors') => cacheRuleFor(`${O}${path}`, method, mode, O);

describe("the driver app's service worker: which requests it answers, and how (cacheRuleFor)", () => {
  it("answers the driver's screens network first, and no other screen", () => {
    for (const path of ['/admin/today', '/admin/for-delivery', '/admin/for-pickup', '/admin/for-delivery/8f3c', '/admin/for-pickup/8f3c/handover', '/admin/today/']) {
      expect(rule(path, 'GET', 'navigate'), path).toBe('network-first');
      expect(isDriverScreen(path), path).toBe(true);
    }
    for (const path of ['/admin/orders', '/admin/warehouse-bins', '/admin/payments', '/admin/users', '/dashboard', '/login', '/', '/admin/for-delivery/1/2', '/admin/today/x', '/admin/for-deliveryx']) {
      expect(rule(path, 'GET', 'navigate'), path).toBe('none');
    }
  });

  it("keeps the driver's API reads and the session read (network first), nothing else of the API", () => {
    for (const path of ['/api/driver/today', '/api/driver/orders?purpose=DELIVERY&limit=20&offset=0', '/api/driver/orders/8f3c', '/api/auth/me']) {
      expect(rule(path), path).toBe('network-first');
    }
    for (const path of ['/api/orders', '/api/events', '/api/payments?status=PENDING', '/api/auth/me/preferences', '/api/uploads/ab.png', '/api/users']) {
      expect(rule(path), path).toBe('none');
    }
  });

  it('never touches a write, whatever the path', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']) {
      expect(rule('/api/driver/scan', method)).toBe('none');
      expect(rule('/api/driver/orders/8f3c/handover', method)).toBe('none');
      expect(rule('/api/driver/today/stops', method)).toBe('none');
      expect(rule('/admin/today', method, 'navigate')).toBe('none');
      expect(rule('/main.0123abcdef.js', method)).toBe('none');
    }
  });

  it("keeps the shell's and the driver app's built files: hashed names cache first, fixed names network first", () => {
    expect(rule('/main.0123abcdef.js', 'GET', 'no-cors')).toBe('cache-first');
    expect(rule('/540.89abcdef01.js')).toBe('cache-first');
    expect(rule('/remotes/mf-driver/289.45c3388595.js', 'GET', 'no-cors')).toBe('cache-first');
    expect(rule('/remotes/mf-driver/__federation_expose_app.5101baca6d.js')).toBe('cache-first');
    for (const path of ['/remotes/mf-driver/mf-manifest.json', '/remotes/mf-driver/remoteEntry.js', '/first-screen-boot.js', '/remotes/mf-driver/driver.webmanifest']) {
      expect(rule(path), path).toBe('network-first');
    }
  });

  it("never keeps another role's remote, its own script, or another origin's files", () => {
    for (const path of ['/remotes/mf-warehouse/remoteEntry.js', '/remotes/mf-warehouse/12.0123abcdef.js', '/remotes/mf-accounting/mf-manifest.json', '/remotes/mf-shop/3.0123abcdef.js', '/remotes/mf-driver/sw.js', '/remotes/mf-driver/', '/api/docs/assets/swagger-ui.css']) {
      expect(rule(path), path).toBe('none');
    }
    expect(cacheRuleFor('https://cdn.example/main.0123abcdef.js', 'GET', 'no-cors', O)).toBe('none');
    expect(cacheRuleFor('https://cdn.example/admin/today', 'GET', 'navigate', O)).toBe('none');
  });

  it('puts pages, API answers and built files in their own caches; the first two per user', () => {
    expect(storeFor(`${O}/admin/today`, 'navigate')).toBe('pages');
    expect(storeFor(`${O}/api/driver/today`, 'cors')).toBe('api');
    expect(storeFor(`${O}/main.0123abcdef.js`, 'no-cors')).toBe('static');
    const a = cacheNames('7f1a1f40-0000-4000-8000-00000000abcd', 'v1');
    const b = cacheNames('11111111-0000-4000-8000-000000000001', 'v1');
    expect(a.pages).not.toBe(b.pages);
    expect(a.api).not.toBe(b.api);
    expect(a.static).toBe(b.static);
    expect(Object.values(a).every((n) => n.startsWith('dme-driver-'))).toBe(true);
    // Nothing but the id's safe characters reaches a cache name.
    expect(cacheNames('../x y', 'v1').api).toBe('dme-driver-api-xy');
    expect(cacheNames('', 'v1').api).toBe('dme-driver-api-anonymous');
  });

  it('keeps a page under its path, and any driver page serves one never opened online', () => {
    expect(pageKey(`${O}/admin/for-delivery/8f3c?tab=1#top`)).toBe(`${O}/admin/for-delivery/8f3c`);
    expect(lastPageKey(O)).toBe(`${O}/admin/__driver-app`);
  });
});

describe("the driver app's chunks named by its federation manifest (chunksToKeep)", () => {
  it("lists the exposed app's hashed files, not the shared modules' own copies", () => {
    const manifest = {
      metaData: { publicPath: '/remotes/mf-driver/' },
      shared: [{ name: 'react', assets: { js: { sync: ['181.6c97c5f4a6.js'], async: [] } } }],
      exposes: [{ name: 'app', assets: { js: { sync: ['289.45c3388595.js', '__federation_expose_app.5101baca6d.js'], async: ['145.f97ec62dfd.js', '../evil.0123456789.js'] }, css: { sync: [], async: ['9.0123456789.css'] } } }],
    };
    expect(chunksToKeep(manifest, O)).toEqual([
      `${O}/remotes/mf-driver/289.45c3388595.js`,
      `${O}/remotes/mf-driver/__federation_expose_app.5101baca6d.js`,
      `${O}/remotes/mf-driver/145.f97ec62dfd.js`,
      `${O}/remotes/mf-driver/9.0123456789.css`,
    ]);
  });

  it('answers an empty list for anything else', () => {
    for (const bad of [null, 'x', {}, { exposes: 'no' }, { exposes: [null] }]) expect(chunksToKeep(bad, O)).toEqual([]);
    // A public path elsewhere is not followed.
    expect(chunksToKeep({ metaData: { publicPath: 'https://evil.example/' }, exposes: [{ assets: { js: { sync: ['1.0123456789.js'] } } }] }, O)).toEqual([`${O}/remotes/mf-driver/1.0123456789.js`]);
  });
});
