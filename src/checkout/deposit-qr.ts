// The QR code of a session's EIP-681 transfer, as SVG, drawn on the server so the checkout page
// needs no script from elsewhere (its CSP allows images from this origin only). `qrcode` is a
// development dependency today: where it is not installed (the production image) there is no QR
// code and the page shows the address, amount and wallet link alone.
type QrModule = { toString(text: string, options: { type: 'svg'; errorCorrectionLevel: 'M'; margin: number }): Promise<string> };

let qr: Promise<QrModule | undefined> | undefined;

function loadQr(): Promise<QrModule | undefined> {
  const name = 'qrcode';
  qr ??= import(name).then(
    (m: { default?: QrModule } & QrModule) => m.default ?? m,
    () => undefined,
  );
  return qr;
}

/** The SVG of `text`, or undefined when no QR encoder is installed. */
export async function qrSvg(text: string): Promise<string | undefined> {
  const encoder = await loadQr();
  return encoder?.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
