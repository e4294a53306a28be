import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The text of a PDF, its runs joined as drawn and lines by a space (whitespace collapsed). */
export async function pdfText(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    for (const it of content.items) if ('str' in it) parts.push(it.str + (it.hasEOL ? ' ' : ''));
    parts.push(' ');
  }
  await doc.destroy();
  return parts.join('').replace(/\s+/g, ' ');
}
