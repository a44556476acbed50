import { isKoboAmount, isLuhnValid, PosPayload, posPayloadFields } from '@payments/contracts';

const rules: Partial<Record<keyof PosPayload, { valid: (value: string) => boolean; message: string }>> = {
  pan: { valid: isLuhnValid, message: 'pan must be a 12 to 19 digit card number with a valid check digit' },
  cardExpiryDate: { valid: (value) => /^\d{4}$/.test(value), message: 'cardExpiryDate must be four digits' },
  amount: { valid: isKoboAmount, message: 'amount must be a positive whole number of kobo' },
  sequenceNumber: {
    valid: (value) => value.length > 0 && value.length <= 32,
    message: 'sequenceNumber must be 1 to 32 characters',
  },
};

/**
 * The fields of a decrypted payload that are missing or wrong, each with what is expected.
 * Values are never part of a message: they are card data.
 */
export function payloadProblems(payload: Record<string, unknown>): { field: string; messages: string[] }[] {
  return posPayloadFields.flatMap((field) => {
    const value = payload[field];
    if (typeof value !== 'string') return [{ field, messages: [`${field} is required and must be a string`] }];
    if (value.includes('\u0000')) return [{ field, messages: [`${field} must not contain NUL characters`] }];
    const rule = rules[field];
    return rule && !rule.valid(value) ? [{ field, messages: [rule.message] }] : [];
  });
}

export function maskPan(pan: string): string {
  return `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`;
}
