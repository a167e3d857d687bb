/**
 * The text of a PDF as a reader would copy it, read back with Mozilla's PDF.js (the engine of
 * Firefox's viewer): what receipts' tests assert on. Lines of a page are joined by newlines.
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await getDocument({ data: bytes, isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      let page = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        page += item.str + (item.hasEOL ? '\n' : '');
      }
      pages.push(page);
    }
    return pages.join('\n');
  } finally {
    await doc.destroy();
  }
}
