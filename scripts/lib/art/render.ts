import { Resvg } from '@resvg/resvg-js';
import sharp from 'sharp';
import type { SeedShape } from '@dme/catalog/seed';
import { productSvg } from './products';

/** The width (and height: the pictures are square) of a seeded product picture, in pixels. */
export const PRODUCT_IMAGE_SIZE = 480;

/** Renders an SVG document to a PNG of the given width (no system fonts: the drawings use none). */
export function svgToPng(svg: string, width: number): Buffer {
  const r = new Resvg(svg, { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: false } });
  return Buffer.from(r.render().asPng());
}

/**
 * A demo product's picture as a PNG (uploads accept only JPG and PNG), with its colours reduced
 * to a palette (libimagequant through sharp): the flat drawings look the same at about a third
 * of the bytes (27 KB → 8 KB), which a phone on a slow network feels (issue 13: mobile LCP).
 */
export async function productArtPng(shape: SeedShape, size = PRODUCT_IMAGE_SIZE): Promise<Buffer> {
  return sharp(svgToPng(productSvg(shape), size)).png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 }).toBuffer();
}
