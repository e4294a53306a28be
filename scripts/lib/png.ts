import { PNG } from 'pngjs';

/** Encodes an RGB image (8 bits a channel, no alpha) with pngjs; pixel(x, y) returns [r, g, b]. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  let o = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      png.data[o++] = r;
      png.data[o++] = g;
      png.data[o++] = b;
      png.data[o++] = 255;
    }
  }
  // pngjs holds RGBA; colour type 2 writes RGB, as the seed's pictures always were. Flat drawings
  // pack smallest unfiltered, with zlib's usual strategy (a 96 px avatar: 357 bytes; with pngjs's
  // defaults, adaptive filters and run-length deflate, 607).
  return PNG.sync.write(png, { colorType: 2, filterType: 0, deflateStrategy: 0, deflateLevel: 9 });
}

/** A soft two-colour avatar: a disc on a background. */
export function avatarPng(hue: number, size = 96): Buffer {
  const bg = hsl(hue, 0.45, 0.9);
  const fg = hsl(hue, 0.55, 0.45);
  const c = size / 2;
  return encodePng(size, size, (x, y) => {
    const head = (x - c) ** 2 + (y - c * 0.8) ** 2 < (size * 0.2) ** 2;
    const body = (x - c) ** 2 / (size * 0.34) ** 2 + (y - size * 1.05) ** 2 / (size * 0.45) ** 2 < 1;
    return head || body ? fg : bg;
  });
}

export function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

