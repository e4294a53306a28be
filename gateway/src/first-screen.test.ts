import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { firstScreenReads, ME_URL } from '@dme/contracts';
import { createLogger } from '@dme/platform';
import { compressPage, FirstScreens, withFirstScreen } from './first-screen';
import type { Principal } from './session';

/*
 * The gateway's part of the server-rendered first screen (issue 13): which reads it makes and as
 * whom, how it composes the shell's frame and the remote's screen, and that anything missing or
 * failing serves the page as before. The modules here are stand-ins that echo what they are given;
 * the real ones are tested in shell and mf-shop, and the whole in the e2e suite.
 */
const customer: Principal = { userId: 'u-1', userType: 'CUSTOMER', username: 'ana', sessionId: 's-1' };
const staff: Principal = { userId: 'u-2', userType: 'WAREHOUSE_ADMIN', username: 'wes', sessionId: 's-2' };

let root: string;
const logger = createLogger('first-screen-test', 'silent');

async function writeModule(app: string, source: string): Promise<void> {
  await mkdir(join(root, app, 'dist-ssr'), { recursive: true });
  await writeFile(join(root, app, 'dist-ssr', 'first-screen.cjs'), source);
}

const FRAME = `exports.renderFrame = (path, reads, screen) => reads[${JSON.stringify(ME_URL)}] ? '<frame user="' + reads[${JSON.stringify(ME_URL)}].user + '" path="' + path + '">' + screen + '</frame>' : undefined;`;
const SCREEN = `exports.renderScreen = (path, reads) => path === '/dashboard' ? '<screen>' + Object.keys(reads).length + ' reads</screen>' : undefined;`;

function screens(answer: (url: string, p: Principal) => unknown = (url) => (url === ME_URL ? { user: 'ana' } : { items: [] })) {
  const reads: Array<[string, Principal]> = [];
  const fs = new FirstScreens((app) => join(root, app), async (url, p) => (reads.push([url, p]), answer(url, p)), logger);
  return { fs, reads };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'first-screen-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('FirstScreens', () => {
  it("reads the session and the screen's first reads as the user, and puts the screen in the shell's frame", async () => {
    await writeModule('shell', FRAME);
    await writeModule('mf-shop', SCREEN);
    const { fs, reads } = screens();
    const reads0 = firstScreenReads('CUSTOMER', '/dashboard');
    expect(await fs.render(customer, '/dashboard', '')).toBe(`<frame user="ana" path="/dashboard"><screen>${reads0.length + 1} reads</screen></frame>`);
    expect(reads).toEqual([ME_URL, ...reads0].map((url) => [url, customer]));
  });

  it('serves none where there is no first screen: other screens, a search, staff, no built module', async () => {
    await writeModule('shell', FRAME);
    const { fs, reads } = screens();
    expect(await fs.render(customer, '/dashboard', '')).toBeUndefined(); // the shop's module is not built
    await writeModule('mf-shop', SCREEN);
    expect(await fs.render(customer, '/cart', '')).toBeUndefined();
    expect(await fs.render(customer, '/dashboard', '?search=bed')).toBeUndefined();
    expect(await fs.render(staff, '/admin/warehouse-bins', '')).toBeUndefined();
    expect(reads).toEqual([]);
  });

  it('serves none when a read fails or a module declines or throws (and logs the throw)', async () => {
    await writeModule('shell', FRAME);
    await writeModule('mf-shop', SCREEN);
    const failing = screens((url) => (url === ME_URL ? { user: 'ana' } : url.includes('FOR_SALE') ? undefined : { items: [] }));
    expect(await failing.fs.render(customer, '/dashboard', '')).toBeUndefined();
    const rejecting = screens((url) => (url === ME_URL ? Promise.reject(new Error('down')) : { items: [] }));
    expect(await rejecting.fs.render(customer, '/dashboard', '')).toBeUndefined();

    const warn = vi.spyOn(logger, 'warn');
    await writeModule('mf-shop', `exports.renderScreen = () => { throw new Error('boom'); };`);
    expect(await screens().fs.render(customer, '/dashboard', '')).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ path: '/dashboard', remote: 'mf-shop' }), expect.stringContaining('render failed'));
    await writeModule('mf-shop', 'exports.somethingElse = 1;');
    expect(await screens().fs.render(customer, '/dashboard', '')).toBeUndefined();
    await writeModule('mf-shop', 'this is not javascript');
    expect(await screens().fs.render(customer, '/dashboard', '')).toBeUndefined();
  });

  it('loads a new build of a module when it replaces the old one', async () => {
    await writeModule('shell', FRAME);
    await writeModule('mf-shop', SCREEN);
    const { fs } = screens();
    expect(await fs.render(customer, '/dashboard', '')).toContain('<screen>');
    await writeModule('mf-shop', `exports.renderScreen = () => '<new/>';`);
    const later = new Date(Date.now() + 5000);
    await utimes(join(root, 'mf-shop', 'dist-ssr', 'first-screen.cjs'), later, later);
    expect(await fs.render(customer, '/dashboard', '')).toContain('<new/>');
  });
});

describe('withFirstScreen', () => {
  const index = '<!doctype html><html><head><title>DME</title></head><body><div id="root"></div><script defer src="/main.0123abcd.js"></script><script defer src="/vendor.4567cdef.js"></script></body></html>';

  it('puts an inert copy before the hidden root and hands the scripts to the start-up script', () => {
    const page = withFirstScreen(index, '<p>$& $1 screen</p>', 'first-screen-boot.js')!;
    expect(page).toContain('<style>#ssr~#root{display:none}</style></head>');
    expect(page).toContain('<div id="ssr" inert><p>$& $1 screen</p></div><div id="root"></div>');
    expect(page).not.toContain('<script defer src="/main.0123abcd.js">');
    expect(page).toContain('<script defer src="/first-screen-boot.js" data-app="/main.0123abcd.js /vendor.4567cdef.js"></script></body>');
  });

  it('keeps the scripts without a start-up script, and declines a page it does not recognise', () => {
    expect(withFirstScreen(index, '<p>x</p>')).toContain('<script defer src="/main.0123abcd.js"></script>');
    expect(withFirstScreen('<html><body><main></main></body></html>', '<p>x</p>')).toBeUndefined();
  });
});

describe('compressPage', () => {
  it('answers brotli or gzip as the browser accepts, else the page as it is', () => {
    const html = `<p>${'first screen '.repeat(500)}</p>`;
    const br = compressPage(html, 'gzip, deflate, br');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(html);
    const gz = compressPage(html, 'gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(html);
    expect(compressPage(html, '')).toEqual({ body: Buffer.from(html) });
  });
});
