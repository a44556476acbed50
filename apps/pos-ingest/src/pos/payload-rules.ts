import { isKoboAmount, PosPayload, posPayloadFields } from '@payments/contracts';

/** Luhn check digit over a 12 to 19 digit card number. */
export function isLuhnValid(pan: string): boolean {
  if (!/^\d{12,19}$/.test(pan)) return false;
  let sum = 0;
  for (let i = 0; i < pan.length; i += 1) {
    let digit = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

const rules: Partial<Record<keyof PosPayload, { valid: (value: string) => boolean; message: string }>> = {
  pan: { valid: isLuhnValid, message: 'pan must be a 12 to 19 digit card number with a valid check digit' },
  cardExpiryDate: { valid: (value) => /^\d{4}$/.test(value), message: 'cardExpiryDate must be four digits' },
  amount: { valid: isKoboAmount, message: 'amount must be a positive whole number of kobo' },
  sequenceNumber: { valid: (value) => value.length > 0 && value.length <= 32, message: 'sequenceNumber must be 1 to 32 characters' },
};

/**
 * The fields of a decrypted payload that are missing or wrong, each with what is expected.
 * Values are never part of a message: they are card data.
 */
export function payloadProblems(payload: Record<string, unknown>): { field: string; messages: string[] }[] {
  return posPayloadFields.flatMap((field) => {
    const value = payload[field];
    if (typeof value !== 'string') return [{ field, messages: [`${field} is required and must be a string`] }];
    const rule = rules[field];
    return rule && !rule.valid(value) ? [{ field, messages: [rule.message] }] : [];
  });
}

export function maskPan(pan: string): string {
  return `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`;
}
