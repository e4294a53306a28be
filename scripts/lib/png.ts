import { deflateSync } from 'node:zlib';
import type { SeedShape as Shape } from '@dme/catalog/seed';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** Encodes an RGB image; pixel(x, y) returns [r, g, b]. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let o = 0;
  for (let y = 0; y < height; y++) {
    raw[o++] = 0;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[o++] = r;
      raw[o++] = g;
      raw[o++] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
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


/** A simple product pictogram: a soft background and a bold shape, drawn here (no download). */
export function productPng(shape: Shape, hue: number, size = 320): Buffer {
  const bg = hsl(hue, 0.35, 0.93);
  const fg = hsl(hue, 0.55, 0.38);
  const s = size;
  const inCircle = (x: number, y: number, cx: number, cy: number, r: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  const ring = (x: number, y: number, cx: number, cy: number, r: number, w: number) => {
    const d = Math.sqrt((x - cx) ** 2 + (y - cy) ** 2);
    return d <= r && d >= r - w;
  };
  const rect = (x: number, y: number, x0: number, y0: number, x1: number, y1: number) => x >= x0 * s && x <= x1 * s && y >= y0 * s && y <= y1 * s;
  const draw: Record<Shape, (x: number, y: number) => boolean> = {
    wheelchair: (x, y) => ring(x, y, s * 0.45, s * 0.62, s * 0.22, s * 0.04) || rect(x, y, 0.3, 0.22, 0.36, 0.6) || rect(x, y, 0.3, 0.55, 0.7, 0.6) || inCircle(x, y, s * 0.72, s * 0.8, s * 0.05),
    bed: (x, y) => rect(x, y, 0.15, 0.5, 0.85, 0.58) || rect(x, y, 0.15, 0.3, 0.2, 0.75) || rect(x, y, 0.8, 0.4, 0.85, 0.75) || rect(x, y, 0.22, 0.42, 0.4, 0.5),
    tank: (x, y) => rect(x, y, 0.35, 0.3, 0.65, 0.8) || rect(x, y, 0.44, 0.18, 0.56, 0.3) || inCircle(x, y, s * 0.5, s * 0.3, s * 0.15),
    walker: (x, y) => rect(x, y, 0.3, 0.25, 0.7, 0.3) || rect(x, y, 0.3, 0.25, 0.35, 0.8) || rect(x, y, 0.65, 0.25, 0.7, 0.8) || rect(x, y, 0.3, 0.5, 0.7, 0.54),
    mist: (x, y) => rect(x, y, 0.25, 0.55, 0.75, 0.8) || rect(x, y, 0.45, 0.35, 0.55, 0.55) || inCircle(x, y, s * 0.5, s * 0.28, s * 0.1),
    lift: (x, y) => rect(x, y, 0.25, 0.2, 0.3, 0.82) || rect(x, y, 0.25, 0.2, 0.7, 0.25) || rect(x, y, 0.2, 0.78, 0.8, 0.82) || ring(x, y, s * 0.62, s * 0.5, s * 0.12, s * 0.03),
    glove: (x, y) => rect(x, y, 0.35, 0.45, 0.65, 0.82) || [0.36, 0.44, 0.52, 0.6].some((c) => rect(x, y, c, 0.2, c + 0.05, 0.5)) || rect(x, y, 0.22, 0.45, 0.35, 0.52),
    gauge: (x, y) => ring(x, y, s * 0.5, s * 0.45, s * 0.25, s * 0.05) || rect(x, y, 0.48, 0.3, 0.52, 0.47) || rect(x, y, 0.3, 0.75, 0.7, 0.85),
    scope: (x, y) => ring(x, y, s * 0.5, s * 0.35, s * 0.2, s * 0.04) || rect(x, y, 0.48, 0.55, 0.52, 0.75) || inCircle(x, y, s * 0.5, s * 0.8, s * 0.07),
    thermo: (x, y) => rect(x, y, 0.45, 0.15, 0.55, 0.7) || inCircle(x, y, s * 0.5, s * 0.75, s * 0.1),
    gun: (x, y) => rect(x, y, 0.2, 0.3, 0.75, 0.45) || rect(x, y, 0.3, 0.45, 0.42, 0.8),
    mask: (x, y) => ring(x, y, s * 0.35, s * 0.5, s * 0.14, s * 0.04) || ring(x, y, s * 0.65, s * 0.5, s * 0.14, s * 0.04) || rect(x, y, 0.47, 0.47, 0.53, 0.5),
  };
  return encodePng(s, s, (x, y) => (draw[shape](x, y) ? fg : bg));
}
