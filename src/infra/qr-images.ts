import type { QrImages } from '../domain/instances/instances.ports.js';

/** PNG data URLs from the qrcode package; a code is rendered once and kept while it may be shown. */
export function createQrImages(): QrImages {
  const cache = new Map<string, string>();
  return {
    async toDataUrl(text) {
      const cached = cache.get(text);
      if (cached) return cached;
      // The renderer is loaded with the first code shown, not at start.
      const { default: QRCode } = await import('qrcode');
      const url = await QRCode.toDataURL(text, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
      if (cache.size >= 1000) cache.delete(cache.keys().next().value!);
      cache.set(text, url);
      return url;
    },
  };
}
