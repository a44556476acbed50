// @ts-check
// The bank transfer screen: the checkout's own account number, a countdown, and a watch for the money.

import { byId, call, every, refresh, watch } from './page.js';

/** Shows the account to pay; false when it could not be had, so choosing the method again retries. */
export async function openTransfer() {
  const answer = await call('POST', '/pay-with-transfer');
  if (!answer.ok) {
    byId('transfer-loading').textContent = answer.message;
    if (answer.status === 404 || answer.status === 422) await refresh();
    return false;
  }
  const account = answer.data;
  byId('transfer-bank').textContent = account.bankName;
  byId('transfer-account').textContent = account.accountNumber;
  byId('transfer-name').textContent = account.accountName;
  byId('transfer-loading').hidden = true;
  byId('transfer-details').hidden = false;
  byId('copy-account').addEventListener('click', () => copy(account.accountNumber));
  startCountdown(Date.parse(account.expiresAt));
  watch();
  return true;
}

/** @param {string} value */
async function copy(value) {
  const status = byId('copy-status');
  try {
    await navigator.clipboard.writeText(value);
    status.textContent = 'Account number copied.';
  } catch {
    // Clipboard access can be refused; selecting the number lets the customer copy it.
    const range = document.createRange();
    range.selectNodeContents(byId('transfer-account'));
    window.getSelection()?.removeAllRanges();
    window.getSelection()?.addRange(range);
    status.textContent = 'Account number selected: copy it with your device.';
  }
}

/** @param {number} deadline */
function startCountdown(deadline) {
  const line = byId('transfer-countdown');
  const remaining = byId('transfer-remaining');
  const tick = () => {
    const seconds = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    remaining.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    if (seconds === 0) {
      window.clearInterval(timer);
      refresh();
    }
  };
  line.hidden = false;
  const timer = every(tick, 1000);
  tick();
}
