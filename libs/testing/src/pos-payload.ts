import { randomBytes, randomInt } from 'node:crypto';

import { PosPayload } from '@payments/contracts';

/** The sandbox card the issuer approves at a terminal (docs/pos.md). */
export const approvedPosCard = '5061460410120223210';

/**
 * A terminal's decrypted transaction for the approved sandbox card. Each call is a new card
 * transaction (its own chip cryptogram and sequence number) unless `overrides` pins them.
 */
export function samplePosPayload(overrides: Partial<PosPayload> = {}): PosPayload {
  return {
    accountType: 'savings',
    amount: '150000',
    cardExpiryDate: '2812',
    iccData: `9F2608${randomBytes(8).toString('hex').toUpperCase()}`,
    pan: approvedPosCard,
    pinBlock: 'null',
    sequenceNumber: String(randomInt(1, 999_999)).padStart(6, '0'),
    cardHolderName: 'ADE BOLA',
    aid: 'A0000003710001',
    track2Data: `${approvedPosCard}D2812101`,
    institutionCode: '627629',
    ...overrides,
  };
}
