import { HostedCheckoutView, PaymentMethod } from '@payments/contracts';

import { formatNaira } from './naira';
import { PageAssets } from './page-assets';

/** Every value that reaches the page from a partner or customer goes through this. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

const methodLabels: Record<PaymentMethod, string> = {
  card: 'Card',
  'pay-with-transfer': 'Bank transfer',
  'qr-wallet': 'QR code',
};

function layout(assets: PageAssets, title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${assets.url('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assets.url('checkout.css')}">
<script type="module" src="${assets.url('checkout.js')}"></script>
</head>
<body>
${main}
<footer class="footer"><p>Secured payment · Your card details go straight to us and are never shared with the merchant.</p></footer>
</body>
</html>`;
}

function summary(view: HostedCheckoutView): string {
  return `<header class="summary">
  <p class="merchant">${escapeHtml(view.businessName)}</p>
  <p class="amount"><span class="visually-hidden">Amount to pay: </span>${formatNaira(view.amount)}</p>
  ${view.testMode ? '<p class="badge">Test mode: no real money moves</p>' : ''}
</header>`;
}

/** A page for a reference that leads nowhere: unknown, or no reference at all. */
export function renderNotFoundPage(assets: PageAssets): string {
  return layout(
    assets,
    'Checkout not found',
    `<main class="checkout">
<section class="result" data-outcome="not-found">
  <h1 class="result-title">We could not find this checkout</h1>
  <p>Check the link you were given, or ask the merchant for a new payment link.</p>
</section>
</main>`,
  );
}

/** A checkout that has ended: paid, or failed or expired. The script sends the customer back. */
function renderEnded(view: HostedCheckoutView): string {
  const paid = view.transactionStatus === 'SUCCESS';
  const expired = !paid && view.usedMethod === null && Date.parse(view.expiresAt) <= Date.now();
  const title = paid
    ? 'This checkout has been paid'
    : expired
      ? 'This checkout has expired'
      : 'This payment was not completed';
  const text = paid
    ? `${escapeHtml(view.businessName)} has received your payment. There is nothing more to do.`
    : `No money was taken for this checkout. Ask ${escapeHtml(view.businessName)} for a new payment link.`;
  return `<section class="result" id="result" tabindex="-1" data-outcome="${paid ? 'success' : 'failed'}">
  <h1 class="result-title" id="result-title">${title}</h1>
  <p id="result-text">${text}</p>
  <p class="reference">Reference: ${escapeHtml(view.reference)}</p>
  ${returnLink(view)}
</section>`;
}

/** Back to the merchant: live on an ended page; on an open one the script fills in the outcome. */
function returnLink(view: HostedCheckoutView): string {
  const ended = view.transactionStatus !== 'PROCESSING';
  const href = view.returnUrl && ended ? returnTarget(view.returnUrl, view.reference, view.transactionStatus) : '#';
  return `<p><a class="button primary" id="return-link" href="${escapeHtml(href)}"${view.returnUrl && ended ? '' : ' hidden'}>Return to ${escapeHtml(view.businessName)}</a></p>
  <p id="return-notice" class="hint" role="status"></p>`;
}

/** The merchant's return URL with the outcome on it; the merchant verifies it with the API. */
export function returnTarget(returnUrl: string, reference: string, status: string): string {
  const target = new URL(returnUrl);
  target.searchParams.set('reference', reference);
  target.searchParams.set('status', status);
  return target.toString();
}

function methodChooser(methods: PaymentMethod[]): string {
  if (methods.length < 2) return '';
  const buttons = methods
    .map(
      (method) =>
        `<button type="button" class="method" data-method="${method}" aria-pressed="false" aria-controls="method-${method}">${methodLabels[method]}</button>`,
    )
    .join('\n    ');
  return `<nav class="methods" aria-label="Choose how to pay">
    ${buttons}
  </nav>`;
}

const cardPanel = (amount: string) => `<section class="panel" id="method-card" aria-labelledby="card-title" hidden>
  <h2 id="card-title">Pay with card</h2>
  <form id="card-form" method="post" action="#" novalidate>
    <div class="field">
      <label for="card-number">Card number</label>
      <div class="with-brand">
        <input id="card-number" name="cardNumber" inputmode="numeric" autocomplete="cc-number" maxlength="23" spellcheck="false" aria-describedby="card-brand card-number-error" required>
        <span id="card-brand" class="brand" aria-live="polite"></span>
      </div>
      <p class="field-error" id="card-number-error" hidden></p>
    </div>
    <div class="row">
      <div class="field">
        <label for="card-expiry">Expiry date <span class="hint">MM/YY</span></label>
        <input id="card-expiry" name="expiryDate" inputmode="numeric" autocomplete="cc-exp" maxlength="5" placeholder="MM/YY" aria-describedby="card-expiry-error" required>
        <p class="field-error" id="card-expiry-error" hidden></p>
      </div>
      <div class="field">
        <label for="card-cvv">CVV</label>
        <input id="card-cvv" name="cvv" type="password" inputmode="numeric" autocomplete="cc-csc" maxlength="4" aria-describedby="card-cvv-hint card-cvv-error" required>
        <p class="hint field-hint" id="card-cvv-hint">3 or 4 digits on the back</p>
        <p class="field-error" id="card-cvv-error" hidden></p>
      </div>
    </div>
    <button type="submit" class="primary" id="card-submit">Pay ${amount}</button>
  </form>
  <form id="step-form" method="post" action="#" novalidate hidden aria-labelledby="step-title">
    <h3 id="step-title" tabindex="-1"></h3>
    <p id="step-hint" class="hint"></p>
    <div id="step-fields"></div>
    <button type="submit" class="primary" id="step-submit">Continue</button>
  </form>
</section>`;

const transferPanel = (
  amount: string,
) => `<section class="panel" id="method-pay-with-transfer" aria-labelledby="transfer-title" hidden>
  <h2 id="transfer-title">Pay by bank transfer</h2>
  <p>Transfer exactly <strong>${amount}</strong> to the account below from your bank app. It is for this payment only.</p>
  <p id="transfer-loading" class="hint" role="status">Getting your account number…</p>
  <dl id="transfer-details" class="details" hidden>
    <div><dt>Bank</dt><dd id="transfer-bank"></dd></div>
    <div><dt>Account number</dt><dd><span id="transfer-account" class="account-number"></span> <button type="button" id="copy-account" class="secondary small">Copy<span class="visually-hidden"> account number</span></button></dd></div>
    <div><dt>Account name</dt><dd id="transfer-name"></dd></div>
    <div><dt>Amount</dt><dd>${amount}</dd></div>
  </dl>
  <p id="copy-status" class="hint" role="status"></p>
  <p id="transfer-countdown" class="countdown" hidden>This account expires in <strong id="transfer-remaining"></strong></p>
  <p class="waiting">We confirm your payment here as soon as the transfer arrives.</p>
</section>`;

const qrPanel = (amount: string) => `<section class="panel" id="method-qr-wallet" aria-labelledby="qr-title" hidden>
  <h2 id="qr-title">Scan to pay</h2>
  <img id="qr-image" class="qr" width="240" height="240" alt="QR code to pay ${amount}">
  <p id="qr-status" class="hint" role="status" hidden></p>
  <ol class="steps" id="qr-steps">
    <li>Open your wallet app and choose <strong>Scan to pay</strong>.</li>
    <li>Scan this code and confirm ${amount}.</li>
    <li>This page moves on by itself once the payment is confirmed.</li>
  </ol>
</section>`;

/** The hosted page of a checkout, in whatever state it is in. */
export function renderCheckoutPage(view: HostedCheckoutView, assets: PageAssets): string {
  const amount = formatNaira(view.amount);
  const title = `Pay ${amount} to ${view.businessName}`;
  if (view.transactionStatus !== 'PROCESSING') {
    return layout(
      assets,
      title,
      `<main class="checkout" id="checkout">\n${summary(view)}\n${renderEnded(view)}\n</main>`,
    );
  }
  const panels = { card: cardPanel(amount), 'pay-with-transfer': transferPanel(amount), 'qr-wallet': qrPanel(amount) };
  return layout(
    assets,
    title,
    `<main class="checkout" id="checkout" data-reference="${escapeHtml(view.reference)}" data-expires-at="${view.expiresAt}"${view.returnUrl ? ` data-return-url="${escapeHtml(view.returnUrl)}"` : ''}>
${summary(view)}
<h1 class="visually-hidden">${escapeHtml(title)}</h1>
<div id="alert" class="alert" role="alert" hidden></div>
<div id="flow">
  ${methodChooser(view.paymentMethod)}
  ${view.paymentMethod.map((method) => panels[method]).join('\n  ')}
</div>
<section class="result" id="result" tabindex="-1" hidden>
  <h2 class="result-title" id="result-title"></h2>
  <p id="result-text"></p>
  <p class="reference">Reference: ${escapeHtml(view.reference)}</p>
  ${returnLink(view)}
</section>
<noscript><p class="alert">This payment page needs JavaScript. Turn it on, or ask the merchant for another way to pay.</p></noscript>
</main>`,
  );
}
