import { createRequire } from 'node:module';
import { dirname } from 'node:path';

const require = createRequire(import.meta.url);

type PdfMake = {
  addFonts: (fonts: unknown) => void;
  setUrlAccessPolicy: (cb: (url: string) => boolean) => void;
  setLocalAccessPolicy: (cb: (path: string) => boolean) => void;
  createPdf: (doc: unknown) => { getBuffer: () => Promise<Buffer> };
};
let pdfmake: PdfMake | undefined;

/** pdfmake 0.3 on the server with Roboto: no network access, local files only from the font folder (STACK P14). */
function printer(): PdfMake {
  if (pdfmake) return pdfmake;
  const pm = require('pdfmake') as PdfMake;
  const fontsFile = require.resolve('pdfmake/fonts/Roboto.js');
  const fontDir = `${dirname(fontsFile)}/Roboto`;
  pm.addFonts(require(fontsFile));
  pm.setUrlAccessPolicy(() => false);
  pm.setLocalAccessPolicy((path) => path.startsWith(fontDir));
  pdfmake = pm;
  return pm;
}

/**
 * A PDF from a pdfmake document definition (label sheets, invoices). Roboto is the font; it has
 * no ✓ or other symbol glyphs.
 */
export function renderPdf(doc: unknown): Promise<Buffer> {
  return printer().createPdf(doc).getBuffer();
}
