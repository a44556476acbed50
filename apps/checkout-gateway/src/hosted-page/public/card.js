// @ts-check
// The card screen: the card form, its checks, and the charge through its verification steps.
// Card details live only in this page's memory and in the JSON body of one request to our own
// origin: never in the URL, storage, cookies or logs.

import { showStep, stepOnScreen, steps } from './card-steps.js';
import { byId, call, clearAlert, finish, isFinished, merchant, refresh, showAlert } from './page.js';

/** @typedef {import('./page.js').Answer} Answer */

/** @param {string} digits */
function luhnValid(digits) {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return digits.length >= 12 && digits.length <= 19 && sum % 10 === 0;
}

/** @param {string} digits */
function brandOf(digits) {
  if (/^(506(0|1)|507[89]|6500)/.test(digits)) return 'Verve';
  if (/^4/.test(digits)) return 'Visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'Mastercard';
  return '';
}

/**
 * Rewrites an input's value while keeping the caret after the same digit.
 * @param {HTMLInputElement} input @param {(digits: string) => string} format @param {number} maxDigits
 */
function reformat(input, format, maxDigits) {
  const caret = input.selectionStart ?? input.value.length;
  const digitsBeforeCaret = input.value.slice(0, caret).replace(/\D/g, '').length;
  const formatted = format(input.value.replace(/\D/g, '').slice(0, maxDigits));
  input.value = formatted;
  let position = 0;
  for (let seen = 0; position < formatted.length && seen < digitsBeforeCaret; position += 1) {
    if (/\d/.test(formatted[position])) seen += 1;
  }
  input.setSelectionRange(position, position);
}

/** @param {HTMLInputElement} input @param {string} message */
function setFieldError(input, message) {
  const error = byId(`${input.id}-error`);
  error.textContent = message;
  error.hidden = message === '';
  input.setAttribute('aria-invalid', String(message !== ''));
}

/** The card form's own checks; returns the fields to send, or null after marking the errors. */
function readCard() {
  const number = /** @type {HTMLInputElement} */ (byId('card-number'));
  const expiry = /** @type {HTMLInputElement} */ (byId('card-expiry'));
  const cvv = /** @type {HTMLInputElement} */ (byId('card-cvv'));
  const cardNumber = number.value.replace(/\D/g, '');
  const expiryMatch = /^(0[1-9]|1[0-2])\/(\d{2})$/.exec(expiry.value);
  const now = new Date();
  const expired =
    expiryMatch &&
    (2000 + Number(expiryMatch[2])) * 12 + Number(expiryMatch[1]) < now.getFullYear() * 12 + now.getMonth() + 1;
  const problems = /** @type {[HTMLInputElement, string][]} */ ([
    [number, luhnValid(cardNumber) ? '' : 'Enter a valid card number.'],
    [expiry, !expiryMatch ? 'Enter the expiry date as MM/YY.' : expired ? 'This card has expired.' : ''],
    [cvv, /^\d{3,4}$/.test(cvv.value) ? '' : 'Enter the 3 or 4 digit security code.'],
  ]);
  for (const [input, message] of problems) setFieldError(input, message);
  const first = problems.find(([, message]) => message !== '');
  if (first) {
    first[0].focus();
    return null;
  }
  return { cardNumber, expiryDate: expiry.value, cvv: cvv.value };
}

/** @param {Answer} answer */
async function onCharge(answer) {
  if (!answer.ok) {
    if (answer.data.code === 'CHECKOUT_NOT_PAYABLE' || answer.status === 404) {
      await refresh();
      if (isFinished()) return;
    }
    showAlert(answer.message);
    return;
  }
  const charge = answer.data;
  if (charge.transactionStatus === 'SUCCESS') {
    finish('SUCCESS', `${merchant} has received your payment by card.`);
  } else if (charge.transactionStatus === 'FAILED') {
    finish(
      'FAILED',
      `${charge.message}. No money was taken. You can ask ${merchant} for a new payment link and try another card.`,
    );
  } else if (charge.nextAction === '3ds') {
    goToBank(charge.redirectUrl);
  } else {
    showStep(charge.nextAction, charge);
  }
}

/** 3-D Secure: the bank's page takes over and sends the customer back here. @param {string} url */
function goToBank(url) {
  byId('card-form').hidden = true;
  byId('step-form').hidden = true;
  showAlert('Your bank needs to confirm this payment. Taking you to your bank…', 'notice');
  window.location.assign(url);
}

/** @param {HTMLButtonElement} button @param {() => Promise<void>} work */
async function busy(button, work) {
  if (button.disabled) return;
  clearAlert();
  const label = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.textContent = 'Please wait…';
  try {
    await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = label;
  }
}

export function setUpCard() {
  const form = byId('card-form');
  const number = /** @type {HTMLInputElement} */ (byId('card-number'));
  const expiry = /** @type {HTMLInputElement} */ (byId('card-expiry'));
  const cvv = /** @type {HTMLInputElement} */ (byId('card-cvv'));
  number.addEventListener('input', () => {
    reformat(number, (digits) => digits.replace(/(\d{4})(?=\d)/g, '$1 '), 19);
    byId('card-brand').textContent = brandOf(number.value.replace(/\D/g, ''));
  });
  expiry.addEventListener('input', (event) => {
    const deleting = /** @type {InputEvent} */ (event).inputType?.startsWith('delete');
    reformat(
      expiry,
      (digits) =>
        digits.length > 2 || (digits.length === 2 && !deleting) ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits,
      4,
    );
  });
  cvv.addEventListener('input', () => reformat(cvv, (digits) => digits, 4));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const card = readCard();
    if (!card) return;
    busy(/** @type {HTMLButtonElement} */ (byId('card-submit')), async () =>
      onCharge(await call('POST', '/card-payment', card)),
    );
  });

  byId('step-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const step = stepOnScreen();
    const definition = step && steps[step];
    if (!definition) return;
    /** @type {Record<string, string>} */
    const values = {};
    /** @type {HTMLInputElement | undefined} */
    let firstInvalid;
    for (const field of definition.fields) {
      const input = /** @type {HTMLInputElement} */ (byId(`step-${field.name}`));
      const value = input.value.trim();
      const valid = field.pattern.test(field.name === 'phone' ? value.replace(/\s/g, '') : value);
      setFieldError(input, valid ? '' : field.error);
      if (!valid) firstInvalid ??= input;
      values[field.name] = value;
    }
    if (firstInvalid) {
      firstInvalid.focus();
      return;
    }
    busy(/** @type {HTMLButtonElement} */ (byId('step-submit')), async () =>
      onCharge(await call('POST', '/card-authorization', definition.answer(values))),
    );
  });
}
