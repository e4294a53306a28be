import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { ART_VIEWBOX, productBackgroundSvg, productSvg, SAFE, SEED_SHAPES } from './products';
import sharp from 'sharp';
import { PRODUCT_IMAGE_SIZE, productArtPng, svgToPng } from './render';

const SIZE = PRODUCT_IMAGE_SIZE;
/** The margin that must show only the background, in pixels (SAFE viewBox units, less a little for anti-aliasing). */
const MARGIN = Math.floor(((SAFE - 2) * SIZE) / ART_VIEWBOX);

function pixels(svg: string): Uint8Array {
  const img = new Resvg(svg, { fitTo: { mode: 'width', value: SIZE }, font: { loadSystemFonts: false } }).render();
  expect([img.width, img.height]).toEqual([SIZE, SIZE]);
  return img.pixels;
}

/** The bounding box of the pixels where the drawing differs from its background, or null. */
function drawnBox(drawing: Uint8Array, background: Uint8Array): { left: number; top: number; right: number; bottom: number } | null {
  let left = SIZE, top = SIZE, right = -1, bottom = -1;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const i = (y * SIZE + x) * 4;
      let diff = 0;
      for (let c = 0; c < 4; c++) diff = Math.max(diff, Math.abs(drawing[i + c]! - background[i + c]!));
      if (diff > 8) {
        left = Math.min(left, x); right = Math.max(right, x);
        top = Math.min(top, y); bottom = Math.max(bottom, y);
      }
    }
  }
  return right < 0 ? null : { left, top, right, bottom };
}

/** Whether everything drawn stays inside the safe margin on all four edges. */
function insideMargin(svg: string, background: string): boolean {
  const box = drawnBox(pixels(svg), pixels(background));
  return box !== null && box.left >= MARGIN && box.top >= MARGIN && box.right < SIZE - MARGIN && box.bottom < SIZE - MARGIN;
}

describe('product illustrations', () => {
  it('covers every seed shape', () => {
    expect([...SEED_SHAPES].sort()).toEqual(['bed', 'gauge', 'glove', 'gun', 'lift', 'mask', 'mist', 'scope', 'tank', 'thermo', 'walker', 'wheelchair']);
  });

  it.each(SEED_SHAPES)('%s renders to a small square PNG', async (shape) => {
    const png = await productArtPng(shape);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([SIZE, SIZE]);
    // A palette picture (colour type 3): a few KB where the full-colour one was 18–30 KB.
    expect(png[25]).toBe(3);
    expect(png.length).toBeLessThan(15_000);
  });

  it.each(SEED_SHAPES)('%s keeps its drawing through the palette (no visible banding or lost lines)', async (shape) => {
    const full = await sharp(svgToPng(productSvg(shape), SIZE)).ensureAlpha().raw().toBuffer();
    const palette = await sharp(await productArtPng(shape)).ensureAlpha().raw().toBuffer();
    expect(palette.length).toBe(full.length);
    let total = 0;
    let far = 0;
    for (let i = 0; i < full.length; i += 4) {
      let worst = 0;
      for (let c = 0; c < 4; c++) {
        // Colours weighted by their opacity: a transparent pixel's colour is never seen.
        const seen = (px: Buffer) => (c === 3 ? px[i + 3]! : (px[i + c]! * px[i + 3]!) / 255);
        const d = Math.abs(seen(full) - seen(palette));
        total += d;
        worst = Math.max(worst, d);
      }
      if (worst > 48) far++;
    }
    // On average under one level of 255 per channel, and hardly a pixel far off (only single
    // anti-aliased edge pixels may be; a lost line or a banded fill would be thousands).
    expect(total / full.length).toBeLessThan(1);
    expect(far / (full.length / 4)).toBeLessThan(0.002);
  });

  it.each(SEED_SHAPES)('%s is drawn inside the safe margin (nothing to crop at the edges)', (shape) => {
    const box = drawnBox(pixels(productSvg(shape)), pixels(productBackgroundSvg(shape)));
    expect(box).not.toBeNull();
    expect(box!.left).toBeGreaterThanOrEqual(MARGIN);
    expect(box!.top).toBeGreaterThanOrEqual(MARGIN);
    expect(box!.right).toBeLessThan(SIZE - MARGIN);
    expect(box!.bottom).toBeLessThan(SIZE - MARGIN);
  });

  it('the margin check catches a drawing that crosses an edge', () => {
    const background = productBackgroundSvg('bed');
    const inside = background.replace('</svg>', '<rect x="100" y="100" width="40" height="40" fill="#000"/></svg>');
    const crossing = background.replace('</svg>', '<rect x="200" y="100" width="60" height="40" fill="#000"/></svg>');
    const nearEdge = background.replace('</svg>', `<circle cx="120" cy="${ART_VIEWBOX - 12}" r="6" fill="#000"/></svg>`);
    expect(insideMargin(inside, background)).toBe(true);
    expect(insideMargin(crossing, background)).toBe(false);
    expect(insideMargin(nearEdge, background)).toBe(false);
  });
});
