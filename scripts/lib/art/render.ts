import { Resvg } from '@resvg/resvg-js';
import type { SeedShape } from '@dme/catalog/seed';
import { productSvg } from './products';

/** The width (and height: the pictures are square) of a seeded product picture, in pixels. */
export const PRODUCT_IMAGE_SIZE = 480;

/** Renders an SVG document to a PNG of the given width (no system fonts: the drawings use none). */
export function svgToPng(svg: string, width: number): Buffer {
  const r = new Resvg(svg, { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: false } });
  return Buffer.from(r.render().asPng());
}

/** A demo product's picture as a PNG (uploads accept only JPG and PNG). */
export function productArtPng(shape: SeedShape, size = PRODUCT_IMAGE_SIZE): Buffer {
  return svgToPng(productSvg(shape), size);
}
