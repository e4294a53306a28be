import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { avatarPng, encodePng, hsl } from './png';

/** The [r, g, b, a] of a decoded picture's pixel. */
const at = (png: PNG, x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 4)];

describe('seed pictures (png.ts, encoded by pngjs)', () => {
  it('encodes every pixel as given, as an 8-bit RGB picture', () => {
    const pixel = (x: number, y: number): [number, number, number] => [(x * 37) % 256, (y * 53) % 256, (x * y) % 256];
    const buf = encodePng(7, 5, pixel);
    expect([...buf.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const png = PNG.sync.read(buf);
    expect([png.width, png.height]).toEqual([7, 5]);
    expect(png.colorType).toBe(2);
    expect(png.alpha).toBe(false);
    expect(png.depth).toBe(8);
    for (let y = 0; y < 5; y++) for (let x = 0; x < 7; x++) expect(at(png, x, y), `${x},${y}`).toEqual([...pixel(x, y), 255]);
  });

  it('encodes a one-pixel and a wide picture', () => {
    expect(at(PNG.sync.read(encodePng(1, 1, () => [1, 2, 3])), 0, 0)).toEqual([1, 2, 3, 255]);
    const wide = PNG.sync.read(encodePng(300, 2, (x, y) => [x % 256, y * 255, 255 - (x % 256)]));
    expect(at(wide, 299, 1)).toEqual([43, 255, 212, 255]);
  });

  it('draws an avatar: a darker figure on a light background of the same hue', () => {
    const png = PNG.sync.read(avatarPng(200));
    expect([png.width, png.height]).toEqual([96, 96]);
    expect(at(png, 0, 0)).toEqual([...hsl(200, 0.45, 0.9), 255]);
    // The head's middle (48, 38) and the shoulders' (48, 90) are the figure's colour.
    expect(at(png, 48, 38)).toEqual([...hsl(200, 0.55, 0.45), 255]);
    expect(at(png, 48, 90)).toEqual([...hsl(200, 0.55, 0.45), 255]);
    expect([PNG.sync.read(avatarPng(10, 32)).width]).toEqual([32]);
  });
});
