import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { SELLER } from '@dme/contracts';

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

/** Secondary text in our documents. */
export const PDF_GREY = '#666666';

/** A table layout: horizontal rules between rows, 4 pt of padding on each side of every cell (so widths + 8 per column). */
export const PDF_ROWS = {
  hLineWidth: (i: number, node: { table: { body: unknown[]; headerRows?: number } }) =>
    i === 0 || i === node.table.body.length ? 0 : i === (node.table.headerRows ?? 0) ? 1 : 0.5,
  vLineWidth: () => 0,
  hLineColor: (i: number, node: { table: { headerRows?: number } }) => (i === (node.table.headerRows ?? 0) ? '#999999' : '#dddddd'),
  paddingLeft: () => 4,
  paddingRight: () => 4,
  paddingTop: () => 3,
  paddingBottom: () => 3,
};

/** A header cell of a PDF_ROWS table. */
export const pdfHeaderCell = (text: string, alignment: 'left' | 'right' = 'left') => ({ text, bold: true, fillColor: '#f0f0f0', alignment });

/** The seller's name and contacts, with the document's word (INVOICE, DELIVERY TICKET) on the right. */
export function pdfSellerHeading(word: string) {
  return {
    columns: [
      {
        width: '*',
        stack: [
          { text: SELLER.name, bold: true, fontSize: 13 },
          { text: SELLER.address, color: PDF_GREY },
          { text: `${SELLER.email}  ·  ${SELLER.phone}`, color: PDF_GREY },
        ],
      },
      { width: 'auto', text: word, fontSize: word.length > 10 ? 18 : 24, bold: true, alignment: 'right' },
    ],
  };
}

/** The page footer of our documents: the seller's contacts. */
export function pdfFooter() {
  return { text: `${SELLER.name} · ${SELLER.email} · ${SELLER.phone}`, alignment: 'center', fontSize: 8, color: PDF_GREY, margin: [0, 16, 0, 0] };
}
