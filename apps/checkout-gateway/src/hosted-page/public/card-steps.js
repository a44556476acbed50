// @ts-check
// The card's verification steps (PIN, OTP, address, birthday, phone): what each asks for and its form.

import { byId, clearAlert, showAlert } from './page.js';

/**
 * A field of exactly `count` digits, on a numeric keypad.
 * @param {string} name @param {string} label @param {number} count
 * @param {{ type?: string, autocomplete: string, error: string }} options
 * @returns {StepField}
 */
function digits(name, label, count, options) {
  return { name, label, inputMode: 'numeric', maxLength: count, pattern: new RegExp(`^\\d{${count}}$`), ...options };
}

/**
 * A line of free text that must not be blank.
 * @param {string} name @param {string} label @param {string} autocomplete @param {number} maxLength @param {string} error
 * @returns {StepField}
 */
function filledIn(name, label, autocomplete, maxLength, error) {
  return { name, label, autocomplete, maxLength, pattern: /\S/, error };
}

/**
 * What each verification step asks for. Labels are what a customer reads; names are the
 * fields card-authorization takes.
 * @typedef {{ name: string, label: string, hint?: string, type?: string, inputMode?: string, autocomplete: string, maxLength?: number, pattern: RegExp, error: string, value?: string }} StepField
 * @type {Record<string, { title: string, hint: string, fields: StepField[], answer: (values: Record<string, string>) => unknown }>}
 */
export const steps = {
  pin: {
    title: 'Enter your card PIN',
    hint: 'The 4-digit PIN you use at ATMs. We never store it.',
    fields: [
      digits('pin', 'Card PIN', 4, { type: 'password', autocomplete: 'off', error: 'Enter the 4 digits of your PIN.' }),
    ],
    answer: (values) => ({ pin: values.pin }),
  },
  otp: {
    title: 'Enter the code your bank sent you',
    hint: 'Your bank sent a 6-digit one-time code by SMS or email.',
    fields: [
      digits('otp', 'One-time code', 6, { autocomplete: 'one-time-code', error: 'Enter the 6 digits of the code.' }),
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
      filledIn('line1', 'Street address', 'address-line1', 200, 'Enter your street address.'),
      filledIn('city', 'City', 'address-level2', 100, 'Enter your city.'),
      filledIn('state', 'State', 'address-level1', 100, 'Enter your state.'),
      filledIn('postalCode', 'Postal code', 'postal-code', 20, 'Enter your postal code.'),
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

/** The step on screen. @type {string | undefined} */
let currentStep;

export function stepOnScreen() {
  return currentStep;
}

/** @param {string} step @param {{ message: string, attemptsLeft?: number }} charge */
export function showStep(step, charge) {
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
