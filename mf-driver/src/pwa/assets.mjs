// Build-time (Node) only: the driver app's web app manifest and its icons, written by
// mf-driver/rspack.config.mjs into dist/ beside sw.js (issue 28, part 4a). Drawn here rather than
// committed as binaries: the same bytes on every build (pngjs encodes them), and the colour
// follows the shop's theme.
import { readFileSync } from 'node:fs';
import pngjs from 'pngjs';

const { PNG } = pngjs;

/** Where the gateway serves the driver app's files. */
export const BASE = '/remotes/mf-driver/';

/** The shop's brand colour, read from the theme every app uses (packages/ui/src/theme-config.ts). */
export function brandColor(themeConfigFile) {
  const m = /colorPrimary:\s*'(#[0-9a-fA-F]{6})'/.exec(readFileSync(themeConfigFile, 'utf8'));
  if (!m) throw new Error(`${themeConfigFile}: no colorPrimary '#rrggbb' found for the driver app's manifest`);
  return m[1].toLowerCase();
}

/** The icons: name, size, purpose ("maskable" ones keep the letter inside the middle 80% circle). */
export const ICONS = [
  { name: 'icon-192.png', size: 192, purpose: 'any' },
  { name: 'icon-512.png', size: 512, purpose: 'any' },
  { name: 'icon-maskable-192.png', size: 192, purpose: 'maskable' },
  { name: 'icon-maskable-512.png', size: 512, purpose: 'maskable' },
];

export function driverManifest(themeColor) {
  return {
    id: '/admin/today',
    name: 'DME Driver',
    short_name: 'Driver',
    description: "The driver's deliveries and pick-ups, also without signal.",
    start_url: '/admin/today',
    scope: '/admin/',
    display: 'standalone',
    theme_color: themeColor,
    background_color: '#ffffff',
    icons: ICONS.map((i) => ({ src: `${BASE}${i.name}`, sizes: `${i.size}x${i.size}`, type: 'image/png', purpose: i.purpose })),
  };
}

/** An 8-bit RGBA PNG (pngjs); `rgba` holds width × height × 4 bytes, row by row. */
export function encodePng(width, height, rgba) {
  const png = new PNG({ width, height, colorType: 6, bitDepth: 8 });
  rgba.copy(png.data);
  return PNG.sync.write(png, { colorType: 6, deflateLevel: 9 });
}

/** Whether (x, y), in units of the icon's side, is on the white "D" (scaled by `k` about the middle). */
function onLetter(x, y, k) {
  const u = 0.5 + (x - 0.5) / k;
  const v = 0.5 + (y - 0.5) / k;
  const [x0, top, bottom, stroke] = [0.31, 0.24, 0.76, 0.1];
  const r = (bottom - top) / 2;
  const mid = (top + bottom) / 2;
  const bend = 0.44; // where the straight part ends and the bow begins
  const inside = (left, radius) => u >= left && Math.abs(v - mid) <= radius && (u <= bend || (u - bend) ** 2 + (v - mid) ** 2 <= radius ** 2);
  return inside(x0, r) && !inside(x0 + stroke, r - stroke);
}

/** Whether (x, y) is on the background: a rounded square ("any"), the whole square (maskable). */
function onBackground(x, y, maskable) {
  if (maskable) return true;
  const radius = 0.18;
  const dx = Math.max(radius - x, 0, x - (1 - radius));
  const dy = Math.max(radius - y, 0, y - (1 - radius));
  return dx * dx + dy * dy <= radius * radius;
}

/** The icon as a PNG: a white "D" on the brand colour, edges smoothed by 4×4 samples a pixel. */
export function iconPng(size, purpose, color) {
  const maskable = purpose === 'maskable';
  const [br, bg, bb] = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  const k = maskable ? 0.8 : 1;
  const rgba = Buffer.alloc(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let covered = 0;
      let white = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          if (!onBackground(x, y, maskable)) continue;
          covered++;
          if (onLetter(x, y, k)) white++;
        }
      }
      const o = (py * size + px) * 4;
      if (covered === 0) continue; // transparent corner
      const w = white / covered;
      rgba[o] = Math.round(br + (255 - br) * w);
      rgba[o + 1] = Math.round(bg + (255 - bg) * w);
      rgba[o + 2] = Math.round(bb + (255 - bb) * w);
      rgba[o + 3] = Math.round((255 * covered) / (n * n));
    }
  }
  return encodePng(size, size, rgba);
}

/** Every file the build adds for the installable app: name → contents. */
export function pwaAssets(themeColor) {
  const files = new Map([['driver.webmanifest', Buffer.from(`${JSON.stringify(driverManifest(themeColor), null, 2)}\n`)]]);
  for (const icon of ICONS) files.set(icon.name, iconPng(icon.size, icon.purpose, themeColor));
  return files;
}
