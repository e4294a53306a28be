import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { brandColor, driverManifest, iconPng, pwaAssets } from './assets.mjs';

/** Width, height and the RGBA pixel at (x, y) of a PNG (8-bit RGBA, decoded by pngjs). */
function readPng(png: Buffer) {
  expect([png[24], png[25]]).toEqual([8, 6]); // 8-bit RGBA
  const img = PNG.sync.read(png);
  const pixel = (x: number, y: number) => [...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4)];
  return { width: img.width, height: img.height, pixel };
}

describe("the driver app's manifest and icons (built by rspack.config.mjs)", () => {
  const color = brandColor(join(__dirname, '..', '..', '..', 'packages', 'ui', 'src', 'theme-config.ts'));

  it("takes the shop's brand colour from the theme", () => {
    expect(color).toBe('#0b6e79');
  });

  it('is an installable standalone app starting at Today, with 192 and 512 px icons, plain and maskable', () => {
    const m = driverManifest(color);
    expect(m).toMatchObject({ name: 'DME Driver', short_name: 'Driver', start_url: '/admin/today', scope: '/admin/', display: 'standalone', theme_color: '#0b6e79' });
    expect(m.start_url.startsWith(m.scope)).toBe(true);
    for (const purpose of ['any', 'maskable']) {
      expect(m.icons.filter((i) => i.purpose === purpose).map((i) => i.sizes).sort()).toEqual(['192x192', '512x512']);
    }
    const files = pwaAssets(color);
    for (const icon of m.icons) {
      const png = files.get(icon.src.slice('/remotes/mf-driver/'.length));
      expect(png, icon.src).toBeDefined();
      const { width, height } = readPng(png!);
      expect(`${width}x${height}`).toBe(icon.sizes);
    }
    expect(JSON.parse(files.get('driver.webmanifest')!.toString('utf8'))).toEqual(m);
  });

  it('draws the same bytes on every build: a white D on the brand colour, round corners only where not maskable', () => {
    expect(iconPng(192, 'any', color).equals(iconPng(192, 'any', color))).toBe(true);
    const plain = readPng(iconPng(192, 'any', color));
    expect(plain.pixel(0, 0)[3]).toBe(0); // a transparent corner
    expect(plain.pixel(96, 96)).toEqual([0x0b, 0x6e, 0x79, 255]); // inside the D's bow
    expect(plain.pixel(Math.round(192 * 0.35), 96)).toEqual([255, 255, 255, 255]); // its stem
    const maskable = readPng(iconPng(192, 'maskable', color));
    expect(maskable.pixel(0, 0)).toEqual([0x0b, 0x6e, 0x79, 255]); // full bleed
  });
});
