import type { EntityManager } from '@mikro-orm/postgresql';
import {
  formatManilaDateTime,
  HANDOVER_MESSAGES,
  HANDOVER_RELATION_LABELS,
  SELLER,
  TICKET_FILE,
  type Handover,
  type HandoverLeg,
  type Order,
} from '@dme/contracts';
import { notFound, PDF_GREY, PDF_ROWS, pdfFooter, pdfHeaderCell, pdfSellerHeading, qualified, renderPdf, type BlobStore } from '@dme/platform';

/**
 * The delivery or pick-up ticket (issue 28): A4, the order, customer and address, each unit that
 * changed hands (product and serial), who signed and their relation, the acknowledgement as it was
 * shown, the signature, the time (Manila) and the driver. From the last completed hand-over of
 * the leg; an order without one has no ticket (404).
 */
export async function ticketPdf(em: EntityManager, blobs: BlobStore, order: Order, leg: HandoverLeg): Promise<{ fileName: string; pdf: Buffer }> {
  const h = order.handovers.filter((x) => x.leg === leg && x.outcome === 'HANDED_OVER').at(-1);
  if (!h) throw notFound(HANDOVER_MESSAGES.noTicket(leg));
  const [row] = await em.execute<Array<{ signature_blob: string | null; photo_blob: string | null }>>(
    `select signature_blob, photo_blob from ${qualified(em, 'order_handovers')} where id = ?`,
    [h.id],
  );
  const signature = row?.signature_blob ? await blobs.get(row.signature_blob) : undefined;
  const photo = row?.photo_blob ? await blobs.get(row.photo_blob) : undefined;
  const fileName = TICKET_FILE[leg];
  const word = leg === 'DELIVERY' ? 'DELIVERY TICKET' : 'PICK-UP TICKET';
  const doc = {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 48],
    info: { title: `${word} — ${order.orderNumber}`, author: SELLER.name, subject: fileName },
    defaultStyle: { font: 'Roboto', fontSize: 10 },
    content: [
      pdfSellerHeading(word),
      { canvas: [{ type: 'line', x1: 0, y1: 8, x2: 515, y2: 8, lineWidth: 0.5, lineColor: '#999999' }], margin: [0, 0, 0, 12] },
      details(order, h, leg),
      unitsTable(order, h),
      { text: h.acknowledgement, italics: true, margin: [0, 0, 0, 8] },
      signedBlock(h, signature?.data, signature?.contentType),
      ...(photo ? [{ text: 'Photo at the door', bold: true, margin: [0, 12, 0, 4] }, { image: dataUrl(photo.data, photo.contentType), fit: [240, 180] }] : []),
    ],
    footer: pdfFooter(),
  };
  return { fileName, pdf: await renderPdf(doc) };
}

const dataUrl = (data: Buffer, type: string) => `data:${type};base64,${data.toString('base64')}`;

/** The order and the hand-over on the left; the customer and the address on the right. */
function details(order: Order, h: Handover, leg: HandoverLeg) {
  const c = order.customer;
  const name = c ? [c.firstName, c.middleName, c.lastName, c.suffix].filter(Boolean).join(' ') : order.customerName;
  return {
    columns: [
      {
        width: '*',
        table: {
          widths: [70, 160],
          body: [
            ['Order no.', { text: order.orderNumber, bold: true }],
            ['Order', order.type === 'RENT' ? 'Rental' : 'Purchase'],
            [leg === 'DELIVERY' ? 'Delivered' : 'Picked up', formatManilaDateTime(h.signedAt)],
            ['Driver', h.driverName],
            ['Attempt', String(h.attempt)],
          ],
        },
        layout: 'noBorders',
      },
      {
        width: '*',
        stack: [
          { text: 'Customer', bold: true },
          name,
          ...(c?.idNumber ? [c.idNumber] : []),
          ...(c?.contactNumber ? [c.contactNumber] : []),
          { text: leg === 'DELIVERY' ? 'Delivered to' : 'Picked up at', bold: true, margin: [0, 6, 0, 0] },
          order.deliveryAddress,
          `${order.deliveryCity}, ${order.deliveryState} ${order.deliveryZipcode}`,
        ],
      },
    ],
    margin: [0, 0, 0, 14],
  };
}

/** Each unit that changed hands: product (variant) and serial code. */
function unitsTable(order: Order, h: Handover) {
  const handed = new Set(h.serials.map((s) => s.toUpperCase()));
  const rows = order.products.flatMap((l) =>
    l.serialCodes
      .filter((s) => handed.has(s.serialCode.toUpperCase()))
      .map((s) => [
        { stack: [{ text: l.productName }, ...(l.variant?.name || l.subVariant?.name ? [{ text: [l.variant?.name, l.subVariant?.name].filter(Boolean).join(' / '), color: PDF_GREY, fontSize: 8 }] : [])] },
        s.serialCode,
      ]),
  );
  return {
    table: { headerRows: 1, widths: [330, 169], body: [[pdfHeaderCell('Equipment'), pdfHeaderCell('Serial code')], ...rows] },
    layout: PDF_ROWS,
    margin: [0, 0, 0, 12],
  };
}

/** Who signed, their relation, and the signature image. */
function signedBlock(h: Handover, signature: Buffer | undefined, type: string | undefined) {
  return {
    columns: [
      {
        width: 240,
        stack: [
          { text: 'Signed by', bold: true },
          h.recipientName,
          { text: h.relation ? HANDOVER_RELATION_LABELS[h.relation] : '', color: PDF_GREY },
          { text: formatManilaDateTime(h.signedAt), color: PDF_GREY },
        ],
      },
      signature && type ? { width: 240, image: dataUrl(signature, type), fit: [240, 90] } : { width: 240, text: '—' },
    ],
  };
}
