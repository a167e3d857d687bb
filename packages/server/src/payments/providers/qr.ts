import QRCode from 'qrcode';

/** A PNG of the QR code of a text, base64 without the data: prefix (as Mercado Pago answers). */
export async function qrPngBase64(text: string): Promise<string> {
  const png = await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
  return png.toString('base64');
}
