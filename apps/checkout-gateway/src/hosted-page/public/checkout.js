// @ts-check
// The hosted checkout page: choosing a method, and the start. Each screen has a module of its own.

import { setUpCard } from './card.js';
import { clearAlert, reference, refresh, returnToMerchant } from './page.js';
import { openQr } from './qr.js';
import { openTransfer } from './transfer.js';

/** @type {Record<string, () => unknown>} */
const openers = { 'pay-with-transfer': openTransfer, 'qr-wallet': openQr, card: () => undefined };
const opened = new Set();

/** @param {string} method */
function choose(method) {
  for (const button of document.querySelectorAll('.method')) {
    button.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (button).dataset.method === method));
  }
  for (const panel of document.querySelectorAll('.panel')) {
    /** @type {HTMLElement} */ (panel).hidden = panel.id !== `method-${method}`;
  }
  clearAlert();
  if (!opened.has(method)) {
    opened.add(method);
    Promise.resolve(openers[method]?.()).then((ready) => {
      if (ready === false) opened.delete(method);
    });
  }
}

function start() {
  if (!reference) {
    // An ended checkout: only the way back to the merchant is left.
    const link = document.getElementById('return-link');
    if (link instanceof HTMLAnchorElement && !link.hidden) returnToMerchant(link.href);
    return;
  }
  if (document.getElementById('card-form')) setUpCard();
  const methodButtons = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('.method')]);
  for (const button of methodButtons) button.addEventListener('click', () => choose(button.dataset.method ?? ''));
  const firstPanel = document.querySelector('.panel');
  if (firstPanel) choose(firstPanel.id.replace(/^method-/, ''));
  window.addEventListener('pageshow', (event) => {
    // Back from the bank's page via the browser's history: the outcome may already be known.
    if (event.persisted) refresh();
  });
}

if (document.getElementById('checkout')) start();
