// @ts-check
// The QR screen: a code the customer scans with a wallet app, and a watch for the payment.

import { byId, reference, refresh, watch } from './page.js';

export function openQr() {
  const image = /** @type {HTMLImageElement} */ (byId('qr-image'));
  image.addEventListener('error', () => refresh(), { once: true });
  image.src = `/checkout/session/${encodeURIComponent(reference)}/qr.svg`;
  watch();
}
