import { binStockQrPayload, stockQrPayload, type StockItem } from '@dme/contracts';
import { qrCodePng, renderPdf } from '@dme/platform';

/** A stock item's QR code as a PNG (payload per SPEC §3). */
export function qrPng(item: StockItem, payload: 'serial' | 'id'): Promise<Buffer> {
  const text = payload === 'id' ? binStockQrPayload(item) : stockQrPayload(item);
  return qrCodePng(text);
}


const COLUMNS = 3;

/**
 * A printable A4 sheet of labels for one Add Stock batch: QR (serial payload) + serial code +
 * product name (+ variant / sub-variant), three per row.
 */
export async function labelSheetPdf(items: StockItem[]): Promise<Buffer> {
  const cells = items.map((item) => ({
    stack: [
      { qr: stockQrPayload(item), fit: 110, alignment: 'center', eccLevel: 'M' },
      { text: item.serialCode, bold: true, fontSize: 11, alignment: 'center', margin: [0, 6, 0, 0] },
      { text: item.productName, fontSize: 9, alignment: 'center' },
      ...(item.variantName
        ? [{ text: [item.variantName, item.subVariantName].filter(Boolean).join(' / '), fontSize: 8, color: '#555', alignment: 'center' }]
        : []),
    ],
    margin: [4, 10, 4, 10],
    unbreakable: true,
  }));
  const rows: unknown[][] = [];
  for (let i = 0; i < cells.length; i += COLUMNS) {
    const row: unknown[] = cells.slice(i, i + COLUMNS);
    while (row.length < COLUMNS) row.push({ text: '' });
    rows.push(row);
  }
  const doc = {
    pageSize: 'A4',
    pageMargins: [24, 28, 24, 28],
    info: { title: `Stock labels ${items[0]?.batchID ?? ''}`, keywords: items.map((i) => i.serialCode).join(' ') },
    defaultStyle: { font: 'Roboto' },
    content: [
      { text: `${items[0]?.productName ?? ''} — ${items.length} label${items.length === 1 ? '' : 's'}`, fontSize: 12, bold: true, margin: [0, 0, 0, 8] },
      { table: { widths: Array(COLUMNS).fill('*'), body: rows, dontBreakRows: true }, layout: { hLineColor: () => '#ccc', vLineColor: () => '#ccc' } },
    ],
  };
  return renderPdf(doc);
}
