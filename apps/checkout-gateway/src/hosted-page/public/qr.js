// @ts-check
// The QR screen: a code the customer scans with a wallet app, and a watch for the payment.

import { byId, call, reference, refresh, watch } from './page.js';

/** Shows the code; false when it could not be had, with the reason, so choosing the method again retries. */
export async function openQr() {
  const image = /** @type {HTMLImageElement} */ (byId('qr-image'));
  const status = byId('qr-status');
  const steps = byId('qr-steps');
  status.hidden = true;
  image.hidden = steps.hidden = false;
  const loaded = new Promise((resolve) => {
    image.addEventListener('load', () => resolve(true), { once: true });
    image.addEventListener('error', () => resolve(false), { once: true });
  });
  image.src = `/checkout/session/${encodeURIComponent(reference)}/qr.svg?attempt=${Date.now()}`;
  if (await loaded) {
    watch();
    return true;
  }
  // An image carries no reason: ask again for the envelope that says why.
  const answer = await call('GET', '/qr.svg');
  image.hidden = steps.hidden = true;
  status.textContent = answer.message;
  status.hidden = false;
  if (answer.status === 404 || answer.status === 422) await refresh();
  return false;
}
