import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';

// jsqr is CommonJS with a default export; under nodenext its callable sits on .default.
const jsQR = (jsQRModule as unknown as { default: typeof jsQRModule.default }).default ?? (jsQRModule as unknown as typeof jsQRModule.default);

/** Decodes a `data:image/png;base64,…` QR image the way a phone camera would; throws if it is not one. Used by `cli qr:decode` and the tests. */
export function decodeQr(dataUrl: string): string {
  const match = /^data:image\/png;base64,(.+)$/.exec(dataUrl);
  if (!match) throw new Error(`not a PNG data URL: ${dataUrl.slice(0, 40)}`);
  const png = PNG.sync.read(Buffer.from(match[1]!, 'base64'));
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('no QR code found in the image');
  return code.data;
}

/** The first PNG data URL in a text (an API answer, for instance). */
export function findPngDataUrl(text: string): string | undefined {
  return /data:image\/png;base64,[A-Za-z0-9+/=]+/.exec(text)?.[0];
}
