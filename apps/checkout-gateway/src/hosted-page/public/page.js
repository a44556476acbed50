// @ts-check
// The hosted checkout page's shared parts: the checkout it shows, calls to our own origin,
// messages, the final screen and watching for payments made outside the page.

const root = document.getElementById('checkout');
const pollEveryMs = 2000;
const returnDelaySeconds = 5;
/** The checkout's reference; empty on a page that has ended already. */
export const reference = root?.dataset.reference ?? '';
const returnUrl = root?.dataset.returnUrl ?? '';
export const merchant = text('.merchant');
/** @type {number | undefined} */
let pollTimer;
/** Timers that stop with the page: the poll and countdowns. */
const timers = new Set();
let finished = false;

/** True once the page shows the checkout's outcome. */
export function isFinished() {
  return finished;
}

/** @param {string} selector */
function text(selector) {
  return document.querySelector(selector)?.textContent?.trim() ?? '';
}

/**
 * @template {HTMLElement} T
 * @param {string} id
 * @returns {T}
 */
export function byId(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id}`);
  return /** @type {T} */ (found);
}

/**
 * @typedef {{ ok: boolean, status: number, message: string, data: any }} Answer
 * @param {'GET' | 'POST'} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<Answer>}
 */
export async function call(method, path, body) {
  try {
    const response = await fetch(`/checkout/session/${encodeURIComponent(reference)}${path}`, {
      method,
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    });
    const envelope = await response.json().catch(() => ({}));
    return {
      ok: response.ok,
      status: response.status,
      message: envelope.message ?? 'Something went wrong',
      data: envelope.data ?? {},
    };
  } catch {
    return {
      ok: false,
      status: 0,
      message: 'We could not reach the payment service. Check your connection and try again.',
      data: {},
    };
  }
}

/** A repeating timer that stops when the page finishes. @param {() => void} tick @param {number} ms */
export function every(tick, ms) {
  const timer = window.setInterval(tick, ms);
  timers.add(timer);
  return timer;
}

/** @param {string} message @param {'error' | 'notice'} [kind] */
export function showAlert(message, kind = 'error') {
  const alert = byId('alert');
  alert.textContent = message;
  alert.classList.toggle('notice', kind === 'notice');
  alert.hidden = false;
}

export function clearAlert() {
  byId('alert').hidden = true;
}

/**
 * Ends the page on the checkout's outcome, then sends the customer back to the merchant.
 * @param {'SUCCESS' | 'FAILED'} status
 * @param {string} detail
 */
export function finish(status, detail) {
  if (finished) return;
  finished = true;
  stopWatching();
  clearAlert();
  byId('flow').hidden = true;
  const result = byId('result');
  result.dataset.outcome = status === 'SUCCESS' ? 'success' : 'failed';
  byId('result-title').textContent = status === 'SUCCESS' ? 'Payment successful' : 'Payment failed';
  byId('result-text').textContent = detail;
  result.hidden = false;
  result.focus();
  if (returnUrl) returnToMerchant(returnTarget(returnUrl, status));
}

/** @param {string} url @param {string} status */
function returnTarget(url, status) {
  const target = new URL(url);
  target.searchParams.set('reference', reference);
  target.searchParams.set('status', status);
  return target.toString();
}

/** Shows the return link and follows it after a few seconds. @param {string} target */
export function returnToMerchant(target) {
  if (!/^https?:$/.test(new URL(target).protocol)) return;
  const link = /** @type {HTMLAnchorElement} */ (byId('return-link'));
  link.href = target;
  link.hidden = false;
  const notice = byId('return-notice');
  let seconds = returnDelaySeconds;
  notice.textContent = `Taking you back to ${merchant} in ${seconds} seconds.`;
  const timer = window.setInterval(() => {
    seconds -= 1;
    if (seconds > 0) {
      notice.textContent = `Taking you back to ${merchant} in ${seconds} seconds.`;
      return;
    }
    window.clearInterval(timer);
    notice.textContent = `Taking you back to ${merchant}…`;
    window.location.assign(target);
  }, 1000);
}

export function watch() {
  if (pollTimer !== undefined || finished) return;
  pollTimer = window.setInterval(async () => {
    const answer = await call('GET', '');
    if (answer.ok) settleFromView(answer.data);
  }, pollEveryMs);
}

function stopWatching() {
  for (const timer of timers) window.clearInterval(timer);
  timers.clear();
  pollTimer = undefined;
}

/** @param {{ transactionStatus: string, usedMethod: string | null, expiresAt: string }} view */
function settleFromView(view) {
  if (view.transactionStatus === 'SUCCESS') {
    const how =
      { 'pay-with-transfer': 'by bank transfer', 'qr-wallet': 'with your wallet app', card: 'by card' }[
        view.usedMethod ?? ''
      ] ?? '';
    finish('SUCCESS', `${merchant} has received your payment${how ? ` ${how}` : ''}.`);
  } else if (view.transactionStatus === 'FAILED') {
    const expired = Date.parse(view.expiresAt) <= Date.now();
    finish(
      'FAILED',
      expired
        ? 'This checkout expired before a payment arrived. No money was taken.'
        : 'This payment was not completed. No money was taken.',
    );
  }
}

/** Re-reads the checkout after the server refused an action because it has ended. */
export async function refresh() {
  const answer = await call('GET', '');
  if (answer.ok) settleFromView(answer.data);
}
