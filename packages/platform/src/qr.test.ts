import { PNG } from 'pngjs';
import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { QR_MIN_PX, qrCodePng } from './qr';

/** Widths of the dark runs along the row through the middle of the top-left finder pattern. */
function finderRuns(png: PNG, modulePx: number, margin: number): number[] {
  const y = Math.floor((margin + 3.5) * modulePx);
  const runs: number[] = [];
  let run = 0;
  for (let x = 0; x < png.width; x++) {
    const dark = png.data[(y * png.width + x) * 4]! < 128;
    if (dark) run++;
    else if (run) {
      runs.push(run);
      run = 0;
    }
  }
  return runs;
}

describe('qrCodePng', () => {
  it.each([
    ['an order QR', JSON.stringify({ orderID: '05d0aa13-a8ee-4fde-86bd-0d3fb544025e', orderNumber: 'ORD-20261125-000001' })],
    ['a serial-code QR', JSON.stringify({ productID: '05d0aa13-a8ee-4fde-86bd-0d3fb544025e', serialCode: 'WHE-0000001' })],
    ['a short code', 'ORD-1'],
  ])('%s: reads back, at least %i px wide, every module the same whole number of pixels', async (_what, text) => {
    const png = PNG.sync.read(await qrCodePng(text));
    expect(png.width).toBe(png.height);
    expect(png.width).toBeGreaterThanOrEqual(QR_MIN_PX);
    const read = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(read?.data).toBe(text);
    const modules = 17 + 4 * read!.version + 4; // the code and its 2-module quiet zone each side
    expect(png.width % modules).toBe(0);
    const px = png.width / modules;
    // The finder pattern's middle row is dark 1, light 1, dark 3, light 1, dark 1 modules: runs of px, 3px, px.
    expect(finderRuns(png, px, 2).slice(0, 3)).toEqual([px, 3 * px, px]);
  });
});
