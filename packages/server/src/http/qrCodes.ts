/**
 * QR codes of links and payment codes in answers (PIX, 2FA enrolment, "Testar no celular").
 * The `qrcode` package is loaded on first use: most processes never draw one, and a module
 * loaded stays in the heap for the process's life.
 */
const qrCodeLibrary = async () => (await import('qrcode')).default;

/** A PNG of the QR code of a text, base64 without the data: prefix (as Mercado Pago answers). */
export async function qrPngBase64(text: string): Promise<string> {
  const png = await (await qrCodeLibrary()).toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
  return png.toString('base64');
}

/** An SVG of the QR code of a text, as a data: URL. */
export async function qrSvgDataUrl(text: string): Promise<string> {
  const svg = await (await qrCodeLibrary()).toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
