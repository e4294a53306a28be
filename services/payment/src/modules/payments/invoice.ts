import { centsToString, cyclePaymentLabel, daysChangeLabel, rentalRecordLabel, formatMoney, invoiceFileName, manilaDate, PAYMENT_MESSAGES, SELLER, toCents } from '@dme/contracts';
import { PDF_GREY as GREY, PDF_ROWS as ROWS, pdfFooter, pdfHeaderCell as cellHeader, pdfSellerHeading, renderPdf } from '@dme/platform';
import type { InvoiceSource } from './payment.service';
import { cyclesOf } from './payment.store';

/**
 * Column widths are fixed, not 'auto' or '*': a table sizes those to its longest word, and a long
 * invoice number or user name would push the last column off the page; in a fixed column it wraps.
 * The widths of a table plus 8 pt of padding per column (ROWS) stay within the 515 pt of an A4 line.
 */

/** "$1,234.50" from a wire amount (Roboto has no ✓ or other symbols we would need). */
const $ = (value: string | null) => (value === null ? '—' : formatMoney(toCents(value)));

type Payment = InvoiceSource['payment'];
type InvoiceRecord = InvoiceSource['records'][number];

/** The file name and A4 PDF of the invoice of the last of these records, with the payments so far (SPEC §9). */
export async function invoicePdf(src: InvoiceSource): Promise<{ fileName: string; pdf: Buffer }> {
  const { payment: p, records } = src;
  const latest = records[records.length - 1]!;
  const rental = p.order_type === 'RENT';
  const fileName = invoiceFileName(p.order_type, latest.type, latest.cycle);
  const full = latest.type === 'FULL';
  const title = !rental
    ? 'Purchase'
    : full
      ? 'Rental — full payment'
      : latest.type === 'CYCLE'
        ? `Rental — ${cyclePaymentLabel(latest.cycle ?? 0).toLowerCase()}`
        : latest.type === 'BUYOUT'
          ? 'Rental — bought out (rent-to-own)'
          : 'Rental — initial payment';

  const doc = {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 48],
    info: { title: `Invoice ${latest.invoice_number} — ${p.order_number}`, author: SELLER.name, subject: fileName },
    defaultStyle: { font: 'Roboto', fontSize: 10 },
    content: [
      pdfSellerHeading('INVOICE'),
      { canvas: [{ type: 'line', x1: 0, y1: 8, x2: 515, y2: 8, lineWidth: 0.5, lineColor: '#999999' }], margin: [0, 0, 0, 12] },
      invoiceDetails(p, latest, title),
      linesTable(p, rental),
      totalsTable(p, latest, rental),
      { text: 'Payments', bold: true, margin: [0, 0, 0, 4] },
      paymentsTable(records),
      balanceTable(latest),
      ...closingNotes(latest, full),
    ],
    footer: pdfFooter(),
  };
  return { fileName, pdf: await renderPdf(doc) };
}

/** The invoice's numbers and dates on the left, who pays and where it goes on the right. */
function invoiceDetails(p: Payment, latest: InvoiceRecord, title: string) {
  const customer = p.customer ?? { name: p.customer_name, email: '', contactNumber: '' };
  const d = p.delivery;
  return {
    columns: [
      {
        width: '*',
        table: {
          widths: [58, 170],
          body: [
            ['Invoice no.', { text: latest.invoice_number, bold: true }],
            ['Receipt no.', latest.receipt_number],
            ['Date', manilaDate(new Date(latest.created_at))],
            ['Order no.', p.order_number],
            ['Order', title],
          ],
        },
        layout: 'noBorders',
      },
      {
        width: '*',
        stack: [
          { text: 'Bill to', bold: true },
          customer.name,
          ...(customer.email ? [customer.email] : []),
          ...(customer.contactNumber ? [customer.contactNumber] : []),
          { text: 'Deliver to', bold: true, margin: [0, 6, 0, 0] },
          ...(d ? [d.address, `${d.city}, ${d.state} ${d.zipcode}`] : ['—']),
        ],
      },
    ],
    margin: [0, 0, 0, 14],
  };
}

/** The order's lines (with a Days column for a rental). */
function linesTable(p: Payment, rental: boolean) {
  const lineHeader = [cellHeader('Product'), cellHeader('Qty', 'right'), ...(rental ? [cellHeader('Days', 'right')] : []), cellHeader('Unit price', 'right'), cellHeader('Line total', 'right')];
  const lineRows = p.lines.map((l) => [
    { stack: [{ text: l.productName }, ...(l.variantName || l.subVariantName ? [{ text: [l.variantName, l.subVariantName].filter(Boolean).join(' / '), color: GREY, fontSize: 8 }] : [])] },
    { text: String(l.quantity), alignment: 'right' },
    ...(rental ? [{ text: l.noOfRentalDays === null ? '' : String(l.noOfRentalDays), alignment: 'right' }] : []),
    { text: $(l.unitPrice), alignment: 'right' },
    { text: $(l.lineTotal), alignment: 'right' },
  ]);
  return {
    table: { headerRows: 1, widths: rental ? [245, 35, 35, 80, 80] : [288, 35, 80, 80], body: [lineHeader, ...lineRows], dontBreakRows: true },
    layout: ROWS,
    fontSize: 9,
  };
}

/** The order's totals, on the right. */
function totalsTable(p: Payment, latest: InvoiceRecord, rental: boolean) {
  // The figures as they were when this invoice's payment was taken (stored on its record).
  const totals: Array<[string, string, boolean?]> = [['Order total', $(p.total_order_payment)]];
  // Issue 29: the rental's extensions (and an early end) within the order total, on the invoice of
  // the payment that pays them (the full payment).
  if (rental && latest.type === 'FULL') for (const x of p.extensions ?? []) totals.push([`  ${daysChangeLabel(x.kind, x.days)}`, $(x.amount)]);
  if (rental) totals.push(['Partial payment (first day)', $(latest.total_partial_payment)]);
  // Issue 29: a cycle's invoice names the days it bills and their rent (what it takes is in the payments below).
  const cycle = latest.type === 'CYCLE' ? cyclesOf(p).find((c) => c.n === latest.cycle) : undefined;
  if (cycle) totals.push([`Cycle ${cycle.n}: ${cycle.from} to ${cycle.to} (${cycle.days} days)`, $(centsToString(cycle.cents))]);
  // Issue 29: the final invoice of a rent-to-own rental bought out: the sale price less the rent credited.
  if (latest.type === 'BUYOUT') totals.push(['Buy-out: sale price less rent credited', $(latest.amount)]);
  // Issue 29: the deposit on its own line (taken with the first payment); at the full payment the
  // late fees within the extra charges, and the deposit's settlement against them.
  const some = (v: string | null) => v !== null && toCents(v) > 0;
  if (rental && some(p.deposit)) totals.push(['Deposit (refundable)', $(p.deposit)]);
  if (latest.extra_charge !== null) totals.push(['Extra charges', $(latest.extra_charge)]);
  if (latest.type === 'FULL' && some(p.late_fees)) totals.push(['of which late fees', $(p.late_fees)]);
  totals.push(['Overall total', $(latest.overall_total)]);
  if ((latest.type === 'FULL' || latest.type === 'BUYOUT') && some(p.deposit)) {
    totals.push(['Deposit applied to charges', $(p.deposit_applied ?? '0.00')]);
    totals.push(['Deposit to refund', $(p.deposit_refund ?? '0.00')]);
  }
  return {
    columns: [
      { width: '*', text: '' },
      {
        width: 'auto',
        table: { widths: [150, 90], body: totals.map(([label, value]) => [label, { text: value, alignment: 'right' }]) },
        layout: 'noBorders',
      },
    ],
    margin: [0, 10, 0, 14],
  };
}

/** The payments taken so far, one row each. */
function paymentsTable(records: InvoiceRecord[]) {
  const paymentsHeader = [cellHeader('Date'), cellHeader('Payment'), cellHeader('Invoice no.'), cellHeader('Receipt no.'), cellHeader('Accommodated by'), cellHeader('Amount', 'right')];
  const paymentRows = records.map((r) => [
    manilaDate(new Date(r.created_at)),
    rentalRecordLabel(r) ?? (r.type === 'FULL' ? 'Full payment' : toCents(r.deposit ?? '0') > 0 ? 'Partial payment + deposit' : 'Partial payment'),
    r.invoice_number,
    r.receipt_number,
    r.accommodated_by_name,
    { text: $(r.amount), alignment: 'right' },
  ]);
  return { table: { headerRows: 1, widths: [50, 70, 77, 77, 113, 80], body: [paymentsHeader, ...paymentRows], dontBreakRows: true }, layout: ROWS, fontSize: 9 };
}

/** The balance left, on the right. */
function balanceTable(latest: InvoiceRecord) {
  return {
    columns: [
      { width: '*', text: '' },
      { width: 'auto', table: { widths: [150, 90], body: [[{ text: 'Balance', bold: true }, { text: $(latest.balance), bold: true, alignment: 'right' }]] }, layout: 'noBorders' },
    ],
    margin: [0, 10, 0, 10],
  };
}

/** Due date (while a balance is left), terms (on a full payment's invoice) and the note, each only when it applies. */
function closingNotes(latest: InvoiceRecord, full: boolean) {
  return [
    ...(latest.due_date && latest.balance !== '0.00' ? [{ text: `Due date: ${latest.due_date}`, margin: [0, 0, 0, 6] }] : []),
    ...(full ? [{ text: [{ text: 'Terms: ', bold: true }, PAYMENT_MESSAGES.invoiceTerms] }] : []),
    ...(latest.note ? [{ text: [{ text: 'Note: ', bold: true }, latest.note], margin: [0, 6, 0, 0] }] : []),
  ];
}
