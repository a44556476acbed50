// @ts-check
// The hosted checkout page. Card details live only in this page's memory and in the JSON body
// of one request to our own origin: never in the URL, storage, cookies or logs.
'use strict';

(() => {
  const root = document.getElementById('checkout');
  if (!root) return;

  const pollEveryMs = 2000;
  const returnDelaySeconds = 5;
  const reference = root.dataset.reference ?? '';
  const returnUrl = root.dataset.returnUrl ?? '';
  const merchant = text('.merchant');
  /** @type {number | undefined} */
  let pollTimer;
  /** @type {number | undefined} */
  let countdownTimer;
  let finished = false;

  /** @param {string} selector */
  function text(selector) {
    return document.querySelector(selector)?.textContent?.trim() ?? '';
  }

  /**
   * @template {HTMLElement} T
   * @param {string} id
   * @returns {T}
   */
  function byId(id) {
    const found = document.getElementById(id);
    if (!found) throw new Error(`missing #${id}`);
    return /** @type {T} */ (found);
  }

  // ---- Talking to the gateway ------------------------------------------------------------

  /**
   * @typedef {{ ok: boolean, status: number, message: string, data: any }} Answer
   * @param {'GET' | 'POST'} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<Answer>}
   */
  async function call(method, path, body) {
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

  // ---- Messages and the final screen ---------------------------------------------------------

  /** @param {string} message @param {'error' | 'notice'} [kind] */
  function showAlert(message, kind = 'error') {
    const alert = byId('alert');
    alert.textContent = message;
    alert.classList.toggle('notice', kind === 'notice');
    alert.hidden = false;
  }

  function clearAlert() {
    byId('alert').hidden = true;
  }

  /**
   * Ends the page on the checkout's outcome, then sends the customer back to the merchant.
   * @param {'SUCCESS' | 'FAILED'} status
   * @param {string} detail
   */
  function finish(status, detail) {
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
  function returnToMerchant(target) {
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

  // ---- Watching for payments made outside the page (transfer, QR) ---------------------------

  function watch() {
    if (pollTimer !== undefined || finished) return;
    pollTimer = window.setInterval(async () => {
      const answer = await call('GET', '');
      if (answer.ok) settleFromView(answer.data);
    }, pollEveryMs);
  }

  function stopWatching() {
    window.clearInterval(pollTimer);
    window.clearInterval(countdownTimer);
    pollTimer = countdownTimer = undefined;
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
  async function refresh() {
    const answer = await call('GET', '');
    if (answer.ok) settleFromView(answer.data);
  }

  // ---- Choosing a method -----------------------------------------------------------------------

  /** @type {Record<string, () => void>} */
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
      openers[method]?.();
    }
  }

  // ---- Bank transfer ---------------------------------------------------------------------------

  async function openTransfer() {
    const answer = await call('POST', '/pay-with-transfer');
    if (!answer.ok) {
      opened.delete('pay-with-transfer');
      byId('transfer-loading').textContent = answer.message;
      if (answer.status === 404 || answer.status === 422) await refresh();
      return;
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
        window.clearInterval(countdownTimer);
        refresh();
      }
    };
    tick();
    line.hidden = false;
    countdownTimer = window.setInterval(tick, 1000);
  }

  // ---- QR code ---------------------------------------------------------------------------------

  function openQr() {
    const image = /** @type {HTMLImageElement} */ (byId('qr-image'));
    image.addEventListener('error', () => refresh(), { once: true });
    image.src = `/checkout/session/${encodeURIComponent(reference)}/qr.svg`;
    watch();
  }

  // ---- Card ------------------------------------------------------------------------------------

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

  /**
   * What each verification step asks for. Labels are what a customer reads; names are the
   * fields card-authorization takes.
   * @typedef {{ name: string, label: string, hint?: string, type?: string, inputMode?: string, autocomplete: string, maxLength?: number, pattern: RegExp, error: string, value?: string }} StepField
   * @type {Record<string, { title: string, hint: string, fields: StepField[], answer: (values: Record<string, string>) => unknown }>}
   */
  const steps = {
    pin: {
      title: 'Enter your card PIN',
      hint: 'The 4-digit PIN you use at ATMs. We never store it.',
      fields: [
        {
          name: 'pin',
          label: 'Card PIN',
          type: 'password',
          inputMode: 'numeric',
          autocomplete: 'off',
          maxLength: 4,
          pattern: /^\d{4}$/,
          error: 'Enter the 4 digits of your PIN.',
        },
      ],
      answer: (values) => ({ pin: values.pin }),
    },
    otp: {
      title: 'Enter the code your bank sent you',
      hint: 'Your bank sent a 6-digit one-time code by SMS or email.',
      fields: [
        {
          name: 'otp',
          label: 'One-time code',
          inputMode: 'numeric',
          autocomplete: 'one-time-code',
          maxLength: 6,
          pattern: /^\d{6}$/,
          error: 'Enter the 6 digits of the code.',
        },
      ],
      answer: (values) => ({ otp: values.otp }),
    },
    birthday: {
      title: 'Confirm your date of birth',
      hint: 'Your bank asks for it to confirm this payment.',
      fields: [
        {
          name: 'birthday',
          label: 'Date of birth',
          hint: 'YYYY-MM-DD, for example 1990-01-31',
          autocomplete: 'bday',
          maxLength: 10,
          pattern: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
          error: 'Enter your date of birth as YYYY-MM-DD.',
        },
      ],
      answer: (values) => ({ birthday: values.birthday }),
    },
    phone: {
      title: 'Confirm your phone number',
      hint: 'The mobile number your bank has for this card.',
      fields: [
        {
          name: 'phone',
          label: 'Phone number',
          hint: 'For example 08031234567',
          type: 'tel',
          inputMode: 'tel',
          autocomplete: 'tel',
          maxLength: 14,
          pattern: /^(\+234|0)[789][01]\d{8}$/,
          error: 'Enter a Nigerian mobile number, for example 08031234567.',
        },
      ],
      answer: (values) => ({ phone: values.phone.replace(/\s/g, '') }),
    },
    avs: {
      title: 'Confirm your billing address',
      hint: 'The address your bank has for this card.',
      fields: [
        {
          name: 'line1',
          label: 'Street address',
          autocomplete: 'address-line1',
          maxLength: 200,
          pattern: /\S/,
          error: 'Enter your street address.',
        },
        {
          name: 'city',
          label: 'City',
          autocomplete: 'address-level2',
          maxLength: 100,
          pattern: /\S/,
          error: 'Enter your city.',
        },
        {
          name: 'state',
          label: 'State',
          autocomplete: 'address-level1',
          maxLength: 100,
          pattern: /\S/,
          error: 'Enter your state.',
        },
        {
          name: 'postalCode',
          label: 'Postal code',
          autocomplete: 'postal-code',
          maxLength: 20,
          pattern: /\S/,
          error: 'Enter your postal code.',
        },
        {
          name: 'country',
          label: 'Country code',
          hint: 'Two letters, for example NG',
          autocomplete: 'country',
          maxLength: 2,
          pattern: /^[A-Za-z]{2}$/,
          error: 'Enter the two-letter country code, for example NG.',
          value: 'NG',
        },
      ],
      answer: (values) => ({ address: { ...values, country: values.country.toUpperCase() } }),
    },
  };

  /** @type {string | undefined} */
  let currentStep;

  /** @param {string} step @param {{ message: string, attemptsLeft?: number }} charge */
  function showStep(step, charge) {
    const definition = steps[step];
    if (!definition) {
      showAlert(charge.message);
      return;
    }
    byId('card-form').hidden = true;
    const form = byId('step-form');
    const fields = byId('step-fields');
    if (currentStep !== step) {
      currentStep = step;
      byId('step-title').textContent = definition.title;
      byId('step-hint').textContent = definition.hint;
      fields.replaceChildren(...definition.fields.map(stepField));
    } else {
      for (const input of fields.querySelectorAll('input')) input.value = '';
    }
    form.hidden = false;
    if (charge.attemptsLeft !== undefined) {
      // The processor's message names the wrong answer and the tries left.
      showAlert(charge.message);
    } else {
      clearAlert();
    }
    /** @type {HTMLInputElement | null} */ (fields.querySelector('input'))?.focus();
  }

  /** @param {StepField} field */
  function stepField(field) {
    const wrapper = document.createElement('div');
    wrapper.className = 'field';
    const id = `step-${field.name}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = field.label;
    if (field.hint) {
      const hint = document.createElement('span');
      hint.className = 'hint';
      hint.textContent = ` ${field.hint}`;
      label.append(hint);
    }
    const input = document.createElement('input');
    input.id = id;
    input.name = field.name;
    input.type = field.type ?? 'text';
    input.autocomplete = /** @type {AutoFill} */ (field.autocomplete);
    if (field.inputMode) input.inputMode = field.inputMode;
    if (field.maxLength) input.maxLength = field.maxLength;
    if (field.value) input.value = field.value;
    input.required = true;
    input.setAttribute('aria-describedby', `${id}-error`);
    const error = document.createElement('p');
    error.className = 'field-error';
    error.id = `${id}-error`;
    error.hidden = true;
    wrapper.append(label, input, error);
    return wrapper;
  }

  /** @param {Answer} answer */
  async function onCharge(answer) {
    if (!answer.ok) {
      if (answer.data.code === 'CHECKOUT_NOT_PAYABLE' || answer.status === 404) {
        await refresh();
        if (finished) return;
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

  function setUpCard() {
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
      const definition = currentStep && steps[currentStep];
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

  // ---- Start -----------------------------------------------------------------------------------

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
})();
