// The QR code of a session's EIP-681 transfer, as SVG, drawn on the server so the checkout page
// needs no script from elsewhere (its CSP allows images from this origin only).
import QRCode from 'qrcode';

/** The SVG of `text`. */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
